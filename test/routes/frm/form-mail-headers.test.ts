/**
 * A form's notification email against what visitors type: their values go into the Subject, the
 * recipients, From and Reply-To and custom header lines, but can never add a header, a recipient or a
 * reply address of their own. Submitted through admin-ajax.php, sent by the job worker (the email as
 * composed at submission, stored in the job) and received by a real SMTP server.
 */
import assert from 'node:assert/strict';
import { ParsedMail } from 'mailparser';
import request from 'supertest';
import { FormSite, insertFormRow, openFormSite } from '../../harness/forms';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';

/** Every address a mail client would answer or copy: From, To, Cc, Bcc, Reply-To (groups flattened). */
function addressesIn(mail: ParsedMail): string[] {
  const objects = [mail.from, mail.to, mail.cc, mail.bcc, mail.replyTo].flat().filter((a) => a !== undefined);
  return objects.flatMap((o) => o.value.flatMap((a) => [a.address ?? '', ...(a.group ?? []).map((g) => g.address ?? '')])).filter(Boolean);
}

const headerNames = (mail: ParsedMail) => mail.headerLines.map((h) => h.key.toLowerCase());

describe('form notification headers and what visitors type', function () {
  let smtp: SmtpCapture;
  let fs: FormSite;

  before(async () => {
    smtp = await startSmtpCapture();
    fs = await openFormSite(smtp.url);
  });
  after(async () => {
    await fs.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  /** A form with one email action (and no field validation unless given), submitted once with `fields`; then its job runs. */
  async function submitTo(action: Record<string, string>, fields: Record<string, string>, settings: Record<string, string> = {}) {
    const id = await insertFormRow(fs.site, { settings: { ...settings, actions: [{ type: 'email', content_type: 'text/plain', message: '[all]', ...action }] } });
    const res = await request(fs.app).post('/wp-admin/admin-ajax.php').type('form')
      .send({ action: 'frm_form_submit', _frm_form_id: String(id), [`_frm_h${id}`]: '', ...fields });
    assert.equal(res.body.message?.type, 'success', res.text);
    assert.equal(await fs.runJobs(), 1, 'one notification job');
  }

  it('leaves out a Reply-To that a value turned into more than one address: the owner\'s answer cannot go to a stranger', async () => {
    await submitTo({ to: 'owner@example.test', subject: 'Contact', headers: 'Reply-To: [email]' },
      { name: 'Eve', email: 'eve@example.test\r\nBcc: victim@example.test', message: 'Hi' });
    const [mail] = await smtp.waitForEmails(1);
    assert.ok(mail);
    assert.deepEqual(mail.envelopeTo, ['owner@example.test']);
    assert.ok(!addressesIn(mail.parsed).includes('victim@example.test'), addressesIn(mail.parsed).join());
    assert.equal(mail.parsed.replyTo, undefined);
    assert.ok(!headerNames(mail.parsed).includes('bcc'));
  });

  it('takes custom header names from the template only: [all] in the headers cannot add a header named by a field', async () => {
    await submitTo({ to: 'owner@example.test', subject: 'New: [all]', headers: 'Reply-To: [name] <[email]>\nX-Fields: [all]\n[all]' },
      { name: 'Ada', email: 'ada@example.test', 'X-Injected': 'yes', Bcc: 'victim@example.test' });
    const [mail] = await smtp.waitForEmails(1);
    assert.ok(mail);
    assert.ok(!headerNames(mail.parsed).includes('x-injected'), headerNames(mail.parsed).join());
    assert.ok(!headerNames(mail.parsed).includes('bcc'));
    assert.deepEqual(mail.envelopeTo, ['owner@example.test']);
    assert.equal(mail.parsed.headers.get('x-fields'), 'name: Ada, email: ada@example.test, X-Injected: yes, Bcc: victim@example.test');
    assert.equal(mail.parsed.subject, 'New: name: Ada, email: ada@example.test, X-Injected: yes, Bcc: victim@example.test');
    assert.deepEqual(mail.parsed.replyTo?.value.map((a) => [a.name, a.address]), [['Ada', 'ada@example.test']]);
  });

  it('mails the visitor at their address only, whatever their name holds, and keeps the name (without tags, on one line)', async () => {
    await submitTo({ to: '[name] <[email]>', from: '[name] <forms@example.test>', subject: 'Thanks [name]', headers: 'Reply-To: [name] <[email]>' },
      { name: 'Eve\r\nBcc: victim@example.test, "x" <victim2@example.test>', email: 'eve@example.test', message: 'Hi' }, { email_fields: 'email' });
    const [mail] = await smtp.waitForEmails(1);
    assert.ok(mail);
    assert.deepEqual(mail.envelopeTo, ['eve@example.test']);
    assert.equal(mail.envelopeFrom, 'forms@example.test');
    assert.deepEqual(addressesIn(mail.parsed).sort(), ['eve@example.test', 'eve@example.test', 'forms@example.test']);
    assert.equal(mail.parsed.from?.value[0]?.name, 'Eve Bcc: victim@example.test, "x"');
    assert.equal(mail.parsed.subject, 'Thanks Eve Bcc: victim@example.test, "x"');
  });
});
