/**
 * Reading an RFC 5322 message with mailparser into what intake needs: sender, threading headers, the
 * text (an HTML-only message gets mailparser's html-to-text rendering: email HTML is never stored or
 * served as HTML), the raw header lines the loop rules look at, and the files. Charsets (ISO-8859-x,
 * Windows-125x, Shift_JIS, ISO-2022-JP, ...) and RFC 2047 encoded words are mailparser's job.
 */
import path from 'node:path';
import { AddressObject, Attachment, simpleParser } from 'mailparser';
import { IncomingFile } from '../tickets/types';

export interface ParsedEmail {
  from: { address: string; name: string } | null;
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
  const mail = await simpleParser(raw, { keepCidLinks: true });
  const files = mail.attachments.map(toFile);
  const type = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return {
    from: firstAddress(mail.from),
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
  return (await simpleParser(Buffer.from(part), { keepCidLinks: true })).text ?? '';
}

/** Every `<id>` in a header value (In-Reply-To may carry extra text; References carries many). */
export function messageIds(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(' ') : value ?? '';
  const bracketed = text.match(/<[^<>\s]+>/g);
  if (bracketed) return bracketed;
  // Some senders drop the brackets; a lone token that looks like an id is taken as one.
  return text.split(/\s+/).filter((t) => /^[^\s@]+@[^\s@]+$/.test(t)).map((t) => `<${t}>`);
}

function firstAddress(from: AddressObject | undefined): ParsedEmail['from'] {
  const first = from?.value.find((a) => a.address) ?? from?.value.flatMap((a) => a.group ?? []).find((a) => a.address);
  if (!first?.address) return null;
  return { address: first.address.trim(), name: (first.name ?? '').replace(/\s+/g, ' ').trim() };
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
    const colon = line.indexOf(':');
    const value = line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
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
