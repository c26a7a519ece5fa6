/**
 * The form script in a real browser (Debian's headless Chromium, driven by playwright-core): a visitor
 * opens an embedded form, submits it, and the page sees the DOM events in order, the message, the
 * focus move and the field marking — for a success, a validation error, a spam submission and a redirect.
 */
import assert from 'node:assert/strict';
import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../harness/browser';
import { FormSite, insertFormRow, openFormSite, submissionRows } from '../harness/forms';
import { SmtpCapture, startSmtpCapture } from '../harness/smtp';

// Browser globals for the callbacks that run inside the page. The project compiles without the DOM
// library (server code must not see `window`), so they are declared here, loosely, for this file only.
declare const window: any;
declare const document: any;

const EVENTS = ['frm-submit', 'frm-submitted', 'frm-success', 'frm-error', 'frm-message'];

interface SeenEvent {
  type: string;
  target: string;
  bubbles: boolean;
  detail: any;
}

describeInBrowser('the form script in headless Chromium', function () {
  this.timeout(60_000);
  let smtp: SmtpCapture;
  let fs: FormSite;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let contactId: number;

  before(async () => {
    smtp = await startSmtpCapture();
    fs = await openFormSite(smtp.url);
    server = fs.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The site lives where this server listens, so ajax_url and the script address point here.
    await fs.site.options.update('siteurl', origin);
    await fs.site.options.update('home', origin);
    contactId = await insertFormRow(fs.site, {
      title: 'Contact',
      settings: {
        save_submissions: '1', hide_after_success: '1', required_fields: 'name,email', email_fields: 'email',
        actions: [{ type: 'email', to: 'owner@example.test', subject: 'Contact from [name]', message: '[all]', content_type: 'text/plain' }],
      },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await fs?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    smtp.clear();
    page = await browser.newPage();
    // Listening on the document proves the events bubble from the form.
    await page.addInitScript((types: string[]) => {
      const seen: unknown[] = [];
      window.__frmEvents = seen;
      for (const type of types) {
        document.addEventListener(type, (event: any) => {
          seen.push({ type, target: event.target.className, bubbles: event.bubbles, detail: JSON.parse(JSON.stringify(event.detail)) });
        });
      }
    }, EVENTS);
  });
  afterEach(async () => { await page.close(); });

  const open = async (formId: number) => {
    const res = await page.goto(`${origin}/frm/embed/${formId}`);
    assert.equal(res?.status(), 200);
  };
  const submitAndWait = async (): Promise<SeenEvent[]> => {
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => window.__frmEvents.some((e: SeenEvent) => e.type === 'frm-message'));
    return page.evaluate(() => window.__frmEvents);
  };
  const focusedMessage = () => page.evaluate(() => {
    const active = document.activeElement;
    return active?.classList.contains('frm-message') ? { text: active.textContent, role: active.getAttribute('role'), className: active.className } : null;
  });

  it('submits a valid form: frm-submit, frm-submitted, frm-success, frm-message; shows and focuses the message, resets and hides the fields', async () => {
    await open(contactId);
    await page.fill('[name="name"]', 'Ada Lovelace');
    await page.fill('[name="email"]', 'ada@example.test');
    await page.fill('[name="message"]', 'Hello from Chromium');
    const events = await submitAndWait();
    assert.deepEqual(events.map((e) => e.type), ['frm-submit', 'frm-submitted', 'frm-success', 'frm-message']);
    assert.ok(events.every((e) => e.bubbles && e.target.includes(`frm-form-${contactId}`)));
    const response = { message: { type: 'success', text: 'Thank you! We will be in touch soon.' }, hide_form: true };
    assert.deepEqual(events[0]?.detail, { form_id: contactId });
    assert.deepEqual(events[1]?.detail, { form_id: contactId, response });
    assert.deepEqual(events[3]?.detail, { form_id: contactId, response, message: response.message });
    assert.deepEqual(await focusedMessage(), { text: 'Thank you! We will be in touch soon.', role: 'alert', className: 'frm-message frm-message-success' });
    assert.equal(await page.inputValue('[name="name"]'), '', 'the form is reset');
    assert.equal(await page.isHidden('.frm-fields-wrap'), true, 'hide_form hides the fields');
    const rows = await submissionRows(fs.site, contactId);
    assert.deepEqual(rows.at(-1)?.data, { name: 'Ada Lovelace', email: 'ada@example.test', message: 'Hello from Chromium' });
    // The notification was queued with the submission; the worker sends it after the answer.
    assert.equal(await fs.runJobs(), 1);
    const [mail] = await smtp.waitForEmails(1);
    assert.equal(mail?.parsed.subject, 'Contact from Ada Lovelace');
  });

  it('shows a validation error: frm-error instead of frm-success, marks the missing field, keeps the values, then clears the mark on a good retry', async () => {
    await open(contactId);
    const before = (await submissionRows(fs.site, contactId)).length;
    await page.fill('[name="email"]', 'ada@example.test');
    const posted: string[] = [];
    page.on('request', (req) => { if (req.method() === 'POST') posted.push(req.postData() ?? ''); });
    const events = await submitAndWait();
    // The script asks for the detail; the plugin's own script does not, and gets `{message}` alone.
    assert.match(posted[0] ?? '', /name="_frm_detail"\r\n\r\n1\r\n/);
    assert.deepEqual(events.map((e) => e.type), ['frm-submit', 'frm-submitted', 'frm-error', 'frm-message']);
    assert.deepEqual(events[2]?.detail.response, {
      message: { type: 'error', text: 'Please fill in the required fields.' }, error: 'required_field_missing', fields: ['name'],
    });
    assert.deepEqual(await focusedMessage(), { text: 'Please fill in the required fields.', role: 'alert', className: 'frm-message frm-message-error' });
    assert.equal(await page.getAttribute('[name="name"]', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('[name="email"]', 'aria-invalid'), null);
    assert.equal(await page.inputValue('[name="email"]'), 'ada@example.test', 'values are kept');
    assert.equal(await page.isVisible('.frm-fields-wrap'), true);
    assert.equal((await submissionRows(fs.site, contactId)).length, before);
    assert.equal(smtp.sentEmails().length, 0);

    await page.evaluate(() => { window.__frmEvents.length = 0; });
    await page.fill('[name="name"]', 'Ada');
    const retry = await submitAndWait();
    assert.equal(retry[2]?.type, 'frm-success');
    assert.equal(await page.getAttribute('[name="name"]', 'aria-invalid'), null);
    assert.equal(await page.locator('.frm-message').count(), 1, 'the old message is gone');
  });

  it('answers a bot that fills the honeypot as a success, records it as spam and sends nothing', async () => {
    await open(contactId);
    await page.fill('[name="name"]', 'Bot');
    await page.fill('[name="email"]', 'bot@example.test');
    await page.evaluate((id) => { document.querySelector(`[name="_frm_h${id}"]`).value = 'http://spam.example'; }, contactId);
    const events = await submitAndWait();
    assert.deepEqual(events.map((e) => e.type), ['frm-submit', 'frm-submitted', 'frm-success', 'frm-message']);
    assert.deepEqual(events[1]?.detail.response, { message: { type: 'success', text: 'Thank you! We will be in touch soon.' }, hide_form: true });
    const last = (await submissionRows(fs.site, contactId)).at(-1);
    assert.deepEqual([last?.is_spam, last?.data.name], [1, 'Bot']);
    assert.equal(smtp.sentEmails().length, 0);
  });

  it('goes to the redirect URL, with the submitted value URL-encoded in it', async () => {
    const target = `${origin}/frm/embed/${contactId}?from=[name]`;
    const formId = await insertFormRow(fs.site, { settings: { redirect_url: target } });
    await open(formId);
    await page.fill('[name="name"]', 'Ada & Charles');
    await Promise.all([page.waitForURL(/from=/), page.click('button[type="submit"]')]);
    assert.equal(page.url(), `${origin}/frm/embed/${contactId}?from=Ada%20%26%20Charles`);
  });
});
