/**
 * A request body as the recorder reads it: form-encoded, JSON or multipart bodies are split into
 * fields so that each value can be judged and replaced; any other body, or one of these that does
 * not parse (or was cut at the recording's cap), is opaque: only its size and type are written down.
 * Uploaded files are never kept.
 */
import { safeDecode } from '../../replay/route-key';

/** A field's value as it may be written down (the same value, or its placeholder). */
export type FieldRedactor = (name: string, value: string) => string;

export interface ReadableBody {
  kind: 'form' | 'json' | 'multipart';
  /** Form and multipart fields, decoded, in order: what PHP reads into $_POST. */
  fields: Array<[string, string]>;
  /** Files it carried (their contents are not written down). */
  files: number;
  /** The body with each field value passed through `redact`, and each file's content left out. */
  write(redact: FieldRedactor): string;
}

export interface OpaqueBody {
  kind: 'opaque';
  /** What the recording says instead of the body: `not recorded: 53 bytes of message/rfc822`. */
  reason: string;
}

export function readRequestBody(bytes: Buffer, contentType: string, cut: boolean): ReadableBody | OpaqueBody {
  const readable = cut ? null : parsed(bytes, contentType);
  return readable ?? { kind: 'opaque', reason: `not recorded: ${bytes.length}${cut ? '+' : ''} bytes of ${contentType.split(';')[0]?.trim() || 'no declared type'}` };
}

function parsed(bytes: Buffer, contentType: string): ReadableBody | null {
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) return formBody(bytes.toString('utf8'));
  if (/^application\/([\w.-]+\+)?json/i.test(contentType)) return jsonBody(bytes.toString('utf8'));
  const boundary = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  if (boundary) return multipartBody(bytes, (boundary[1] ?? boundary[2]) as string);
  return null;
}

/** A query string or form body with each value through `redact`, every other byte as sent. */
export function redactForm(text: string, redact: FieldRedactor): string {
  return formBody(text).write(redact);
}

/** `a=1&b=2`: each value replaced where it stands, every other byte as sent. */
function formBody(text: string): ReadableBody {
  const pairs = text.split('&').map((raw) => {
    const eq = raw.indexOf('=');
    return { raw, name: eq < 0 ? null : formDecode(raw.slice(0, eq)), value: eq < 0 ? '' : formDecode(raw.slice(eq + 1)) };
  });
  return {
    kind: 'form',
    fields: pairs.filter((p) => p.name !== null).map((p) => [p.name as string, p.value]),
    files: 0,
    write: (redact) => pairs.map((p) => {
      if (p.name === null || !p.value) return p.raw;
      const written = redact(p.name, p.value);
      return written === p.value ? p.raw : `${p.raw.slice(0, p.raw.indexOf('=') + 1)}${written}`;
    }).join('&'),
  };
}

function jsonBody(text: string): ReadableBody | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  return {
    kind: 'json', fields: [], files: 0,
    write: (redact) => {
      let changed = false;
      const written = jsonValues(data, '', (name, value) => {
        const out = redact(name, value);
        changed ||= out !== value;
        return out;
      });
      // Unchanged, the body stays as sent, byte for byte.
      return changed ? JSON.stringify(written) : text;
    },
  };
}

/** Every string in the data through `redact`, named by its member (a list's items by the list's). */
function jsonValues(value: unknown, name: string, redact: FieldRedactor): unknown {
  if (typeof value === 'string') return value ? redact(name, value) : value;
  if (Array.isArray(value)) return value.map((v) => jsonValues(v, name, redact));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValues(v, k, redact)]));
}

interface Part {
  /** The part's header block as sent. */
  head: string;
  name: string;
  isFile: boolean;
  /** Field value (UTF-8), or the file's size in bytes. */
  value: string;
  size: number;
}

/** rfc7578 parts between `--boundary` lines; null when the body is not made of them whole. */
function multipartBody(bytes: Buffer, boundary: string): ReadableBody | null {
  // latin1 keeps one character per byte, so positions are byte offsets and sizes are exact.
  const text = bytes.toString('latin1');
  const delimiter = `--${boundary}`;
  const sections = text.split(delimiter);
  if (sections.length < 2 || sections[0]?.replace(/\r?\n$/, '') !== '' || !/^--\s*$/.test(sections.at(-1) as string)) return null;
  const parts: Part[] = [];
  for (const section of sections.slice(1, -1)) {
    const part = readPart(section);
    if (!part) return null;
    parts.push(part);
  }
  const files = parts.filter((p) => p.isFile);
  return {
    kind: 'multipart',
    fields: parts.filter((p) => !p.isFile).map((p) => [p.name, p.value]),
    files: files.length,
    write: (redact) => {
      const written = parts.map((p) => {
        const content = p.isFile ? (p.size ? `<file not recorded: ${p.size} bytes>` : '') : p.value && redact(p.name, p.value);
        return `${delimiter}\r\n${utf8(p.head)}\r\n\r\n${content}\r\n`;
      });
      return `${written.join('')}${delimiter}--\r\n`;
    },
  };
}

function readPart(section: string): Part | null {
  const start = section.startsWith('\r\n') ? 2 : section.startsWith('\n') ? 1 : -1;
  const end = section.endsWith('\r\n') ? section.length - 2 : section.endsWith('\n') ? section.length - 1 : -1;
  const blank = /\r?\n\r?\n/.exec(section.slice(start, end));
  if (start < 0 || end < start || !blank) return null;
  const head = section.slice(start, start + blank.index);
  const content = section.slice(start + blank.index + blank[0].length, end);
  const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(head)?.[1];
  const name = disposition === undefined ? undefined : /\bname="([^"]*)"/i.exec(disposition)?.[1];
  if (!name) return null;
  const isFile = /\bfilename\*?=/i.test(disposition as string);
  return { head, name: utf8(name), isFile, value: isFile ? '' : utf8(content), size: content.length };
}

function utf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

function formDecode(text: string): string {
  return safeDecode(text.replace(/\+/g, ' '));
}
