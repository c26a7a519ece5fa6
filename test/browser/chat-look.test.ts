/**
 * How the chat widget (client/svc/chat.js) looks and behaves on a phone (360 px) and a desktop
 * (1280 px), in headless Chromium on a second loopback origin whose CSS tries to break it: no
 * horizontal overflow, the newest text in view while an answer streams (and not once the reader
 * scrolls up, with a "new message" control instead), focus after each step, the finished answer
 * announced once, an error said in words with a retry, 0 serious or critical axe-core violations, a
 * right-to-left page. With UPDATE_SCREENSHOTS=1 it saves each state in docs/img/ (docs/chat.md).
 */
import assert from 'node:assert/strict';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { Listening, listen } from '../harness/http';
import { describeInBrowser, launchChromium } from '../harness/browser';
import { CHAT_SCRIPT_PATH } from '../../lib/support/chat/assets';
import { insertDocs } from '../../lib/support/docs/store';
import { createConnectedSite } from '../../lib/support/sites/admin';
import { FakeProvider, LONG_ANSWER, startFakeProvider } from '../harness/chat-provider';
import { CHAT_DOCS } from '../harness/chat-docs';
import { TestSite, listenAsSite, openTestSite, setSupportSettings } from '../harness/site';
import { HOSTILE_CSS, assertAccessible, assertNoOverflow, focusIn, screenshot } from '../harness/widget-checks';

declare const window: any;
declare const document: any;

const HOST = 'svc-chat';
/** The site's avatar (`chat_avatar_url`), served by the shop. */
const AVATAR_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#f2c14e"/><circle cx="32" cy="26" r="12" fill="#7a4b00"/><path d="M12 60c2-14 12-20 20-20s18 6 20 20z" fill="#7a4b00"/></svg>';
const LONG_QUESTION = 'How do I reset my password? https://shop.example/account/settings/security/password/reset/confirm?user=1234567890 パスワードをリセットする方法を教えてください';

async function startHostServer(scriptUrl: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const host = await listen((req, res) => {
    if (req.url === '/avatar.svg') {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      return void res.end(AVATAR_SVG);
    }
    const rtl = req.url?.startsWith('/rtl');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end([
      `<!DOCTYPE html><html lang="${rtl ? 'ar' : 'en'}" dir="${rtl ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop account</title>',
      `<style>${HOSTILE_CSS}</style></head><body><main><h1>Shop</h1><div class="page-note text">The shop's own text.</div></main>`,
      // The site translates the widget's own words with one object, before the script.
      rtl ? `<script>window.svc_strings = ${JSON.stringify({ chat: { send: 'إرسال', subtitle: 'إجابات من وثائقنا' } })};</script>` : '',
      `<script src="${scriptUrl()}" async></script></body></html>`,
    ].join('\n'));
  });
  return { origin: host.url, close: host.close };
}

describeInBrowser('the chat widget on a phone and a desktop', function () {
  this.timeout(120_000);
  let t: TestSite;
  let fake: FakeProvider;
  let api: Listening;
  let apiOrigin: string;
  let shop: { origin: string; close(): Promise<void> };
  let browser: Browser;

  before(async () => {
    fake = await startFakeProvider();
    fake.slowMs = 250;
    t = await openTestSite({ oracle: true });
    // The browser's clock and the desk's agree, so an answer of a moment ago says "now".
    t.clock.set(Date.now());
    api = await listenAsSite(t);
    apiOrigin = api.url;
    await t.site.options.update('permalink_structure', '/%postname%/');
    await insertDocs(t.site, CHAT_DOCS);
    shop = await startHostServer(() => `${apiOrigin}${CHAT_SCRIPT_PATH}`);
    await createConnectedSite(t.site, { name: 'Shop', origins: [shop.origin], docCollections: ['account'] });
    await setSupportSettings(t.site, {
      chat_enabled: true, chat_handoff: true, chat_base_url: fake.baseUrl, chat_model: 'long', chat_api_key: 'sk-browser', chat_name: 'Shop help',
      chat_avatar_url: `${shop.origin}/avatar.svg`,
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await api?.close();
    await t?.close();
    await fake?.close();
  });

  for (const [width, height] of [[360, 740], [1280, 800]] as const) {
    describe(`at ${width} px`, () => {
      let context: BrowserContext;
      let page: Page;
      /** The panel's corner at 1280 px; the whole screen on a phone. */
      const shot = (name: string) => screenshot(page, `chat-${name}-${width}`, width > 480 ? { x: width - 440, y: height - 760, width: 440, height: 760 } : undefined);
      const check = async (where: string) => {
        await assertNoOverflow(page, HOST, `${where} at ${width} px`);
        await assertAccessible(page, `${where} at ${width} px`);
      };
      const waitForAnswers = (n: number) => page.waitForFunction((count: number) => {
        const root = document.querySelector('svc-chat').shadowRoot;
        return root.querySelectorAll('[data-role="assistant"]:not([aria-busy]) time').length >= count;
      }, n, { timeout: 30_000 });

      // The desk's clock is the test's own: it moves to now before each step.
      beforeEach(() => { t.clock.set(Date.now()); });
      before(async () => {
        context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB' });
        page = await context.newPage();
      });
      after(async () => { await context.close(); });

      it('opens into the question field, styled its own way on a page whose CSS tries to break it', async () => {
        await page.goto(`${shop.origin}/account`);
        const launcher = page.getByRole('button', { name: 'Shop help' });
        await launcher.waitFor();
        await check('the launcher');
        await launcher.click();
        assert.deepEqual((await focusIn(page, HOST))?.id, 'svc-chat-input');
        const looks = await page.evaluate(() => {
          const root = document.querySelector('svc-chat').shadowRoot;
          const bubble = window.getComputedStyle(root.querySelector('.bubble'));
          const panel = root.querySelector('.panel').getBoundingClientRect();
          return {
            bubble: [bubble.fontSize, bubble.textTransform, bubble.letterSpacing, bubble.borderStyle],
            page: window.getComputedStyle(document.querySelector('.page-note')).whiteSpace,
            panel: [Math.round(panel.width), Math.round(panel.height)],
          };
        });
        assert.deepEqual(looks.bubble, ['15px', 'none', 'normal', 'none'], 'the page\'s CSS does not reach the widget');
        // The site's avatar in the header and beside each answer (decorative: the name says who).
        assert.deepEqual(await page.locator('img.avatar').evaluateAll((imgs: any[]) => imgs.map((img) => [img.getAttribute('src'), img.alt, img.complete && img.naturalWidth > 0])),
          [[`${shop.origin}/avatar.svg`, '', true], [`${shop.origin}/avatar.svg`, '', true]]);
        assert.equal(looks.page, 'normal', 'the widget\'s CSS does not reach the page');
        // A phone gets the whole screen; a desktop a panel in the corner.
        if (width <= 480) assert.deepEqual(looks.panel, [width, height]);
        else assert.deepEqual(looks.panel, [380, 640]);
        // Full screen, the panel keeps Tab inside it (the page behind is out of sight); in a corner it does not.
        await page.locator('.close').focus();
        await page.keyboard.press('Shift+Tab');
        assert.equal((await focusIn(page, HOST))?.className, width <= 480 ? 'offer svc-chat-handoff' : 'launcher svc-chat-launcher');
        await page.keyboard.press('Tab');
        assert.equal((await focusIn(page, HOST))?.className, 'close');
        await page.locator('#svc-chat-input').focus();
        await check('the open panel');
        await shot('open');
      });

      it('follows a streamed answer while the reader is at the bottom, stops when they scroll up, and offers the new message', async () => {
        // After each change of the log: is the end of the newest message inside the log's visible box?
        await page.evaluate(() => {
          const root = document.querySelector('svc-chat').shadowRoot;
          const log = root.querySelector('.log');
          window.__inView = [];
          window.__frozenAt = null;
          new window.MutationObserver(() => {
            const messages = log.querySelectorAll('.msg');
            const last = messages[messages.length - 1].getBoundingClientRect();
            const box = log.getBoundingClientRect();
            window.__inView.push({ visible: last.bottom <= box.bottom + 1, scrollTop: log.scrollTop, frozen: window.__frozenAt !== null });
          }).observe(log, { childList: true, subtree: true, characterData: true });
        });
        await page.locator('#svc-chat-input').fill('How do I reset my password?');
        await page.keyboard.press('Enter');
        // Let the answer grow past the panel's height, following it.
        await page.waitForFunction(() => {
          const log = document.querySelector('svc-chat').shadowRoot.querySelector('.log');
          return log.scrollHeight > log.clientHeight * 1.3;
        }, undefined, { timeout: 20_000 });
        const following = await page.evaluate(() => window.__inView.filter((s: { frozen: boolean }) => !s.frozen));
        assert.ok(following.length > 5, JSON.stringify(following));
        assert.deepEqual(following.filter((s: { visible: boolean }) => !s.visible), [], 'the newest text stays in view while streaming');
        await shot('streaming');

        // The reader scrolls up: the log stays where they are, and a control offers the new text.
        await page.locator('.log').hover();
        await page.mouse.wheel(0, -400);
        await page.waitForFunction(() => document.querySelector('svc-chat').shadowRoot.querySelector('.jump').hidden === false, undefined, { timeout: 10_000 });
        const top = await page.evaluate(() => { window.__frozenAt = document.querySelector('svc-chat').shadowRoot.querySelector('.log').scrollTop; return window.__frozenAt; });
        await page.waitForFunction(() => window.__inView.filter((s: { frozen: boolean }) => s.frozen).length >= 2, undefined, { timeout: 10_000 });
        const frozen = await page.evaluate(() => window.__inView.filter((s: { frozen: boolean }) => s.frozen));
        assert.deepEqual(frozen.map((s: { scrollTop: number }) => s.scrollTop).filter((s: number) => s !== top), [], 'it does not pull the reader down');
        await assertNoOverflow(page, HOST, `scrolled up at ${width} px`);
        await shot('new-message');
        await page.getByRole('button', { name: 'New message' }).click();
        assert.equal(await page.evaluate(() => {
          const log = document.querySelector('svc-chat').shadowRoot.querySelector('.log');
          return log.scrollHeight - log.scrollTop - log.clientHeight <= 32;
        }), true);

        // Done: the focus moves to the answer (read from there); long words and URLs wrap inside their bubble.
        await waitForAnswers(1);
        const answer = page.locator('[data-role="assistant"]').last();
        assert.equal(await answer.locator('.svc-chat-text').textContent(), LONG_ANSWER);
        assert.equal((await focusIn(page, HOST))?.className.includes('msg-assistant'), true, JSON.stringify(await focusIn(page, HOST)));
        assert.match(await answer.locator('time').getAttribute('title') ?? '', /\d{4}/);
        assert.equal(await answer.locator('time').textContent(), 'now');
        await check('the answer');
        await shot('answer');
      });

      it('closes on Escape back to the launcher, counts an answer that finished meanwhile, and announces it once', async () => {
        await page.locator('#svc-chat-input').fill('I forgot my password, what now?');
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.evaluate(() => {
          const live = document.querySelector('svc-chat').shadowRoot.querySelector('[aria-live="polite"]');
          window.__announced = [];
          new window.MutationObserver(() => window.__announced.push(live.textContent)).observe(live, { childList: true, subtree: true, characterData: true });
        });
        await page.keyboard.press('Escape');
        const launcher = page.locator('.launcher');
        assert.equal((await focusIn(page, HOST))?.className.includes('launcher'), true);
        assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
        await page.getByRole('button', { name: /^Shop help\W+1 new$/ }).waitFor({ timeout: 30_000 });
        assert.deepEqual(await page.evaluate(() => window.__announced), [`Shop help: ${LONG_ANSWER}`], 'announced once, when complete');
        await check('the unread marker');
        await shot('unread');
        await launcher.click();
        assert.equal((await focusIn(page, HOST))?.id, 'svc-chat-input');
        assert.equal(await page.getByRole('button', { name: 'Shop help', exact: true }).count(), width <= 480 ? 0 : 1, 'opened, the marker is gone');
      });

      it('says in words when the assistant cannot be reached, and tries again', async () => {
        await page.route(`${apiOrigin}/wp-json/support/v1/chat/messages`, (route) => route.abort());
        await page.locator('#svc-chat-input').fill(LONG_QUESTION);
        await page.keyboard.press('Enter');
        const retry = page.getByRole('button', { name: 'Try again' });
        await retry.waitFor();
        assert.equal(await page.getByRole('alert').textContent(), 'The assistant could not be reached. Check your connection and try again.Try again');
        await check('an error');
        await shot('error');
        await page.unroute(`${apiOrigin}/wp-json/support/v1/chat/messages`);
        const before = await page.locator('[data-role="assistant"] time').count();
        await retry.click();
        await waitForAnswers(before + 1);
        assert.equal(await page.getByRole('alert').count(), 0);
      });

      it('hands off to a person: focus into the form, then onto the ticket, and Escape still closes', async () => {
        await page.getByRole('button', { name: 'Talk to a person' }).click();
        assert.equal((await focusIn(page, HOST))?.id, 'svc-chat-email');
        await page.getByLabel('Email address').fill('visitor@example.net');
        await page.getByLabel('Name (optional)').fill('Vera Visitor');
        await check('the handoff form');
        await shot('handoff');
        await page.getByRole('button', { name: 'Send to a person' }).click();
        await page.locator('.svc-chat-ticket').waitFor();
        const focus = await focusIn(page, HOST);
        assert.equal(focus?.className, 'ticket svc-chat-ticket');
        assert.match(focus?.text ?? '', /^Handed to a personTicket #\d+\. The answer comes by email\.$/);
        await check('handed off');
        await shot('handed-off');
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('.panel').isHidden(), true);
        assert.equal((await focusIn(page, HOST))?.className.includes('launcher'), true);
      });
    });
  }

  it('lays out a right-to-left page at 320 px, in the words the site gave it: the launcher at the start side, no overflow', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    try {
      const page = await context.newPage();
      await page.goto(`${shop.origin}/rtl`);
      await page.getByRole('button', { name: 'Shop help' }).click();
      assert.equal(await page.getByText('إجابات من وثائقنا').count(), 1);
      await page.locator('#svc-chat-input').fill(LONG_QUESTION);
      await page.getByRole('button', { name: 'إرسال' }).click();
      await page.waitForFunction(() => document.querySelector('svc-chat').shadowRoot.querySelectorAll('[data-role="assistant"]:not([aria-busy]) time').length >= 1, undefined, { timeout: 30_000 });
      await assertNoOverflow(page, HOST, 'right to left');
      await assertAccessible(page, 'right to left');
      const sides = await page.evaluate(() => {
        const root = document.querySelector('svc-chat').shadowRoot;
        const visitor = root.querySelector('[data-role="visitor"] .bubble').getBoundingClientRect();
        const assistant = root.querySelector('[data-role="assistant"] .bubble').getBoundingClientRect();
        const launcher = root.querySelector('.launcher').getBoundingClientRect();
        return { visitorLeft: visitor.left, assistantRight: assistant.right, width: document.documentElement.clientWidth, launcherLeft: launcher.left };
      });
      // The visitor's bubbles sit at the end side (left in RTL), the assistant's at the start (right).
      assert.ok(sides.visitorLeft < 40 && sides.assistantRight > sides.width - 60, JSON.stringify(sides));
      await screenshot(page, 'chat-rtl-320');
      await page.keyboard.press('Escape');
      assert.ok((await page.locator('.launcher').boundingBox())!.x < 40, 'the launcher at the left');
    } finally {
      await context.close();
    }
  });
});
