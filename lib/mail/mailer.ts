/**
 * The one seam every outgoing email goes through (WordPress's wp_mail()). Real SMTP when SMTP_URL
 * is configured; otherwise each message is written as an `.eml` file into `<dataDir>/outbox`, so
 * a new user running the embedded default can open what would have been sent.
 *
 * Nothing a message carries can add a header or a recipient: text that goes into headers is made one
 * line here, and every address must be exactly one cleanly written mailbox (lib/mail/address.ts), or
 * the message is refused before the transport sees it. nodemailer folds and encodes, but it also
 * repairs addresses: `a@b.test\nBcc: evil@evil.test` becomes a group whose one member, evil@evil.test,
 * is then the envelope recipient.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { lazyRequire } from '../lazy-require';
import { Logger } from '../logger';
import { Mailbox, parseMailbox } from './address';

const nodemailer = lazyRequire(() => require('nodemailer') as typeof import('nodemailer'));

/** One outgoing email. Each address is one mailbox, bare (`a@b.c`) or named (`"Name" <a@b.c>`). */
export interface MailMessage {
  to: string | string[];
  /** Defaults to the mailer's default sender (WordPress's `wordpress@<site host>`). */
  from?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. `{'Auto-Submitted': 'auto-generated'}`. */
  headers?: Record<string, string>;
  /** The Message-ID (`<id@host>`), when the sender keeps one (support replies: a re-send is the same message). */
  messageId?: string;
  /** Threading: the Message-ID this message answers, and the thread's Message-IDs, oldest first. */
  inReplyTo?: string;
  references?: string[];
  attachments?: MailAttachment[];
}

/** A file sent with a message. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export interface Mailer {
  /** Sends (or files) the message; rejects when the transport refuses it, or with InvalidMailError before it is handed over. */
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; absent = write `.eml` files to `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
  /** The sender used when a message names none; asked once per message (it can depend on options). */
  defaultFrom: () => Promise<string>;
  logger: Logger;
}

/** The mailer for a configuration: SMTP when a URL is set, the outbox folder otherwise. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? new SmtpMailer(options.smtpUrl, options.defaultFrom) : new OutboxMailer(options);
}

/** Real delivery through an SMTP server. The transport is made on first use, so an unused mailer costs nothing. */
class SmtpMailer implements Mailer {
  private transport: Transporter | null = null;

  constructor(private readonly url: string, private readonly defaultFrom: () => Promise<string>) {}

  async send(message: MailMessage): Promise<void> {
    this.transport ??= nodemailer().createTransport(this.url);
    await this.transport.sendMail(await toNodemailer(message, this.defaultFrom));
  }
}

/** Writes each message, fully encoded as it would travel, to `<outbox>/<time>-<random>.eml`. */
class OutboxMailer implements Mailer {
  private transport: Transporter | null = null;

  constructor(private readonly options: MailerOptions) {}

  async send(message: MailMessage): Promise<void> {
    this.transport ??= nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const info = await this.transport.sendMail(await toNodemailer(message, this.options.defaultFrom));
    await fs.mkdir(this.options.outboxDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.options.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.options.logger.info('email written to the outbox (set SMTP_URL to send it)', { file });
  }
}

/** A message that must not be sent as given: an address that is not one mailbox, or a header name that is not one. */
export class InvalidMailError extends Error {}

async function toNodemailer(message: MailMessage, defaultFrom: () => Promise<string>): Promise<SendMailOptions> {
  return {
    from: mailbox('From', message.from || (await defaultFrom())),
    to: [message.to].flat().map((to) => mailbox('To', to)),
    replyTo: message.replyTo ? mailbox('Reply-To', message.replyTo) : undefined,
    subject: oneLine(message.subject),
    text: message.text,
    html: message.html,
    headers: message.headers && extraHeaders(message.headers),
    messageId: message.messageId && oneLine(message.messageId),
    inReplyTo: message.inReplyTo && oneLine(message.inReplyTo),
    references: message.references?.map(oneLine),
    attachments: message.attachments?.map((a) => ({ ...a, filename: oneLine(a.filename), contentType: a.contentType && oneLine(a.contentType) })),
  };
}

/**
 * An address as nodemailer's `{name, address}`, which it encodes without parsing it again. Refused
 * unless it is exactly one cleanly written mailbox: repairing it would be guessing who gets the mail.
 */
function mailbox(header: string, value: string): Mailbox {
  const parsed = parseMailbox(value);
  if (!parsed) throw new InvalidMailError(`Invalid ${header} address ${JSON.stringify(value)}: it must be exactly one email address.`);
  return parsed;
}

/** Extra headers with names that are header names (RFC 5322 ftext) and one-line values. */
function extraHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => {
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) throw new InvalidMailError(`Invalid header name ${JSON.stringify(name)}.`);
    return [name, oneLine(value)];
  }));
}

/** Header text on one line: a line break (with the spaces around it) becomes one space, so nothing after it can start a header. */
function oneLine(text: string): string {
  return text.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ');
}
