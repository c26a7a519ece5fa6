/** The mail seam: `.eml` files in the outbox by default, real SMTP when SMTP_URL is set. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { simpleParser } from 'mailparser';
import { memoryLogger } from '../../../lib/logger';
import { MailMessage, createMailer } from '../../../lib/mail/mailer';
import { loadSiteConfig } from '../../../lib/wp/config';
import { startSmtpCapture } from '../../harness/smtp';

const message: MailMessage = {
  to: ['Owner <owner@example.test>'], replyTo: 'Ada <ada@example.test>', subject: 'Über form', text: 'Hello', html: '<p>Hello</p>',
  headers: { 'X-Form': 'contact' },
};
const defaultFrom = async () => 'WordPress <wordpress@example.test>';

describe('mailer', function () {
  it('writes each message as a complete .eml file into the outbox when no SMTP_URL is set', async () => {
    const outboxDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-')), 'outbox');
    try {
      const mailer = createMailer({ outboxDir, defaultFrom, logger: memoryLogger() });
      await mailer.send(message);
      await mailer.send({ ...message, from: 'forms@example.test' });
      const files = fs.readdirSync(outboxDir).sort();
      assert.equal(files.length, 2);
      assert.ok(files.every((f) => f.endsWith('.eml')));
      const parsed = await Promise.all(files.map((f) => simpleParser(fs.readFileSync(path.join(outboxDir, f)))));
      const first = parsed.find((p) => p.from?.value[0]?.address === 'wordpress@example.test');
      assert.ok(first, 'the default sender is used when none is given');
      assert.equal(first.subject, 'Über form');
      assert.equal(first.text?.trim(), 'Hello');
      assert.equal(first.html, '<p>Hello</p>');
      assert.equal(first.replyTo?.value[0]?.address, 'ada@example.test');
      assert.equal(first.headers.get('x-form'), 'contact');
      assert.ok(parsed.some((p) => p.from?.value[0]?.address === 'forms@example.test'));
    } finally {
      fs.rmSync(path.dirname(outboxDir), { recursive: true, force: true });
    }
  });

  it('delivers through SMTP when a URL is configured', async () => {
    const smtp = await startSmtpCapture();
    try {
      await createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', defaultFrom, logger: memoryLogger() }).send(message);
      const [mail] = await smtp.waitForEmails(1);
      assert.deepEqual(mail?.envelopeTo, ['owner@example.test']);
      assert.equal(mail?.parsed.subject, 'Über form');
      assert.equal(mail?.parsed.from?.value[0]?.address, 'wordpress@example.test');
    } finally {
      await smtp.close();
    }
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: '/nonexistent', defaultFrom, logger: memoryLogger() });
    await assert.rejects(mailer.send(message), /ECONNREFUSED/);
  });

  it('reads SMTP_URL from the environment, and refuses one that is not an SMTP address', () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    try {
      assert.equal(loadSiteConfig({ SMTP_URL: 'smtps://u:p@mail.example:465' }, cwd).smtpUrl, 'smtps://u:p@mail.example:465');
      assert.equal(loadSiteConfig({}, cwd).smtpUrl, undefined);
      assert.throws(() => loadSiteConfig({ SMTP_URL: 'http://mail.example' }, cwd), /SMTP_URL must look like/);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
