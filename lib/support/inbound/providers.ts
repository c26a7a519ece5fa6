/**
 * The field shapes automation tools post, mapped to one email, so a Zapier, Make or n8n step can
 * forward what its mail trigger gives without a mapping step. Recognised, in this order:
 * - a raw message in a field: SendGrid's `email` ("send raw" on), or the generic `raw`;
 * - Postmark inbound JSON (`FromFull`, `TextBody`, `HtmlBody`, `Headers` [{Name, Value}], `Attachments`);
 * - Mailgun routes (`sender`, `recipient`, `body-plain`, `body-html`, `message-headers`, `attachment-N`);
 * - SendGrid Inbound Parse (`headers` as a raw header block, `charsets`, `attachment-info`, `attachmentN`);
 * - the generic shape documented in docs/mail-intake.md (`from`, `text`, `html`, `attachments` as base64).
 * Missing fields are named in the provider's own terms.
 */
import { parseMailbox } from '../../mail/address';
import { invalidFields, missingFields } from './errors';
import { PostedFile } from './form-body';

export interface EmailFields {
  /** A From header value: `Name <address>` or a bare address. */
  from: string;
  to?: string;
  cc?: string;
  subject?: string;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string;
  date?: string;
  /** Other headers as posted (Auto-Submitted, Precedence, ... matter to the loop rules). */
  headers: Array<[string, string]>;
  attachments: FieldAttachment[];
}

export interface FieldAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  contentId?: string;
  inline?: boolean;
}

export type InboundPayload =
  | { kind: 'raw'; raw: Buffer; shape: string }
  | { kind: 'fields'; fields: EmailFields; shape: string };

/** Posted files (multipart) and the bytes of posted fields, for the shapes that need them. */
export interface PostedExtras {
  files: PostedFile[];
  bytes: Record<string, Buffer>;
}

type Rec = Record<string, unknown>;

export function fieldsFromRecord(r: Rec, extras: PostedExtras): InboundPayload {
  if (typeof r.email === 'string' && looksLikeMessage(r.email)) {
    return { kind: 'raw', raw: extras.bytes.email ?? Buffer.from(r.email, 'utf8'), shape: 'sendgrid-raw' };
  }
  if (typeof r.raw === 'string' && r.raw.trim()) return { kind: 'raw', raw: Buffer.from(r.raw, 'utf8'), shape: 'generic-raw' };
  if ('FromFull' in r || 'TextBody' in r || 'HtmlBody' in r) return { kind: 'fields', fields: postmark(r), shape: 'postmark' };
  if (['body-plain', 'body-html', 'stripped-text', 'message-headers'].some((k) => k in r) || ('sender' in r && 'recipient' in r)) {
    return { kind: 'fields', fields: mailgun(r, extras.files), shape: 'mailgun' };
  }
  if (typeof r.headers === 'string' || 'attachment-info' in r || 'charsets' in r || 'envelope' in r) {
    return { kind: 'fields', fields: sendgrid(r, extras.files), shape: 'sendgrid' };
  }
  return { kind: 'fields', fields: generic(r, extras.files), shape: 'generic' };
}

function postmark(r: Rec): EmailFields {
  const fromFull = asRecord(r.FromFull);
  const from = fromFull && str(fromFull.Email) ? addressOf(str(fromFull.Name), str(fromFull.Email)) : str(r.From);
  const headers = asArray(r.Headers).map(asRecord).filter(isRecord).map((h): [string, string] => [str(h.Name), str(h.Value)]);
  const attachments = asArray(r.Attachments).map(asRecord).filter(isRecord).map((a, i) => ({
    filename: str(a.Name), contentType: str(a.ContentType), content: base64(a.Content, `Attachments[${i}].Content`),
    contentId: bareCid(str(a.ContentID)), inline: Boolean(str(a.ContentID)),
  }));
  const fields = withThreading({
    from, to: str(r.To), cc: str(r.Cc), subject: str(r.Subject), text: str(r.TextBody), html: str(r.HtmlBody), date: str(r.Date),
    // Postmark's own `MessageID` is its delivery ID; the email's Message-ID is in Headers.
    headers, attachments,
  });
  return required(fields, 'From', 'TextBody or HtmlBody');
}

function mailgun(r: Rec, files: PostedFile[]): EmailFields {
  const headers = asArray(parseJsonish(r['message-headers'])).filter(Array.isArray).map((h): [string, string] => [str(h[0]), str(h[1])]);
  const cids = asRecord(parseJsonish(r['content-id-map'])) ?? {};
  const cidOf = (field: string) => Object.keys(cids).find((cid) => cids[cid] === field);
  const attachments = files.filter((f) => /^attachment-\d+$/.test(f.field)).map((f) => ({
    filename: f.filename, contentType: f.mimeType, content: f.data, contentId: bareCid(cidOf(f.field) ?? ''), inline: cidOf(f.field) !== undefined,
  }));
  const fields = withThreading({
    from: str(r.from) || str(r.From) || str(r.sender), to: str(r.To) || str(r.recipient), cc: str(r.Cc), subject: str(r.subject) || str(r.Subject),
    text: str(r['body-plain']) || str(r['stripped-text']), html: str(r['body-html']) || str(r['stripped-html']), date: str(r.Date),
    messageId: str(r['Message-Id']), inReplyTo: str(r['In-Reply-To']), references: str(r.References), headers, attachments,
  });
  return required(fields, 'from', 'body-plain or body-html');
}

function sendgrid(r: Rec, files: PostedFile[]): EmailFields {
  const headers = headerBlock(str(r.headers));
  const info = asRecord(parseJsonish(r['attachment-info'])) ?? {};
  const attachments = files.filter((f) => /^attachment\d+$/.test(f.field)).map((f) => {
    const meta = asRecord(info[f.field]) ?? {};
    const cid = str(meta['content-id']);
    return { filename: str(meta.filename) || f.filename, contentType: str(meta.type) || f.mimeType, content: f.data, contentId: bareCid(cid), inline: Boolean(cid) };
  });
  const fields = withThreading({
    from: str(r.from), to: str(r.to), cc: str(r.cc), subject: str(r.subject), text: str(r.text), html: str(r.html), headers, attachments,
  });
  return required(fields, 'from', 'text or html');
}

function generic(r: Rec, files: PostedFile[]): EmailFields {
  const fromRecord = asRecord(r.from);
  const from = fromRecord
    ? addressOf(str(fromRecord.name), str(fromRecord.email) || str(fromRecord.address))
    : str(r.from) || addressOf(str(r.from_name), str(r.from_email)) || str(r.sender);
  const attachments = [
    ...asArray(r.attachments).map(asRecord).filter(isRecord).map((a, i) => ({
      filename: str(a.filename) || str(a.name), contentType: str(a.content_type) || str(a.contentType) || str(a.type) || str(a.mime_type),
      content: base64(a.content ?? a.data, `attachments[${i}].content`), contentId: bareCid(str(a.content_id) || str(a.cid)),
      inline: a.inline === true || a.inline === 'true' || a.inline === '1',
    })),
    ...files.map((f) => ({ filename: f.filename, contentType: f.mimeType, content: f.data })),
  ];
  const fields = withThreading({
    from, to: list(r.to), cc: list(r.cc), subject: str(r.subject), text: str(r.text) || str(r.body_plain) || str(r.plain),
    html: str(r.html) || str(r.body_html), date: str(r.date), messageId: str(r.message_id), inReplyTo: str(r.in_reply_to),
    references: list(r.references, ' '), headers: genericHeaders(r.headers), attachments,
  });
  return required(fields, 'from', 'text or html');
}

/** Message-ID, In-Reply-To and References from the header list when no field gave them. */
function withThreading(f: EmailFields): EmailFields {
  const header = (name: string) => f.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
  return {
    ...f,
    messageId: f.messageId || header('message-id') || undefined,
    inReplyTo: f.inReplyTo || header('in-reply-to') || undefined,
    references: f.references || header('references') || undefined,
  };
}

function required(f: EmailFields, fromName: string, bodyName: string): EmailFields {
  const absent: string[] = [];
  if (!hasSender(f.from)) absent.push(fromName);
  if (!f.text?.trim() && !f.html?.trim() && !f.attachments.length) absent.push(bodyName);
  if (absent.length) throw missingFields(absent);
  return f;
}

/**
 * Whether a posted from names exactly one cleanly written mailbox, checked before the message is
 * composed: nodemailer would repair `<a@good.test>@evil.test` into `"@evil.test" <a@good.test>`,
 * which then reads clean. Anything else counts as no from at all, as in a raw message (parse.ts).
 */
function hasSender(from: string): boolean {
  return parseMailbox(from.replace(/\r?\n(?=[ \t])/g, '')) !== null;
}

/** SendGrid's `headers`: the message's raw header block, unfolded. */
function headerBlock(block: string): Array<[string, string]> {
  return block.replace(/\r\n?/g, '\n').replace(/\n[ \t]+/g, ' ').split('\n')
    .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()] as [string, string])
    .filter(([name]) => name.length > 0 && !/\s/.test(name));
}

/** Generic headers: an object (`{"Auto-Submitted": "auto-replied"}`) or a list of `{name, value}` / `[name, value]`. */
function genericHeaders(value: unknown): Array<[string, string]> {
  if (Array.isArray(value)) {
    return value.map((h) => (Array.isArray(h) ? [str(h[0]), str(h[1])] : [str(asRecord(h)?.name), str(asRecord(h)?.value)]) as [string, string])
      .filter(([name]) => name);
  }
  const record = asRecord(value);
  if (!record) return [];
  return Object.entries(record).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((one): [string, string] => [name, str(one)]));
}

function base64(value: unknown, field: string): Buffer {
  const text = typeof value === 'string' ? value.replace(/\s+/g, '') : '';
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1) throw invalidFields([field], `${field} must be base64.`);
  return Buffer.from(text, 'base64');
}

function looksLikeMessage(text: string): boolean {
  return /^[\x21-\x39\x3b-\x7e]+:/.test(text.trimStart());
}

function addressOf(name: string, address: string): string {
  if (!address) return '';
  return name ? `"${name.replace(/["\\\r\n]/g, ' ')}" <${address}>` : address;
}

function bareCid(cid: string): string | undefined {
  return cid.replace(/^<|>$/g, '').trim() || undefined;
}

function parseJsonish(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A list of addresses or IDs as posted (array, or already a string). */
function list(value: unknown, separator = ', '): string {
  if (Array.isArray(value)) return value.map((v) => (asRecord(v) ? str(asRecord(v)?.email) || str(asRecord(v)?.address) : str(v))).filter(Boolean).join(separator);
  return str(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asRecord(value: unknown): Rec | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Rec) : undefined;
}

function isRecord(value: Rec | undefined): value is Rec {
  return value !== undefined;
}
