/**
 * A real SMTP server on 127.0.0.1 (random port) that keeps every message it receives, parsed by
 * mailparser, so tests assert on email as a mail client would see it. Point a site at `url`.
 */
import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedEmail {
  /** Envelope recipients (RCPT TO), which include Bcc. */
  envelopeTo: string[];
  /** Envelope sender (MAIL FROM), where bounces go; '' for the null sender. */
  envelopeFrom: string;
  parsed: ParsedMail;
}

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  sentEmails(): CapturedEmail[];
  /** Resolves once `count` messages have arrived in total; rejects after `withinMs`. */
  waitForEmails(count: number, withinMs?: number): Promise<CapturedEmail[]>;
  clear(): void;
  /** While set, every recipient is refused with this SMTP reply text (code 550); null accepts again. */
  refuseRecipients(reply: string | null): void;
  close(): Promise<void>;
}

/** Starts the capture on `port` (default: any free one); a test that needs a server down and then up closes one and starts another on its port. */
export async function startSmtpCapture(options: { port?: number } = {}): Promise<SmtpCapture> {
  const received: CapturedEmail[] = [];
  let refusal: string | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusal === null) return callback();
      return callback(Object.assign(new Error(refusal), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const { mailFrom, rcptTo } = session.envelope;
          received.push({ envelopeTo: rcptTo.map((r) => r.address), envelopeFrom: mailFrom ? mailFrom.address : '', parsed });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    sentEmails: () => [...received],
    async waitForEmails(count, withinMs = 5000) {
      const started = Date.now();
      while (received.length < count) {
        if (Date.now() - started > withinMs) throw new Error(`expected ${count} emails within ${withinMs} ms, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return [...received];
    },
    clear: () => { received.length = 0; },
    refuseRecipients: (reply) => { refusal = reply; },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
