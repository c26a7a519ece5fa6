/**
 * Posted fields as an RFC 5322 message (nodemailer's MailComposer), so that every inbound message,
 * however it arrived, goes through the same parser, trimming and loop rules, and is kept as
 * `original.eml`. Posted header values are passed through as prepared values (they are already in
 * wire form), with line breaks removed so that no field can add headers or MIME parts of its own.
 */
import { lazyRequire } from '../../lazy-require';
import { EmailFields } from './providers';

/** Required on the first posted message (nodemailer is loaded on first use: lib/lazy-require.ts). */
const mailComposer = lazyRequire(() => (require('nodemailer/lib/mail-composer') as typeof import('nodemailer/lib/mail-composer')).default);

/** Headers the composer writes itself from the fields (or that describe the MIME structure). */
const OWN_HEADERS = new Set([
  'from', 'to', 'cc', 'bcc', 'subject', 'date', 'message-id', 'in-reply-to', 'references', 'reply-to', 'sender',
  'mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition', 'content-id',
]);

export function composeMessage(f: EmailFields): Promise<Buffer> {
  const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');
  const headers = f.headers
    .filter(([name]) => /^[\x21-\x39\x3b-\x7e]+$/.test(name) && !OWN_HEADERS.has(name.toLowerCase()))
    .map(([key, value]) => ({ key, value: { prepared: true, value: oneLine(value) } }));
  const MailComposer = mailComposer();
  const composer = new MailComposer({
    from: oneLine(f.from),
    to: f.to ? oneLine(f.to) : undefined,
    cc: f.cc ? oneLine(f.cc) : undefined,
    subject: f.subject ? oneLine(f.subject) : undefined,
    text: f.text || undefined,
    html: f.html || undefined,
    messageId: f.messageId ? oneLine(f.messageId) : undefined,
    inReplyTo: f.inReplyTo ? oneLine(f.inReplyTo) : undefined,
    references: f.references ? oneLine(f.references) : undefined,
    date: f.date ? oneLine(f.date) : undefined,
    // MimeNode.addHeader takes prepared values in the list form too; nodemailer's typings list only strings there.
    headers: headers as unknown as Array<{ key: string; value: string }>,
    attachments: f.attachments.map((a) => ({
      filename: a.filename || undefined,
      content: a.content,
      contentType: a.contentType || 'application/octet-stream',
      cid: a.contentId,
      contentDisposition: a.inline ? 'inline' as const : 'attachment' as const,
    })),
    // Only the posted bytes go into the message: never a local file or a URL named by a field.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}
