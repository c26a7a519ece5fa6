/**
 * Form bodies as inbound-mail providers post them (Mailgun: form-encoded or multipart; SendGrid Inbound
 * Parse: multipart). Unlike the REST layer's decoder (PHP's $_POST rules, text decoded as UTF-8), this
 * keeps each field's bytes until its charset is known: SendGrid posts the text in the email's own
 * charset and names it in the `charsets` field, and its `email` field is a raw MIME message.
 */
import { invalidFields } from './errors';

export interface PostedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface PostedForm {
  /** Field values as text, decoded with the part's charset, else the `charsets` field's, else UTF-8. */
  fields: Record<string, string>;
  /** Field values as posted (a raw MIME message in a field must not go through a text decoder). */
  fieldBytes: Record<string, Buffer>;
  files: PostedFile[];
}

interface RawField {
  name: string;
  bytes: Buffer;
  charset?: string;
}

export function readUrlencoded(raw: Buffer): PostedForm {
  const fields: RawField[] = [];
  for (const pair of raw.toString('latin1').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    fields.push({ name: unescapeBuffer(name.replace(/\+/g, ' ')).toString('utf8'), bytes: unescapeBuffer(value.replace(/\+/g, ' ')) });
  }
  return { fields: decodeFields(fields), fieldBytes: bytesOf(fields), files: [] };
}

/** Splits a multipart/form-data body (already read in full, within the route's limit) into fields and files. */
export function readMultipart(raw: Buffer, contentType: string): PostedForm {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw unreadableForm();
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields: RawField[] = [];
  const files: PostedFile[] = [];
  let at = raw.indexOf(delimiter);
  if (at < 0) throw unreadableForm();
  while (at >= 0) {
    const afterDelimiter = at + delimiter.length;
    if (raw.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') break;
    const headerStart = raw.indexOf('\n', afterDelimiter) + 1;
    const headerEnd = findHeaderEnd(raw, headerStart);
    if (headerStart <= 0 || !headerEnd) throw unreadableForm();
    const next = raw.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd.body);
    const nextLf = next < 0 ? raw.indexOf(Buffer.concat([Buffer.from('\n'), delimiter]), headerEnd.body) : -1;
    if (next < 0 && nextLf < 0) throw unreadableForm();
    const bodyEnd = next >= 0 ? next : nextLf;
    addPart(raw.subarray(headerStart, headerEnd.headers).toString('utf8'), raw.subarray(headerEnd.body, bodyEnd), fields, files);
    at = raw.indexOf(delimiter, bodyEnd);
  }
  return { fields: decodeFields(fields), fieldBytes: bytesOf(fields), files };
}

function findHeaderEnd(raw: Buffer, from: number): { headers: number; body: number } | null {
  const crlf = raw.indexOf('\r\n\r\n', from);
  const lf = raw.indexOf('\n\n', from);
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return { headers: crlf, body: crlf + 4 };
  return lf >= 0 ? { headers: lf, body: lf + 2 } : null;
}

function addPart(headerText: string, body: Buffer, fields: RawField[], files: PostedFile[]): void {
  const headers = new Map<string, string>();
  for (const line of headerText.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim());
  }
  const disposition = params(headers.get('content-disposition') ?? '');
  const name = disposition.name;
  if (name === undefined) return;
  const type = headers.get('content-type') ?? '';
  const filename = disposition['filename*'] !== undefined ? extendedValue(disposition['filename*']) : disposition.filename;
  if (filename !== undefined) {
    files.push({ field: name, filename, mimeType: (type.split(';')[0] ?? '').trim().toLowerCase() || 'application/octet-stream', data: Buffer.from(body) });
  } else {
    fields.push({ name, bytes: Buffer.from(body), charset: params(type).charset });
  }
}

/** The `name=value` parameters of a header value (quoted or bare). */
function params(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of value.matchAll(/;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
    const raw = (m[2] as string).trim();
    out[(m[1] as string).toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return out;
}

/** RFC 5987 `UTF-8''name%20with%20spaces`. */
function extendedValue(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return value;
  return decodeText(unescapeBuffer(match[2] as string), match[1] || 'utf-8');
}

/** `%XX` escapes to their bytes; anything else stays as its Latin-1 byte (the input was read as Latin-1). */
function unescapeBuffer(text: string): Buffer {
  const bytes = Buffer.from(text, 'latin1');
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x25 ? bytes.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out[n++] = parseInt(hex, 16);
      i += 2;
    } else {
      out[n++] = bytes[i] as number;
    }
  }
  return out.subarray(0, n);
}

function bytesOf(raw: RawField[]): Record<string, Buffer> {
  return Object.fromEntries(raw.map((f) => [f.name, f.bytes]));
}

function decodeFields(raw: RawField[]): Record<string, string> {
  const charsetsField = raw.find((f) => f.name === 'charsets');
  let charsets: Record<string, unknown> = {};
  try {
    charsets = charsetsField ? JSON.parse(charsetsField.bytes.toString('utf8')) : {};
  } catch {
    // A broken charsets field leaves every field UTF-8.
  }
  const fields: Record<string, string> = {};
  for (const field of raw) {
    const named = typeof charsets[field.name] === 'string' ? (charsets[field.name] as string) : undefined;
    fields[field.name] = decodeText(field.bytes, field.charset ?? named ?? 'utf-8');
  }
  return fields;
}

/** Bytes as text in a named charset (WHATWG labels, which Node's ICU covers); unknown labels fall back to UTF-8. */
export function decodeText(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.trim().toLowerCase()).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function unreadableForm(): Error {
  return invalidFields(['body'], 'The multipart body could not be read.');
}
