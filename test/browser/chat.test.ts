/**
 * The chat widget (client/svc/chat.js, docs/chat.md "The widget") in a real browser: Debian's
 * headless Chromium, driven by playwright-core, on a page served by a plain HTTP server on a second
 * loopback origin (a connected site's listed address) holding only the script tag, talking to
 * Understudy, whose answers come from a real local provider server. An answer streams in, its source
 * shows as a link, the thread comes back after a reload, hostile text stays text, and the handoff
 * opens a ticket that an agent then sees.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { Listening, listen } from '../harness/http';
import { describeInBrowser, launchChromium } from '../harness/browser';
import { CHAT_SCRIPT_PATH } from '../../lib/support/chat/assets';
import { insertDocs } from '../../lib/support/docs/store';
import { createConnectedSite } from '../../lib/support/sites/admin';
import { ANSWER, ANSWER_PIECES, FakeProvider, startFakeProvider } from '../harness/chat-provider';
import { CHAT_DOCS } from '../harness/chat-docs';
import { TestSite, listenAsSite, openTestSite, setSupportSettings } from '../harness/site';
import { API, as } from '../harness/support';

// Browser globals for the callbacks that run inside the page (the project compiles without the DOM library).
declare const window: any;
declare const document: any;

const QUESTION = 'How do I reset my password?';
const HOSTILE = 'Password <img src=x onerror="window.__pwned = 1"> reset?';

async function startHostServer(scriptUrl: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const host = await listen((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Shop account</title></head><body><h1>Shop</h1><script src="${scriptUrl()}" async></script></body></html>`);
  });
  return { origin: host.url, close: host.close };
}

describeInBrowser('the chat widget', function () {
  this.timeout(90_000);
  let t: TestSite;
  let fake: FakeProvider;
  let api: Listening;
  let apiOrigin: string;
  let shop: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    fake = await startFakeProvider();
    fake.slowMs = 400;
    t = await openTestSite({ oracle: true });
    api = await listenAsSite(t);
    apiOrigin = api.url;
    await t.site.options.update('permalink_structure', '/%postname%/');
    await insertDocs(t.site, CHAT_DOCS);
    shop = await startHostServer(() => `${apiOrigin}${CHAT_SCRIPT_PATH}`);
    await createConnectedSite(t.site, { name: 'Shop', origins: [shop.origin], docCollections: ['account', 'billing'] });
    await setSupportSettings(t.site, {
      chat_enabled: true, chat_handoff: true, chat_base_url: fake.baseUrl, chat_model: 'paced', chat_api_key: 'sk-browser', chat_name: 'Shop help',
    });
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await api?.close();
    await t?.close();
    await fake?.close();
  });

  const lastAnswer = () => page.locator('[data-role="assistant"] .svc-chat-text').last();
  // The widget lives in an open shadow root on <svc-chat>: page scripts reach it through shadowRoot.
  const waitForText = (selector: string, expected: string) => page.waitForFunction(
    ([sel, text]: [string, string]) => [...document.querySelector('svc-chat').shadowRoot.querySelectorAll(sel)].some((n: any) => n.textContent === text), [selector, expected] as [string, string], { timeout: 20_000, polling: 50 },
  ).catch(async (err: Error) => {
    throw new Error(`never shown: "${expected}"; the chat shows ${JSON.stringify(await page.evaluate(() => document.querySelector('svc-chat')?.shadowRoot.querySelector('.svc-chat-panel')?.innerText))} (${err.message})`);
  });

  it('is served as a script with the REST root localized', async () => {
    const res = await request(t.app).get(CHAT_SCRIPT_PATH);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/javascript; charset=UTF-8');
    assert.ok(res.text.startsWith(`var svc_chat_vars = {"api_root":"${apiOrigin.replace(/\//g, '\\/')}\\/wp-json\\/support\\/v1\\/"};\n`));
  });

  it('never inserts text as HTML', () => {
    const source = fs.readFileSync(path.join(__dirname, '../../client/svc/chat.js'), 'utf8');
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function']) {
      assert.ok(!source.includes(sink), `chat.js uses ${sink}`);
    }
  });

  it('streams an answer in, with its source as a link', async () => {
    await page.goto(`${shop.origin}/account`);
    const launcher = page.getByRole('button', { name: 'Shop help' });
    await launcher.click();
    assert.equal(await launcher.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.querySelector('svc-chat').shadowRoot.activeElement.id), 'svc-chat-input');
    // Every text the answer shows on its way, as the page renders it.
    await page.evaluate(() => {
      window.__seen = [];
      const root = document.querySelector('svc-chat').shadowRoot;
      new window.MutationObserver(() => {
        const answers = root.querySelectorAll('[data-role="assistant"] .svc-chat-text');
        const text = answers[answers.length - 1]?.textContent;
        if (text && window.__seen[window.__seen.length - 1] !== text) window.__seen.push(text);
      }).observe(root.querySelector('[role="log"]'), { childList: true, subtree: true, characterData: true });
    });
    await page.locator('#svc-chat-input').fill(QUESTION);
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForText('[data-role="assistant"] .svc-chat-text', ANSWER);
    // The pieces showed one after another before the whole answer: it streamed in.
    const seen: string[] = await page.evaluate(() => window.__seen);
    assert.deepEqual(seen.filter((text) => text !== 'Hi! Ask me anything about our product. I answer from our documentation.'), [
      ANSWER_PIECES[0], ANSWER_PIECES.slice(0, 2).join(''), ANSWER,
    ]);
    const link = page.locator('.svc-chat-sources a').last();
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `${apiOrigin}/docs/reset-password/`);
    assert.equal(await link.textContent(), 'Resetting your password');
    // The log itself is not live (it would read every streamed piece); one polite region speaks finished answers.
    assert.equal(await page.locator('[role="log"]').getAttribute('aria-live'), 'off');
    assert.equal(await page.locator('svc-chat [aria-live="polite"]').count(), 1);
  });

  it('keeps text as text, and finds the conversation again after a reload', async () => {
    await page.locator('#svc-chat-input').fill(HOSTILE);
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForText('[data-role="visitor"] .svc-chat-text', HOSTILE);
    await page.waitForFunction(() => document.querySelector('svc-chat').shadowRoot.querySelectorAll('[data-role="assistant"]:not([aria-busy])').length >= 3);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('.svc-chat-log img').count(), 0);
    await page.reload();
    await page.getByRole('button', { name: 'Shop help' }).click();
    await waitForText('[data-role="visitor"] .svc-chat-text', QUESTION);
    await waitForText('[data-role="visitor"] .svc-chat-text', HOSTILE);
    await waitForText('[data-role="assistant"] .svc-chat-text', ANSWER);
    // The markup-laden question matched no doc well enough: told so, without a model call.
    assert.equal(await lastAnswer().textContent(), "I couldn't find anything about that in our documentation.");
  });

  it('hands the conversation to a person: a ticket the agent sees', async () => {
    await page.getByRole('button', { name: 'Talk to a person' }).click();
    await page.getByLabel('Email address').fill('visitor@example.net');
    await page.getByLabel('Name (optional)').fill('Vera Visitor');
    await page.getByLabel('Anything to add? (optional)').fill('Still cannot sign in.');
    await page.getByRole('button', { name: 'Send to a person' }).click();
    await page.waitForFunction(() => /ticket #\d+/.test(document.querySelector('svc-chat').shadowRoot.querySelector('.svc-chat-status').textContent), undefined, { timeout: 15_000 });
    const ticketId = Number(/ticket #(\d+)/.exec(String(await page.locator('.svc-chat-status').textContent()))![1]);
    assert.equal(await page.locator('#svc-chat-input').isDisabled(), true);
    const list = await as(t.app, 'agent1').get(`${API}/tickets?search=${encodeURIComponent('Still cannot sign in')}`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.map((x: { id: number; source: string; customer_name: string }) => [x.id, x.source, x.customer_name]), [[ticketId, 'chat', 'Vera Visitor']]);
    const ticket = await as(t.app, 'agent1').get(`${API}/tickets/${ticketId}`);
    assert.ok(JSON.stringify(ticket.body).includes('Page: Shop account'));
  });
});
