/**
 * How the customer portal (client/svc/portal.js) looks and behaves on a phone (360 px) and a desktop
 * (1280 px), in headless Chromium on a second loopback origin whose CSS tries to break it: no
 * horizontal overflow (long URLs, Japanese without spaces), focus on each new view's heading, status
 * badges, unread markers, an empty state, a loading state, an error in words with a retry, 0 serious
 * or critical axe-core violations, a right-to-left page. With UPDATE_SCREENSHOTS=1 it saves each
 * state in docs/img/ (docs/portal.md).
 */
import assert from 'node:assert/strict';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { Listening, listen } from '../harness/http';
import { describeInBrowser, launchChromium } from '../harness/browser';
import { JobWorker } from '../../lib/jobs/worker';
import { PORTAL_SCRIPT_PATH } from '../../lib/support/portal/assets';
import { createConnectedSite } from '../../lib/support/sites/admin';
import { Actor } from '../../lib/support/tickets/actor';
import { addReply } from '../../lib/support/tickets/reply';
import { findTicket } from '../../lib/support/tickets/store';
import { jobHandlers } from '../../lib/worker';
import { TestSite, listenAsSite, openTestSite } from '../harness/site';
import { SmtpCapture, startSmtpCapture } from '../harness/smtp';
import { HOSTILE_CSS, assertAccessible, assertNoOverflow, focusIn, screenshot } from '../harness/widget-checks';

declare const window: any;
declare const document: any;

const HOST = '[data-svc-portal]';
const AGENT: Actor = { userId: 1, name: 'Agatha Agent', email: 'admin@example.test', agent: true, manager: false, customerView: false };
const LONG_SUBJECT = 'Order 1234: https://shop.example/orders/1234/tracking?carrier=postnord&reference=ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LONG_BODY = 'My parcel has not arrived.\nTracking: https://shop.example/orders/1234/tracking?carrier=postnord&reference=ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\n注文した商品がまだ届いていません。追跡番号を確認しましたが更新されていません。';

async function startHostServer(page: () => { siteId: string; scriptUrl: string }): Promise<{ origin: string; close(): Promise<void> }> {
  const host = await listen((req, res) => {
    const { siteId, scriptUrl } = page();
    const rtl = req.url?.startsWith('/rtl');
    const attribute = req.url?.startsWith('/contact') ? 'data-svc-contact' : 'data-svc-portal';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end([
      `<!DOCTYPE html><html lang="${rtl ? 'ar' : 'en'}" dir="${rtl ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop support</title>',
      `<style>${HOSTILE_CSS}\nmain{max-width:820px;margin:0 auto}</style></head><body><main><h1>Shop</h1>`,
      `<div ${attribute} data-site="${siteId}"></div></main>`,
      // The site translates the portal's own words with one object, before the script.
      rtl ? `<script>window.svc_strings = ${JSON.stringify({ portal: { sign_in_title: 'تسجيل الدخول إلى دعم {site}', contact_instead: 'اتصل بنا دون تسجيل الدخول' } })};</script>` : '',
      `<script src="${scriptUrl}" async></script></body></html>`,
    ].join('\n'));
  });
  return { origin: host.url, close: host.close };
}

describeInBrowser('the customer portal on a phone and a desktop', function () {
  this.timeout(120_000);
  let smtp: SmtpCapture;
  let t: TestSite;
  let api: Listening;
  let apiOrigin: string;
  let shop: { origin: string; close(): Promise<void> };
  let siteId = '';
  let browser: Browser;

  before(async () => {
    smtp = await startSmtpCapture();
    t = await openTestSite({ smtpUrl: smtp.url });
    api = await listenAsSite(t);
    apiOrigin = api.url;
    shop = await startHostServer(() => ({ siteId, scriptUrl: `${apiOrigin}${PORTAL_SCRIPT_PATH}` }));
    const issued = await createConnectedSite(t.site, {
      name: 'Shop', origins: [shop.origin], portal: true, customerCanResolve: true, customerCanReopen: true,
      messageLimit: 2000, messageHint: 'Include your order number.',
    });
    siteId = issued.site.siteId;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await api?.close();
    await t?.close();
    await smtp?.close();
  });
  // The desk's clock is the test's own: it stands at now at each step, so "now" reads as now.
  beforeEach(() => { t.clock.set(Date.now()); });

  const runJobs = () => new JobWorker(t.site, { handlers: jobHandlers() }).runDueJobs();

  for (const [width, height] of [[360, 740], [1280, 800]] as const) {
    describe(`at ${width} px`, () => {
      let context: BrowserContext;
      let page: Page;
      const email = `look${width}@example.net`;
      const shot = (name: string) => screenshot(page.locator(HOST), `portal-${name}-${width}`);
      const check = async (where: string) => {
        await assertNoOverflow(page, HOST, `${where} at ${width} px`);
        await assertAccessible(page, `${where} at ${width} px`);
      };
      const heading = async (text: string) => {
        await page.getByRole('heading', { level: 2, name: text, exact: true }).waitFor();
        assert.deepEqual(await focusIn(page, HOST).then((f) => f && [f.tag, f.text]), ['h2', text], `the focus is on "${text}"`);
      };

      before(async () => {
        context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB' });
        page = await context.newPage();
      });
      after(async () => { await context.close(); });

      it('shows a loading state, then the sign-in, untouched by the page\'s CSS; the code view', async () => {
        let release = () => {};
        const held = new Promise<void>((resolve) => { release = resolve; });
        await page.route(`${apiOrigin}/wp-json/support/v1/sites/${siteId}/portal/config`, async (route) => { await held; await route.continue(); });
        await page.goto(`${shop.origin}/portal`);
        await page.getByText('Loading…').waitFor();
        assert.equal(await page.locator(`${HOST}[aria-busy="true"]`).count(), 1);
        await check('loading');
        await shot('loading');
        release();
        await page.getByRole('heading', { name: 'Sign in to Shop support' }).waitFor();
        await page.unroute(`${apiOrigin}/wp-json/support/v1/sites/${siteId}/portal/config`);
        const looks = await page.evaluate(() => {
          const root = document.querySelector('[data-svc-portal]').shadowRoot;
          const input = window.getComputedStyle(root.querySelector('input'));
          const lede = window.getComputedStyle(root.querySelector('.lede'));
          return [input.borderStyle, input.display, lede.textTransform, lede.letterSpacing, lede.fontSize];
        });
        assert.deepEqual(looks, ['solid', 'block', 'none', 'normal', '15px'], 'the page\'s CSS does not reach the portal');
        await check('sign-in');
        await shot('sign-in');

        await page.getByLabel('Email address').fill(email);
        await page.getByRole('button', { name: 'Email me a code' }).click();
        await heading('Enter your code');
        await check('the code');
        await shot('code');
        await runJobs();
        const mail = smtp.sentEmails().filter((m) => m.envelopeTo.includes(email)).pop()!;
        await page.getByLabel('Sign-in code').fill(/\b(\d{6})\b/.exec(mail.parsed.text ?? '')![1]!);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await heading('Your tickets');
        assert.equal(await page.getByText('You have no tickets on this site yet.').count(), 1);
        await check('no tickets');
        await shot('empty');
      });

      it('opens a ticket with long words, says which field is missing, and shows the conversation as bubbles', async () => {
        await page.getByRole('button', { name: 'New ticket' }).click();
        await heading('New ticket');
        await page.getByRole('button', { name: 'Open ticket' }).click();
        assert.equal((await focusIn(page, HOST))?.id.endsWith('-subject'), true);
        await check('a missing field');
        await shot('invalid');
        t.clock.set(Date.now() - 3 * 3600_000);
        await page.getByLabel('Subject').fill(LONG_SUBJECT);
        await page.getByLabel('Message').fill(LONG_BODY);
        await page.getByRole('button', { name: 'Open ticket' }).click();
        await heading(LONG_SUBJECT);
        const ticketId = Number(/#(\d+)/.exec(String(await page.locator('.svc-portal__meta').first().textContent()))![1]);
        // The agent answers, with a file, a few minutes later.
        t.clock.set(Date.now() - 5 * 60_000);
        await addReply(t.site, AGENT, ticketId, {
          body: 'Sorry about that! The carrier says it arrives tomorrow. Here is the label.', version: (await findTicket(t.site.db, ticketId))!.version, visibility: 'public',
          files: [{ filename: 'shipping-label.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF-1.4') }],
        });
        t.clock.set(Date.now());

        // Back at the list: the ticket is marked as having a new reply.
        await page.getByRole('button', { name: 'Back to your tickets' }).click();
        await heading('Your tickets');
        const row = page.locator('.svc-portal__ticket').filter({ hasText: `#${ticketId}` });
        assert.deepEqual(await row.locator('.badge, .new').allTextContents(), ['Waiting for your reply', 'New reply']);
        assert.match(String(await row.locator('time').textContent()), /^\d+ min\. ago$/);
        assert.match(String(await row.locator('time').getAttribute('title')), /\d{4}/);
        await check('the list');
        await shot('list');

        await row.getByRole('button').click();
        await heading(LONG_SUBJECT);
        assert.deepEqual(await page.locator('.svc-portal__message time').allTextContents(), ['3 hr. ago', '5 min. ago']);
        await check('a ticket');
        await shot('ticket');
        await page.getByRole('button', { name: 'Back to your tickets' }).click();
        await heading('Your tickets');
        assert.equal(await page.locator('.svc-portal__ticket .new').count(), 0, 'read now');
      });

      it('says in words when the desk cannot be reached, and tries again', async () => {
        const list = `${apiOrigin}/wp-json/support/v1/sites/${siteId}/portal/tickets?page=1&per_page=10`;
        await page.locator('.svc-portal__ticket-link').first().click();
        await page.locator('.svc-portal__messages').waitFor();
        await page.route(list, (route) => route.abort());
        await page.getByRole('button', { name: 'Back to your tickets' }).click();
        const retry = page.getByRole('button', { name: 'Try again' });
        await retry.waitFor();
        assert.equal(await page.locator('.svc-portal__status--error').textContent(), 'The support desk could not be reached. Check your connection and try again.');
        assert.equal((await focusIn(page, HOST))?.text, '← Back to your tickets', 'the focus stays where it was');
        await check('an error');
        await shot('error');
        await page.unroute(list);
        await retry.click();
        await heading('Your tickets');
        assert.equal(await retry.count(), 0);
      });
    });
  }

  it('lays out a right-to-left page with long words at 320 px, in the words the site gave it', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    try {
      const page = await context.newPage();
      await page.goto(`${shop.origin}/rtl`);
      await page.getByRole('heading', { name: 'تسجيل الدخول إلى دعم Shop' }).waitFor();
      await page.getByRole('button', { name: 'اتصل بنا دون تسجيل الدخول' }).click();
      await page.getByLabel('Subject').fill(LONG_SUBJECT);
      await page.getByLabel('Message').fill(LONG_BODY);
      await assertNoOverflow(page, HOST, 'right to left');
      await assertAccessible(page, 'right to left');
      // The labels start at the right edge.
      const label = await page.locator('label').first().boundingBox();
      const field = await page.locator('input').first().boundingBox();
      assert.ok(Math.abs((label!.x + label!.width) - (field!.x + field!.width)) <= 1, JSON.stringify({ label, field }));
      await screenshot(page.locator(HOST), 'portal-rtl-320');
    } finally {
      await context.close();
    }
  });
});
