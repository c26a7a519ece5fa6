/**
 * `admin-ajax.php?action=frm_form_submit`: every outcome a visitor can meet, with the stored rows and
 * the emails (through a real SMTP server) that each one must and must not produce. Emails are sent by
 * the job worker after the answer, so every submission here is followed by one run of the due jobs.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { mysqlDateTime } from '../../../lib/wp/dates';
import { PhpArray } from '../../../lib/wp/php';
import { FormSite, cookieOf, insertFormRow, nonceFor, openFormSite, submissionRows } from '../../harness/forms';
import { jobsOf } from '../../harness/site';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';

const OWNER_ACTION = {
  type: 'email', to: 'owner@example.test', from: 'forms@example.test', subject: 'New message from [name]',
  message: 'From [name] <[email]>:\n[message]', content_type: 'text/plain', headers: 'Reply-To: [name] <[email]>',
};
const VALIDATED = { save_submissions: '1', hide_after_success: '0', redirect_url: '', required_fields: 'name,email', email_fields: 'email', actions: [OWNER_ACTION] };

describe('POST /wp-admin/admin-ajax.php action=frm_form_submit', function () {
  let smtp: SmtpCapture;
  let fs: FormSite;
  let formId: number;

  before(async () => {
    smtp = await startSmtpCapture();
    fs = await openFormSite(smtp.url);
    formId = await insertFormRow(fs.site, { title: 'Contact', slug: 'contact', settings: VALIDATED });
  });
  after(async () => {
    await fs.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  /** Submits, then runs the jobs the submission queued, as the server's worker does right after the answer. */
  const submit = async (fields: Record<string, string>, cookie?: string) => {
    const req = request(fs.app).post('/wp-admin/admin-ajax.php').type('form')
      .set('User-Agent', 'Mozilla/5.0 (test)').set('Referer', 'https://example.test/contact/');
    if (cookie) req.set('Cookie', cookie);
    const res = await req.send({ action: 'frm_form_submit', ...fields });
    await fs.runJobs();
    return res;
  };
  const valid = (id = formId, extra: Record<string, string> = {}) =>
    ({ _frm_form_id: String(id), [`_frm_h${id}`]: '', name: '  Ada  ', email: 'ada@example.test ', message: 'Hello\n', ...extra });

  describe('a valid submission', () => {
    it('stores the trimmed fields with who sent it, emails the owner and answers success with hide_form', async () => {
      const res = await submit(valid());
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^application\/json; charset=UTF-8/);
      assert.deepEqual(res.body, { message: { type: 'success', text: 'Thank you! We will be in touch soon.' }, hide_form: false });
      const [row] = (await submissionRows(fs.site, formId)).slice(-1);
      assert.deepEqual(row?.data, { name: 'Ada', email: 'ada@example.test', message: 'Hello' });
      assert.equal(row?.is_spam, 0);
      assert.equal(row?.user_agent, 'Mozilla/5.0 (test)');
      assert.equal(row?.referer_url, 'https://example.test/contact/');
      assert.equal(row?.ip_address, '127.0.0.1');
      assert.equal(row?.submitted_at, mysqlDateTime(fs.clock.now()));
      const [mail] = smtp.sentEmails();
      assert.equal(smtp.sentEmails().length, 1);
      assert.deepEqual(mail?.envelopeTo, ['owner@example.test']);
      assert.equal(mail?.parsed.subject, 'New message from Ada');
      assert.equal(mail?.parsed.from?.value[0]?.address, 'forms@example.test');
      assert.equal(mail?.parsed.replyTo?.value[0]?.address, 'ada@example.test');
      assert.equal(mail?.parsed.text?.trim(), 'From Ada <ada@example.test>:\nHello');
    });

    it('is accepted from a signed-in visitor too (wp_ajax_ and wp_ajax_nopriv_ share the handler)', async () => {
      const before = (await submissionRows(fs.site, formId)).length;
      const res = await submit(valid(), cookieOf('customer1'));
      assert.equal(res.body.message.type, 'success');
      assert.equal((await submissionRows(fs.site, formId)).length, before + 1);
    });

    it('accepts a multipart body, keeps nested fields and leaves out `_` fields and the ajax action', async () => {
      const id = await insertFormRow(fs.site, { settings: { required_fields: 'address[city]' } });
      const res = await request(fs.app).post('/wp-admin/admin-ajax.php')
        .field('action', 'frm_form_submit').field('_frm_form_id', String(id)).field(`_frm_h${id}`, '')
        .field('_private', 'x').field('interests[]', 'maths').field('interests[]', ' poetry ').field('address[city]', ' London ');
      assert.equal(res.body.message.type, 'success', res.text);
      const [row] = await submissionRows(fs.site, id);
      assert.deepEqual(row?.data, { interests: ['maths', 'poetry'], address: { city: 'London' } });
    });

    it('adds redirect_url only when configured, with [field] variables URL-encoded', async () => {
      const id = await insertFormRow(fs.site, {
        settings: { hide_after_success: '1', redirect_url: 'https://example.test/thanks?name=[name]&city=[address.city]&x=[unknown]' },
      });
      const res = await submit({ _frm_form_id: String(id), [`_frm_h${id}`]: '', name: 'Ada & Co/?', 'address[city]': 'São Paulo' });
      assert.deepEqual(res.body, {
        message: { type: 'success', text: 'Thank you! We will be in touch soon.' },
        hide_form: true,
        redirect_url: 'https://example.test/thanks?name=Ada%20%26%20Co%2F%3F&city=S%C3%A3o%20Paulo&x=',
      });
    });

    it("answers with the form's own success message", async () => {
      const id = await insertFormRow(fs.site, { messages: { success: 'Merci !' } });
      const res = await submit({ _frm_form_id: String(id), [`_frm_h${id}`]: '', name: 'x' });
      assert.equal(res.body.message.text, 'Merci !');
    });

    it('does not store the submission when save_submissions is off, but still sends the notification', async () => {
      const id = await insertFormRow(fs.site, { settings: { ...VALIDATED, save_submissions: '0' } });
      const res = await submit(valid(id));
      assert.equal(res.body.message.type, 'success');
      assert.equal((await submissionRows(fs.site, id)).length, 0);
      assert.equal(smtp.sentEmails().length, 1);
    });

    it('escapes values in an HTML email and keeps them out of the headers', async () => {
      const id = await insertFormRow(fs.site, {
        settings: { actions: [{ ...OWNER_ACTION, content_type: 'text/html', message: '<p>[message]</p><p>[all]</p>' }] },
      });
      const res = await submit({ _frm_form_id: String(id), [`_frm_h${id}`]: '', name: 'Eve\r\nBcc: victim@example.test', email: 'eve@example.test', message: '<script>alert(1)</script>' });
      assert.equal(res.body.message.type, 'success');
      const [mail] = await smtp.waitForEmails(1);
      assert.deepEqual(mail?.envelopeTo, ['owner@example.test'], 'a value cannot add a recipient');
      assert.equal(mail?.parsed.bcc, undefined);
      assert.ok(mail?.parsed.html && mail.parsed.html.includes('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'), String(mail?.parsed.html));
      assert.ok(!String(mail?.parsed.html).includes('<script>'));
      assert.match(String(mail?.parsed.subject), /^New message from Eve Bcc: victim@example\.test$/);
    });

    it('still answers success when the notification cannot be sent, keeps it queued and sends it on the next try', async () => {
      const mailer = fs.site.mailer;
      const start = fs.clock.now();
      fs.site.mailer = { send: async () => { throw new Error('SMTP refused'); } };
      try {
        const before = (await submissionRows(fs.site, formId)).length;
        const res = await submit(valid());
        assert.equal(res.body.message.type, 'success');
        assert.equal((await submissionRows(fs.site, formId)).length, before + 1, 'the submission is kept');
        const [job] = (await jobsOf(fs.site, 'form_notification')).slice(-1);
        assert.deepEqual([job?.status, Number(job?.attempts), job?.last_error, Number(job?.run_at)], ['queued', 1, 'SMTP refused', Math.floor(start / 1000) + 60]);
        assert.ok(fs.logger.lines.some((l) => l.message === 'job failed; will retry' && l.fields?.error === 'SMTP refused'));
      } finally {
        fs.site.mailer = mailer;
      }
      fs.clock.set(start + 60_000);
      try {
        assert.equal(await fs.runJobs(), 1);
      } finally {
        fs.clock.set(start);
      }
      assert.equal(smtp.sentEmails().length, 1);
      assert.equal(smtp.sentEmails()[0]?.parsed.subject, 'New message from Ada');
    });
  });

  describe('a validation failure', () => {
    it('answers as the plugin does, the message alone (whitespace is empty), stores nothing and sends nothing', async () => {
      const before = await submissionRows(fs.site, formId);
      const res = await submit(valid(formId, { name: '   ', email: '' }));
      assert.equal(res.status, 200);
      assert.equal(res.text, '{"message":{"type":"error","text":"Please fill in the required fields."}}');
      assert.deepEqual(await submissionRows(fs.site, formId), before);
      assert.equal(smtp.sentEmails().length, 0);
    });

    it('names the code and the missing required fields when the request asks for the detail (_frm_detail=1, as the form script does)', async () => {
      const res = await submit(valid(formId, { name: '   ', email: '', _frm_detail: '1' }));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        message: { type: 'error', text: 'Please fill in the required fields.' }, error: 'required_field_missing', fields: ['name', 'email'],
      });
      for (const other of ['0', '', 'yes', 'true']) {
        assert.deepEqual(Object.keys((await submit(valid(formId, { name: '', _frm_detail: other }))).body), ['message'], `_frm_detail=${other}`);
      }
    });

    it("refuses an invalid email address with invalid_email and the form's custom text", async () => {
      const id = await insertFormRow(fs.site, { settings: VALIDATED, messages: { invalid_email: 'That address will not reach you.' } });
      const res = await submit(valid(id, { email: 'ada@' }));
      assert.deepEqual(res.body, { message: { type: 'error', text: 'That address will not reach you.' } });
      const detailed = await submit(valid(id, { email: 'ada@', _frm_detail: '1' }));
      assert.deepEqual(detailed.body, { message: { type: 'error', text: 'That address will not reach you.' }, error: 'invalid_email', fields: ['email'] });
      assert.equal((await submissionRows(fs.site, id)).length, 0);
      assert.equal(smtp.sentEmails().length, 0);
    });

    it('refuses a submission larger than the data column holds (too_large), storing nothing', async () => {
      const before = await submissionRows(fs.site, formId);
      const res = await submit(valid(formId, { message: 'x'.repeat(70_000) }));
      assert.deepEqual(res.body, { message: { type: 'error', text: 'Your submission is too large to be sent.' } });
      const detailed = await submit(valid(formId, { message: 'x'.repeat(70_000), _frm_detail: '1' }));
      assert.equal(detailed.body.error, 'too_large');
      assert.equal(detailed.body.hide_form, undefined);
      assert.deepEqual(await submissionRows(fs.site, formId), before);
      assert.equal(smtp.sentEmails().length, 0);
    });
  });

  describe('spam', () => {
    it('answers a filled honeypot like a success without redirect_url, stores it flagged and sends nothing', async () => {
      const id = await insertFormRow(fs.site, { settings: { ...VALIDATED, hide_after_success: '1', redirect_url: 'https://example.test/thanks' } });
      const res = await submit(valid(id, { [`_frm_h${id}`]: 'http://spam.example', name: '' }));
      assert.deepEqual(res.body, { message: { type: 'success', text: 'Thank you! We will be in touch soon.' }, hide_form: true });
      const rows = await submissionRows(fs.site, id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.is_spam, 1);
      assert.equal(smtp.sentEmails().length, 0);
    });

    it('treats a missing honeypot as spam', async () => {
      const id = await insertFormRow(fs.site, { settings: VALIDATED });
      const fields: Record<string, string> = valid(id);
      delete fields[`_frm_h${id}`];
      const res = await submit(fields);
      assert.deepEqual(res.body, { message: { type: 'success', text: 'Thank you! We will be in touch soon.' }, hide_form: false });
      assert.deepEqual((await submissionRows(fs.site, id)).map((r) => r.is_spam), [1]);
      assert.equal(smtp.sentEmails().length, 0);
    });

    it('is not recorded at all when the form does not save submissions', async () => {
      const id = await insertFormRow(fs.site, { settings: { ...VALIDATED, save_submissions: '0' } });
      const res = await submit(valid(id, { [`_frm_h${id}`]: 'x' }));
      assert.equal(res.body.message.type, 'success');
      assert.equal((await submissionRows(fs.site, id)).length, 0);
    });
  });

  describe('a form that cannot be submitted', () => {
    it('answers an unknown form, a draft, another post type and a malformed ID with 404 form_not_found', async () => {
      const draft = await insertFormRow(fs.site, { status: 'draft' });
      const ticket = await fs.site.db.knex(fs.site.db.tables.posts).whereNot({ post_type: 'frm-form' }).first('ID');
      for (const id of ['999999', String(draft), String(ticket.ID), 'abc', '']) {
        const res = await submit(valid(formId, { _frm_form_id: id, [`_frm_h${id}`]: '' }));
        assert.equal(res.status, 404, id);
        assert.deepEqual(res.body, { message: { type: 'error', text: 'This form is not available.' } }, id);
      }
      const detailed = await submit(valid(formId, { _frm_form_id: '999999', _frm_detail: '1' }));
      assert.deepEqual(detailed.body, { message: { type: 'error', text: 'This form is not available.' }, error: 'form_not_found' });
      assert.equal((await submissionRows(fs.site, draft)).length, 0);
      assert.equal(smtp.sentEmails().length, 0);
    });

    it('answers a multipart body cut off inside a file in the plugin JSON, storing and sending nothing', async () => {
      const before = (await submissionRows(fs.site, formId)).length;
      const body = '--XX\r\nContent-Disposition: form-data; name="_frm_form_id"\r\n\r\n' + formId + '\r\n'
        + '--XX\r\nContent-Disposition: form-data; name="upload"; filename="a.txt"\r\n\r\nhello';
      const res = await request(fs.app).post('/wp-admin/admin-ajax.php?action=frm_form_submit')
        .set('Content-Type', 'multipart/form-data; boundary=XX').send(body);
      assert.equal(res.status, 400);
      assert.match(res.headers['content-type'], /^application\/json; charset=UTF-8/);
      assert.deepEqual(res.body, { message: { type: 'error', text: 'Oops. An error occurred.' } });
      const detailed = await request(fs.app).post('/wp-admin/admin-ajax.php?action=frm_form_submit')
        .set('Content-Type', 'multipart/form-data; boundary=XX').send('--XX\r\nContent-Disposition: form-data; name="_frm_detail"\r\n\r\n1\r\n' + body);
      assert.equal(detailed.status, 400);
      assert.deepEqual(detailed.body, { message: { type: 'error', text: 'Oops. An error occurred.' }, error: 'invalid_request' });
      assert.equal((await submissionRows(fs.site, formId)).length, before);
      assert.equal(smtp.sentEmails().length, 0);
    });
  });

  describe('a failure of the site itself', () => {
    it('answers 500 with the generic message alone (the code only when asked), logging the cause', async () => {
      const options = fs.site.options;
      const get = options.get;
      // The form service's own option read fails; admin-ajax.php's reads (home, charset) still work.
      options.get = (async (name: string, ...rest: unknown[]) => {
        if (name === 'frm_settings') throw new Error('database gone');
        return (get as (...args: unknown[]) => Promise<unknown>).call(options, name, ...rest);
      }) as typeof get;
      try {
        const res = await submit(valid());
        assert.equal(res.status, 500);
        assert.deepEqual(res.body, { message: { type: 'error', text: 'Oops. An error occurred.' } });
        const detailed = await submit(valid(formId, { _frm_detail: '1' }));
        assert.deepEqual([detailed.status, detailed.body], [500, { message: { type: 'error', text: 'Oops. An error occurred.' }, error: 'error' }]);
      } finally {
        options.get = get;
      }
      assert.ok(fs.logger.lines.some((l) => l.message === 'form submission failed' && String(l.fields?.error).includes('database gone')));
    });
  });

  describe('with nonce verification enabled (frm_settings.enable_nonce)', () => {
    before(() => fs.site.options.update('frm_settings', new PhpArray([['enable_nonce', '1']])));
    after(() => fs.site.options.update('frm_settings', new PhpArray([['enable_nonce', '0']])));

    it("accepts the visitor's own nonce, signed out (user 0) or signed in", async () => {
      const anonymous = await submit(valid(formId, { _frm_nonce: await nonceFor(fs.site, 'frm_form_submit') }));
      assert.equal(anonymous.body.message.type, 'success', anonymous.text);
      const signedIn = await submit(valid(formId, { _frm_nonce: await nonceFor(fs.site, 'frm_form_submit', 'customer1') }), cookieOf('customer1'));
      assert.equal(signedIn.body.message.type, 'success', signedIn.text);
    });

    it('refuses a missing, foreign or expired nonce with 403 invalid_nonce, storing and sending nothing', async () => {
      const before = await submissionRows(fs.site, formId);
      const someoneElses = await nonceFor(fs.site, 'frm_form_submit', 'customer1');
      const fresh = await nonceFor(fs.site, 'frm_form_submit');
      const start = fs.clock.now();
      const cases: Array<[string, Record<string, string>, () => void]> = [
        ['missing', valid(), () => undefined],
        ['another user', valid(formId, { _frm_nonce: someoneElses }), () => undefined],
        ['another action', valid(formId, { _frm_nonce: await nonceFor(fs.site, 'frm_admin_action') }), () => undefined],
        ['expired', valid(formId, { _frm_nonce: fresh }), () => fs.clock.set(start + 25 * 3600 * 1000)],
      ];
      try {
        for (const [name, fields, prepare] of cases) {
          prepare();
          const res = await submit(fields);
          assert.equal(res.status, 403, name);
          assert.deepEqual(res.body, { message: { type: 'error', text: 'This form has expired. Please reload the page and try again.' } }, name);
          const detailed = await submit({ ...fields, _frm_detail: '1' });
          assert.deepEqual([detailed.status, detailed.body.error], [403, 'invalid_nonce'], name);
        }
      } finally {
        fs.clock.set(start);
      }
      assert.deepEqual(await submissionRows(fs.site, formId), before);
      assert.equal(smtp.sentEmails().length, 0);
    });
  });
});
