/**
 * Reading an RFC 5322 message with mailparser into what intake needs: sender, threading headers, the
 * text (an HTML-only message gets mailparser's html-to-text rendering: email HTML is never stored or
 * served as HTML), the raw header lines the loop rules look at, and the files. Charsets (ISO-8859-x,
 * Windows-125x, Shift_JIS, ISO-2022-JP, ...) and RFC 2047 encoded words are mailparser's job.
 */
import path from 'node:path';
import type { AddressObject, Attachment } from 'mailparser';
import { lazyRequire } from '../../lazy-require';
import { parseMailbox } from '../../mail/address';
import { IncomingFile } from '../tickets/types';

/** Required on the first message: a process that reads no mail never holds mailparser (about 20 MB). */
const mailparser = lazyRequire(() => require('mailparser') as typeof import('mailparser'));

export interface ParsedEmail {
  /** The sender; null when From is missing, repeated, or not one cleanly written mailbox (see senderOf). */
  from: { address: string; name: string } | null;
  /**
   * The From header as written (unfolded, UTF-8; several joined by a newline; '' when absent), at most
   * RAW_FROM_MAX characters: what agents see when `from` is null, and what a receipt records.
   */
  rawFrom: string;
  subject: string;
  text: string;
  /** Message-IDs keep their angle brackets, as `_svc_message_id` stores them. */
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  /** Unfolded raw header values by lowercase name, in message order. */
  headers: Map<string, string[]>;
  /** The top-level media type and its parameters (a bounce is `multipart/report`). */
  contentType: { value: string; params: Record<string, string> };
  /** Files in message order; an embedded image keeps its Content-ID. */
  attachments: IncomingFile[];
}

export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
  // keepCidLinks: the HTML is not kept, so inlining every image into it as a data: URL is wasted work.
  const mail = await mailparser().simpleParser(raw, { keepCidLinks: true });
  const files = mail.attachments.map(toFile);
  const type = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return {
    from: senderOf(mail.headerLines, mail.from),
    rawFrom: rawFromOf(mail.headerLines),
    subject: (mail.subject ?? '').replace(/\s+/g, ' ').trim(),
    text: readableText(mail.text || (mail.html ? await htmlToText(mail.html) : ''), files),
    messageId: messageIds(mail.messageId)[0] ?? null,
    inReplyTo: messageIds(mail.inReplyTo)[0] ?? null,
    references: messageIds(mail.references),
    headers: headerMap(mail.headerLines),
    contentType: { value: (type?.value ?? 'text/plain').toLowerCase(), params: type?.params ?? {} },
    attachments: files,
  };
}

/**
 * Text for HTML that mailparser left unconverted (it converts only an HTML part without a text
 * sibling, not one inside multipart/related): the same html-to-text, reached through a one-part message.
 */
async function htmlToText(html: string): Promise<string> {
  const part = `Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(html, 'utf8').toString('base64')}`;
  return (await mailparser().simpleParser(Buffer.from(part), { keepCidLinks: true })).text ?? '';
}

/** Every `<id>` in a header value (In-Reply-To may carry extra text; References carries many). */
export function messageIds(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(' ') : value ?? '';
  const bracketed = text.match(/<[^<>\s]+>/g);
  if (bracketed) return bracketed;
  // Some senders drop the brackets; a lone token that looks like an id is taken as one.
  return text.split(/\s+/).filter((t) => /^[^\s@]+@[^\s@]+$/.test(t)).map((t) => `<${t}>`);
}

/**
 * Who the message is from: the one From header, read strictly (lib/mail/address.ts). mailparser
 * repairs what it reads (`<a@good.test>@evil.test` comes out as a@good.test, a list or a group as its
 * first address), while a relay checking the sender's domain may read another address in the same
 * header. So a From that is missing, repeated, or not exactly one cleanly written mailbox names no
 * sender, and intake treats the message as mail without a From address. mailparser still supplies
 * the name (it decodes encoded-words and charsets), and only when it reads the same one address.
 */
function senderOf(lines: ReadonlyArray<{ key: string; line: string }>, parsed: AddressObject | undefined): ParsedEmail['from'] {
  const from = lines.filter((h) => h.key.toLowerCase() === 'from');
  if (from.length !== 1) return null;
  const mailbox = parseMailbox(utf8(headerValue((from[0] as { line: string }).line)));
  const [read, ...more] = parsed?.value ?? [];
  if (!mailbox || !read || more.length || read.group || read.address?.toLowerCase() !== mailbox.address.toLowerCase()) return null;
  return { address: mailbox.address, name: (read.name ?? '').replace(/\s+/g, ' ').trim() };
}

/** RFC 5322's limit of a line: a longer From is broken anyway, and this bounds what is stored of it. */
export const RAW_FROM_MAX = 998;

function rawFromOf(lines: ReadonlyArray<{ key: string; line: string }>): string {
  const values = lines.filter((h) => h.key.toLowerCase() === 'from').map((h) => utf8(headerValue(h.line)));
  // Cut by code points, so that no half of a surrogate pair is stored.
  return Array.from(values.join('\n')).slice(0, RAW_FROM_MAX).join('');
}

/** A raw header line's value, unfolded. */
function headerValue(line: string): string {
  return line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
}

/** mailparser keeps raw header lines as one character per byte; an 8-bit (RFC 6532) header is UTF-8. */
function utf8(binary: string): string {
  return Buffer.from(binary, 'latin1').toString('utf8');
}

/** Unix newlines, no trailing spaces, at most one blank line in a row, and html-to-text's `[cid:…]` image marks named after their files. */
function readableText(text: string, files: IncomingFile[]): string {
  const named = text.replace(/\[cid:([^\]\s]+)\]/g, (mark, cid: string) => {
    const file = files.find((f) => f.contentId === cid);
    return file ? `[image: ${file.filename}]` : mark;
  });
  // Empty paragraphs of HTML mail turn into runs of blank lines; one blank line separates as well.
  return named.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n');
}

function headerMap(lines: ReadonlyArray<{ key: string; line: string }>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { key, line } of lines) {
    const value = headerValue(line);
    map.set(key.toLowerCase(), [...(map.get(key.toLowerCase()) ?? []), value]);
  }
  return map;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'image/avif': '.avif',
  'application/pdf': '.pdf', 'text/plain': '.txt', 'text/calendar': '.ics', 'message/rfc822': '.eml',
};

function toFile(att: Attachment, index: number): IncomingFile {
  const type = (att.contentType || 'application/octet-stream').toLowerCase();
  const base = att.filename || `${att.contentDisposition === 'inline' || att.related ? 'image' : 'attachment'}-${index + 1}${EXTENSIONS[type] ?? ''}`;
  return {
    filename: path.basename(base),
    mimeType: type,
    data: att.content,
    contentId: att.cid || undefined,
  };
}
