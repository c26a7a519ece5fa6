/**
 * The mail seam against header injection: line breaks in subjects, header values, IDs and file names
 * never start a header of their own, and an address that is not one cleanly written mailbox is
 * refused before anything is sent. Every message is really sent: written to the outbox as an .eml file
 * and delivered to a real SMTP server, then parsed as a mail client would.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ParsedMail, simpleParser } from 'mailparser';
import { memoryLogger } from '../../../lib/logger';
import { MailMessage, Mailer, createMailer } from '../../../lib/mail/mailer';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';

const INJECTION = '\r\nBcc: evil@evil.test\r\nX-Injected: yes';
const defaultFrom = async () => 'WordPress <wordpress@localhost>';

/** The header names a mail client sees, lower-case (raw lines, so a header mailparser folds into another still shows). */
function headerNames(mail: ParsedMail): string[] {
  return mail.headerLines.map((h) => h.key.toLowerCase());
}

/** Every address a mail client would answer or copy: From, To, Cc, Bcc, Reply-To (groups flattened). */
function addressesIn(mail: ParsedMail): string[] {
  const objects = [mail.from, mail.to, mail.cc, mail.bcc, mail.replyTo].flat().filter((a) => a !== undefined);
  return objects.flatMap((o) => o.value.flatMap((a) => [a.address ?? '', ...(a.group ?? []).map((g) => g.address ?? '')])).filter(Boolean);
}

describe('outgoing mail cannot be given extra headers or recipients', function () {
  let smtp: SmtpCapture;
  let dataDir: string;
  let outboxDir: string;
  let viaSmtp: Mailer;
  let viaOutbox: Mailer;

  before(async () => {
    smtp = await startSmtpCapture();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'header-injection-'));
    outboxDir = path.join(dataDir, 'outbox');
    viaSmtp = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', defaultFrom, logger: memoryLogger() });
    viaOutbox = createMailer({ outboxDir, defaultFrom, logger: memoryLogger() });
  });
  after(async () => {
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    smtp.clear();
    fs.rmSync(outboxDir, { recursive: true, force: true });
  });

  /** Sends through both transports; the parsed .eml file and the message the SMTP server received. */
  async function sendBoth(message: MailMessage): Promise<{ eml: ParsedMail; smtp: Awaited<ReturnType<SmtpCapture['waitForEmails']>>[number] }> {
    await viaOutbox.send(message);
    await viaSmtp.send(message);
    const [file] = fs.readdirSync(outboxDir);
    const [received] = await smtp.waitForEmails(1);
    assert.ok(file && received, "sent through both transports");
    return { eml: await simpleParser(fs.readFileSync(path.join(outboxDir, file))), smtp: received };
  }

  /** Both transports refuse the message, and nothing is written or delivered. */
  async function refusedByBoth(message: MailMessage, error: RegExp): Promise<void> {
    await assert.rejects(viaOutbox.send(message), error);
    await assert.rejects(viaSmtp.send(message), error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(smtp.sentEmails(), [], 'nothing reached the SMTP server');
    assert.ok(!fs.existsSync(outboxDir) || fs.readdirSync(outboxDir).length === 0, 'nothing was written to the outbox');
  }

  it('keeps a subject, header values, threading IDs and a file name with line breaks on their own line', async () => {
    const { eml, smtp: received } = await sendBoth({
      to: '"Ada Lovelace" <ada@example.test>', subject: `Order 5512${INJECTION}`, text: 'Hello',
      headers: { 'X-Form': `contact${INJECTION}` },
      messageId: `<reply-1@example.test>${INJECTION}`, inReplyTo: `<first@example.test>${INJECTION}`, references: [`<first@example.test>${INJECTION}`],
      attachments: [{ filename: `notes.txt${INJECTION}`, content: Buffer.from('notes'), contentType: 'text/plain' }],
    });
    for (const mail of [eml, received.parsed]) {
      assert.ok(!headerNames(mail).includes('bcc'), headerNames(mail).join());
      assert.ok(!headerNames(mail).includes('x-injected'), headerNames(mail).join());
      assert.equal(mail.subject, 'Order 5512 Bcc: evil@evil.test X-Injected: yes');
      assert.deepEqual(addressesIn(mail).sort(), ['ada@example.test', 'wordpress@localhost']);
      // A name a mail client would save the file under, with the line breaks made spaces like the subject's.
      assert.deepEqual(mail.attachments.map((a) => a.filename), ['notes.txt Bcc: evil@evil.test X-Injected: yes']);
    }
    assert.deepEqual(received.envelopeTo, ['ada@example.test']);
    assert.equal(received.envelopeFrom, 'wordpress@localhost');
  });

  it('refuses a recipient holding a line break before sending anything (it would have reached evil@evil.test)', async () => {
    await refusedByBoth({ to: `ada@example.test${INJECTION}`, subject: 'Hi', text: 'Hello' }, /Invalid To address/);
    await refusedByBoth({ to: ['team@example.test', `"Ada" <ada@example.test${INJECTION}>`], subject: 'Hi', text: 'Hello' }, /Invalid To address/);
  });

  it('refuses a sender or reply address holding a line break (bounces or answers would go to evil@evil.test)', async () => {
    await refusedByBoth({ to: 'ada@example.test', from: `forms@example.test${INJECTION}`, subject: 'Hi', text: 'Hello' }, /Invalid From address/);
    await refusedByBoth({ to: 'ada@example.test', replyTo: `help@example.test${INJECTION}`, subject: 'Hi', text: 'Hello' }, /Invalid Reply-To address/);
  });

  it('refuses an address field holding more than one mailbox, a group or leftovers, even without a line break', async () => {
    for (const bad of ['ada@example.test Bcc: evil@evil.test', 'ada@example.test, evil@evil.test', 'Team: evil@evil.test;', '<ada@example.test>@evil.test']) {
      await refusedByBoth({ to: 'owner@example.test', replyTo: bad, subject: 'Hi', text: 'Hello' }, /Invalid Reply-To address/);
    }
  });

  it('refuses a header name that is not one', async () => {
    await refusedByBoth({ to: 'ada@example.test', subject: 'Hi', text: 'Hello', headers: { 'X-Form\r\nBcc': 'evil@evil.test' } }, /Invalid header name/);
  });
});
