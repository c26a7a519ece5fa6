/** Comparing a target's answer with a captured one, under volatile, replacement and unordered-list rules. */
import assert from 'node:assert/strict';
import { CapturedResponse } from '../../../lib/replay/capture';
import { compareResponses } from '../../../lib/replay/compare';
import { CompareRules } from '../../../lib/replay/compare-rules';
import { compileJsonPath } from '../../../lib/replay/json-path';

const json = (body: unknown, headers: Array<[string, string]> = []): CapturedResponse => ({
  status: 200, headers: [['Content-Type', 'application/json; charset=UTF-8'], ...headers], body: JSON.stringify(body),
});
const text = (body: string): CapturedResponse => ({ status: 200, headers: [['Content-Type', 'text/html; charset=UTF-8']], body });
const actual = (r: CapturedResponse) => ({ ...r, body: r.body ?? '' });
const rules = (extra: Partial<CompareRules> = {}): CompareRules => ({ significantHeaders: ['content-type', 'x-wp-nonce'], replace: [], volatile: [], ...extra });

describe('compareResponses', () => {
  it('reports status, significant headers and JSON members that differ, by path', () => {
    const diffs = compareResponses(
      { ...json({ id: 2, name: 'Agent One', links: [{ href: 'a' }] }, [['X-WP-Nonce', 'abc']]), status: 200 },
      actual({ ...json({ id: 2, name: 'Agent', links: [{ href: 'b' }], extra: true }), status: 201 }),
      rules(),
    );
    assert.deepEqual(diffs, [
      { where: 'status', expected: '200', actual: '201' },
      { where: 'header x-wp-nonce', expected: 'abc', actual: '(absent)' },
      { where: 'body.name', expected: 'Agent One', actual: 'Agent' },
      { where: 'body.links[0].href', expected: 'a', actual: 'b' },
      { where: 'body.extra', expected: '(absent)', actual: 'true' },
    ]);
  });

  it('ignores the order of object keys and headers that are not significant', () => {
    const diffs = compareResponses(json({ a: 1, b: 2 }, [['Date', 'Mon']]), actual(json({ b: 2, a: 1 }, [['Date', 'Tue']])), rules());
    assert.deepEqual(diffs, []);
  });

  it('compares volatile strings and numbers by shape only, at the paths the rule names', () => {
    const volatile = [{ jsonPath: compileJsonPath('$.id'), pattern: /^\d+$/, placeholder: '{id}' }];
    assert.deepEqual(compareResponses(json({ id: 201 }), actual(json({ id: 202 })), rules({ volatile })), []);
    assert.equal(compareResponses(json({ id: 201, other: 1 }), actual(json({ id: 'x', other: 2 })), rules({ volatile })).length, 2);
  });

  it('keeps a text body that merely looks numeric as text (a nonce such as 5e94078032 is not Infinity)', () => {
    const diffs = compareResponses(text('5e94078032'), actual(text('5e12345678')), rules());
    assert.deepEqual(diffs, [{ where: 'body', expected: '5e94078032', actual: '5e12345678' }]);
    const volatile = [{ body: true, pattern: /^[0-9a-f]{10}$/, placeholder: '{nonce}' }];
    assert.deepEqual(compareResponses(text('5e94078032'), actual(text('5e12345678')), rules({ volatile })), []);
  });

  it('compares unordered lists as multisets and still names the member that differs', () => {
    const unorderedLists = [compileJsonPath('$.roles')];
    assert.deepEqual(compareResponses(json({ roles: ['a', 'b', 'c'] }), actual(json({ roles: ['c', 'a', 'b'] })), rules({ unorderedLists })), []);
    const diffs = compareResponses(json({ roles: ['a', 'b'] }), actual(json({ roles: ['b', 'x'] })), rules({ unorderedLists }));
    assert.deepEqual(diffs, [{ where: 'body.roles[0]', expected: 'a', actual: 'x' }]);
    assert.equal(compareResponses(json({ roles: ['a', 'b'] }), actual(json({ roles: ['b', 'a'] })), rules()).length, 2, 'ordered without the rule');
  });

  it('applies replacements to both sides, in headers and in JSON with escaped slashes', () => {
    const replace: Array<[string, string]> = [['http://php.test', '{origin}'], ['http://node.test', '{origin}']];
    const want = { ...json({ link: 'http://php.test/a' }, [['Link', '<http://php.test/wp-json/>']]) };
    const got = actual(json({ link: 'http://node.test/a' }, [['Link', '<http://node.test/wp-json/>']]));
    assert.deepEqual(compareResponses(want, got, { ...rules(), significantHeaders: ['link'], replace }), []);
  });

  it('unwraps JSONP before comparing as data', () => {
    const jsonp = (body: string): CapturedResponse => ({ status: 200, headers: [['Content-Type', 'application/javascript; charset=UTF-8']], body });
    assert.deepEqual(compareResponses(jsonp('/**/cb({"a":1,"b":2})'), actual(jsonp('/**/cb({"b":2,"a":1})')), rules()), []);
  });
});
