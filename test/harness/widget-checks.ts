/**
 * What the widget look tests (test/browser/*-look.test.ts) check in a page: axe-core's serious and
 * critical violations, horizontal overflow inside a widget's shadow root and of the page, where the
 * focus is (through shadow roots), and screenshots for docs/img/ when UPDATE_SCREENSHOTS=1 (so that
 * an ordinary run, CI's included, leaves the tree clean).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Locator, Page } from 'playwright-core';

// Browser globals for the callbacks that run inside the page (the project compiles without the DOM library).
declare const window: any;
declare const document: any;

const AXE = require.resolve('axe-core/axe.min.js');
export const SCREENSHOT_DIR = path.join(__dirname, '../../docs/img');

/** A host page that tries to break the widget (and that the widget must not restyle). */
export const HOSTILE_CSS = [
  'body{margin:0;padding:24px;font:18px/3 Georgia,serif;color:#3c434a;letter-spacing:2px;text-transform:uppercase;text-align:center;background:#f6f7f7}',
  'p,button,ul,li,textarea,input,h2,label,span,a,time,form,ol{margin:24px!important;padding:24px!important;border:4px dashed #c00!important;background:#ff0!important;display:block!important}',
  '.bubble,.msg,.panel,.launcher,.log,.svc-portal__body,.svc-portal__view,.card{display:none!important}',
].join('\n');

/** axe-core in the page: the serious and critical violations, described for an assertion message. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return (result.violations as Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}

export async function assertAccessible(page: Page, where: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe-core, ${where}`);
}

/**
 * Elements wider inside than they show (scrollWidth > clientWidth), in the widget's shadow root and
 * the page itself: text that runs out of its box, a panel cut off at the viewport's edge.
 */
export async function overflowing(page: Page, hostSelector: string): Promise<string[]> {
  return page.evaluate((selector: string) => {
    const found: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) found.push(`the page: ${doc.scrollWidth} > ${doc.clientWidth}`);
    for (const host of document.querySelectorAll(selector)) {
      for (const node of host.shadowRoot.querySelectorAll('*')) {
        // The screen-reader-only region is 1 px wide on purpose; text fields scroll their own text.
        if (node.classList.contains('sr') || node.matches('input, textarea') || (node.offsetParent === null && window.getComputedStyle(node).position !== 'fixed')) continue;
        if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0) found.push(`${node.tagName.toLowerCase()}.${[...node.classList].join('.')}: ${node.scrollWidth} > ${node.clientWidth}`);
        const rect = node.getBoundingClientRect();
        if (rect.width > 0 && (rect.right > doc.clientWidth + 1 || rect.left < -1)) found.push(`${node.tagName.toLowerCase()}.${[...node.classList].join('.')} outside the viewport: ${Math.round(rect.left)}..${Math.round(rect.right)}`);
      }
    }
    return found;
  }, hostSelector);
}

export async function assertNoOverflow(page: Page, hostSelector: string, where: string): Promise<void> {
  assert.deepEqual(await overflowing(page, hostSelector), [], `horizontal overflow, ${where}`);
}

/** The focused element inside the widget's shadow root, as `tag.class…` plus its text (200 characters) (null: the focus is outside). */
export function focusIn(page: Page, hostSelector: string): Promise<{ tag: string; className: string; text: string; id: string } | null> {
  return page.evaluate((selector: string) => {
    const host = document.querySelector(selector);
    const active = host?.shadowRoot?.activeElement;
    if (!active || document.activeElement !== host) return null;
    return { tag: active.tagName.toLowerCase(), className: String(active.className), text: String(active.textContent).slice(0, 200), id: active.id };
  }, hostSelector);
}

/** Saves a screenshot as docs/img/<name>.png when UPDATE_SCREENSHOTS=1. */
export async function screenshot(target: Page | Locator, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, clip, animations: 'disabled' });
  else await target.screenshot({ path: file, animations: 'disabled' });
}
