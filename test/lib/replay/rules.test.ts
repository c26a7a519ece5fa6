/** Rules files: the WordPress defaults, what a file adds or takes away, validation, and scoping. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORDPRESS_SIGNIFICANT_HEADERS } from '../../../lib/replay/compare';
import { compileRules, isExcluded, loadRules, rulesFor } from '../../../lib/replay/rules';

describe('replay rules', () => {
  it('starts from the WordPress defaults: significant headers, nonces and dates by shape, unordered namespaces', () => {
    const rules = loadRules();
    assert.deepEqual([...rules.significantHeaders].sort(), [...WORDPRESS_SIGNIFICANT_HEADERS].sort());
    const get = rulesFor(rules, 'GET', '/wp/v2/users/me');
    assert.ok(get.volatile.some((v) => v.header === 'x-wp-nonce' && v.pattern.test('5e94078032')));
    assert.ok(get.volatile.some((v) => v.jsonPath?.test('body[0].created_at') && v.pattern.test('2026-11-22 13:51:51')));
    assert.ok(get.volatile.some((v) => v.jsonPath?.test('body.date') && v.pattern.test('2026-11-22T13:51:51')));
    assert.ok(get.unorderedLists?.some((p) => p.test('body.namespaces')));
  });

  it('treats ids as volatile only in answers to writes, and the rest-nonce body only on its route', () => {
    const rules = loadRules();
    const idRule = (method: string) => rulesFor(rules, method, '/support/v1/tickets').volatile.some((v) => v.jsonPath?.test('body.id'));
    assert.equal(idRule('GET'), false);
    assert.equal(idRule('POST'), true);
    assert.ok(rulesFor(rules, 'GET', 'admin-ajax:rest-nonce').volatile.some((v) => v.body));
    assert.ok(!rulesFor(rules, 'GET', 'admin-ajax:logged-in').volatile.some((v) => v.body));
  });

  it('adds a file\'s lists to the defaults and takes ignored headers out', () => {
    const rules = compileRules({
      significantHeaders: ['X-Custom'], ignoreHeaders: ['Link'], replace: [{ from: 'https://www.example.com', to: '{site}' }],
      exclude: ['/wp/v2/posts/**', 'admin-ajax:heartbeat'],
    });
    assert.ok(rules.significantHeaders.includes('x-custom'));
    assert.ok(!rules.significantHeaders.includes('link'));
    assert.deepEqual(rules.replace, [['https://www.example.com', '{site}']]);
    assert.ok(isExcluded(rules, '/wp/v2/posts/{id}'));
    assert.ok(isExcluded(rules, 'admin-ajax:heartbeat'));
    assert.ok(!isExcluded(rules, '/wp/v2/users/me'));
  });

  it('starts from nothing with "extends": "none"', () => {
    const rules = compileRules({ extends: 'none', significantHeaders: ['allow'] });
    assert.deepEqual(rules.significantHeaders, ['allow']);
    assert.deepEqual(rules.volatile, []);
  });

  it('refuses a file that does not follow the format, naming the file and the problem', () => {
    assert.throws(() => compileRules({ volatil: [] }, 'mine.json'), /mine\.json is not a valid rules file: .*additional properties/);
    assert.throws(() => compileRules({ volatile: [{ pattern: 'x' }] }), /must match a schema in anyOf/);
    assert.throws(() => compileRules({ credentials: [{ type: 'header', captured: 'a', replacement: 'b' }] }), /must have required property 'name'/);
    assert.throws(() => compileRules({ unorderedLists: ['roles'] }), /must start with \$/);
  });

  it('reads a rules file from disk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-rules-'));
    try {
      fs.writeFileSync(path.join(dir, 'rules.json'), JSON.stringify({ ignoreHeaders: ['allow'] }));
      assert.ok(!loadRules(path.join(dir, 'rules.json')).significantHeaders.includes('allow'));
      fs.writeFileSync(path.join(dir, 'broken.json'), '{');
      assert.throws(() => loadRules(path.join(dir, 'broken.json')), /Rules file broken\.json/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
