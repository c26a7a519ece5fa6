import assert from 'node:assert/strict';
import fs from 'node:fs';
import { PhpJsonEncodeError, PhpJsonEncoded, jsonErrorForBody, phpJsonEncode } from '../../../../lib/wp/php/json';
import { filterFields } from '../../../../lib/wp/rest/fields';
import { oracleFile } from '../../../harness/oracle-files';

interface Exchange {
  name: string;
  request: { method: string; url: string; headers: [string, string][]; body: string | null };
  response: { status: number; headers: [string, string][]; body: string | null };
}

const TRAFFIC = oracleFile('wp-core-traffic.json');
const traffic: Exchange[] = JSON.parse(fs.readFileSync(TRAFFIC, 'utf8'));

function exchange(name: string): Exchange {
  const found = traffic.find((e) => e.name === name);
  assert.ok(found, `exchange "${name}" is in the traffic file`);
  return found;
}

function contentType(e: Exchange): string {
  return e.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
}

/** The JSON text of a REST answer: JSON bodies as they are, JSONP with its `/**\/cb(...)` wrapper removed. */
function jsonBodies(): { name: string; json: string }[] {
  const out: { name: string; json: string }[] = [];
  for (const e of traffic) {
    const body = e.response.body;
    if (!body) continue;
    if (contentType(e).startsWith('application/json')) out.push({ name: e.name, json: body });
    else if (contentType(e).startsWith('application/javascript')) {
      const m = /^\/\*\*\/[\w.]+\(([\s\S]*)\)$/.exec(body);
      assert.ok(m, `JSONP body of "${e.name}" has the /**/cb(...) shape`);
      out.push({ name: e.name, json: m[1] });
    }
  }
  return out;
}

describe('phpJsonEncode', () => {
  describe('strings', () => {
    const cases: [string, string, string][] = [
      ['slash is escaped', 'http://a/b', '"http:\\/\\/a\\/b"'],
      ['quote and backslash', 'say "hi" \\ bye', '"say \\"hi\\" \\\\ bye"'],
      ['<, >, & and \' stay as they are', `<a href='x'>&amp;</a>`, `"<a href='x'>&amp;<\\/a>"`],
      ['Latin-1 as \\u00xx, lowercase hex', 'café', '"caf\\u00e9"'],
      ['BMP character', '€ ü', '"\\u20ac \\u00fc"'],
      ['astral character as a surrogate pair', '😀', '"\\ud83d\\ude00"'],
      ['short control escapes', '\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
      ['other control characters as \\u00xx', '\u0000\u0001\u001f', '"\\u0000\\u0001\\u001f"'],
      ['DEL is not escaped', '\u007f', '"\u007f"'],
      ['empty string', '', '""'],
    ];
    for (const [what, input, expected] of cases) {
      it(what, () => assert.equal(phpJsonEncode(input), expected));
    }

    it('escapes object keys the same way', () => {
      assert.equal(phpJsonEncode({ 'a/é': 1 }), '{"a\\/\\u00e9":1}');
    });
  });

  describe('numbers', () => {
    const cases: [number | bigint, string][] = [
      [0, '0'],
      [-0, '0'],
      [1, '1'],
      [-5, '-5'],
      [9007199254740991, '9007199254740991'],
      [0.1, '0.1'],
      [1.5, '1.5'],
      [-2.25, '-2.25'],
      [123456.789, '123456.789'],
      [0.1 + 0.2, '0.30000000000000004'],
      [0.0001, '0.0001'],
      [0.00001, '1.0e-5'],
      [1e-7, '1.0e-7'],
      [-1.5e-10, '-1.5e-10'],
      [1e20, '1.0e+20'],
      [1.5e300, '1.5e+300'],
      [2 ** 63, '9.223372036854776e+18'],
      [12345678901234567890n, '12345678901234567890'],
    ];
    for (const [input, expected] of cases) {
      it(`${String(input)} → ${expected}`, () => assert.equal(phpJsonEncode(input), expected));
    }

    for (const bad of [NaN, Infinity, -Infinity]) {
      it(`refuses ${bad} like PHP (error 7)`, () => {
        assert.throws(() => phpJsonEncode({ a: [bad] }), (err: unknown) => {
          assert.ok(err instanceof PhpJsonEncodeError);
          assert.equal(err.code, 7);
          assert.equal(err.message, 'Inf and NaN cannot be JSON encoded');
          return true;
        });
      });
    }
  });

  describe('structures', () => {
    const cases: [string, unknown, string][] = [
      ['null, booleans', [null, true, false], '[null,true,false]'],
      ['empty array', [], '[]'],
      ['empty plain object (stdClass)', {}, '{}'],
      ['nested', { a: [1, { b: [] }], c: {} }, '{"a":[1,{"b":[]}],"c":{}}'],
      ['undefined members are left out', { a: undefined, b: 1, f: () => 1 }, '{"b":1}'],
      ['undefined inside an array is null', [undefined, 1], '[null,1]'],
      ['integer-like keys stay an object', { 24: 'a', 48: 'b' }, '{"24":"a","48":"b"}'],
      ['toJSON() is used (Date)', { d: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) }, '{"d":"2026-01-02T03:04:05.000Z"}'],
      ['empty Map is an empty PHP array', new Map(), '[]'],
      ['Map with keys 0..n-1 is a list', new Map<unknown, unknown>([[0, 'x'], ['1', 'y']]), '["x","y"]'],
      ['other Map is an object, insertion order', new Map<unknown, unknown>([['z', 1], [2, 'b'], ['a', null]]), '{"z":1,"2":"b","a":null}'],
      ['Map {1: "a"} is {"1":"a"}', new Map([[1, 'a']]), '{"1":"a"}'],
      ['top-level undefined is null', undefined, 'null'],
    ];
    for (const [what, input, expected] of cases) {
      it(what, () => assert.equal(phpJsonEncode(input), expected));
    }

    it('allows 512 levels of nesting and refuses 513 (error 1)', () => {
      const nest = (n: number): unknown => (n === 0 ? 1 : [nest(n - 1)]);
      assert.equal(phpJsonEncode(nest(512)), '['.repeat(512) + '1' + ']'.repeat(512));
      assert.throws(() => phpJsonEncode(nest(513)), (err: unknown) => err instanceof PhpJsonEncodeError && err.code === 1);
    });
  });

  describe('pretty (JSON_PRETTY_PRINT)', () => {
    it('indents four spaces with ": " and keeps empty [] and {} on one line', () => {
      const value = { a: 1, b: [1, 'x/y'], c: {}, d: [], e: { f: null } };
      const expected = [
        '{',
        '    "a": 1,',
        '    "b": [',
        '        1,',
        '        "x\\/y"',
        '    ],',
        '    "c": {},',
        '    "d": [],',
        '    "e": {',
        '        "f": null',
        '    }',
        '}',
      ].join('\n');
      assert.equal(phpJsonEncode(value, { pretty: true }), expected);
    });

    it('a scalar is the same pretty or not', () => {
      assert.equal(phpJsonEncode('a/b', { pretty: true }), '"a\\/b"');
    });
  });

  describe('captured WordPress bodies', () => {
    it('re-encodes the users/me body byte for byte', () => {
      const body = exchange('users-me cookie+nonce (agent1)').response.body as string;
      assert.equal(phpJsonEncode(JSON.parse(body)), body);
    });

    it('re-encodes the OPTIONS body byte for byte', () => {
      const body = exchange('OPTIONS users/me').response.body as string;
      assert.equal(phpJsonEncode(JSON.parse(body)), body);
    });

    it('re-encodes the error bodies byte for byte', () => {
      for (const name of ['users-me no auth', 'POST invalid JSON (authenticated)', 'posts?per_page=1000 (invalid param)', 'GET /wp-json/nope']) {
        const body = exchange(name).response.body as string;
        assert.equal(phpJsonEncode(JSON.parse(body)), body, name);
      }
    });

    it('round-trips every JSON (and JSONP) body in the traffic file', () => {
      const bodies = jsonBodies();
      assert.ok(bodies.length >= 30, `expected at least 30 JSON bodies, found ${bodies.length}`);
      for (const { name, json } of bodies) {
        assert.equal(phpJsonEncode(JSON.parse(json)), json, name);
      }
    });
  });
});

describe('jsonErrorForBody', () => {
  it('gives the code and message WordPress reported for the captured truncated body', () => {
    const e = exchange('POST invalid JSON (authenticated)');
    const data = JSON.parse(e.response.body as string).data;
    assert.deepEqual(jsonErrorForBody(e.request.body as string), { code: data.json_error_code, message: data.json_error_message });
    assert.deepEqual(jsonErrorForBody(Buffer.from(e.request.body as string)), { code: 4, message: 'Syntax error' });
  });

  const accepted: [string, string | Buffer][] = [
    ['an object', '{"title": "x", "n": [1, -2.5e3, true, null]}'],
    ['an empty body (never parsed)', ''],
    ['"0" (empty() in PHP, never parsed)', '0'],
    ['null', 'null'],
    ['a top-level scalar', ' "text" '],
    ['a surrogate pair escape', '"\\ud83d\\ude00"'],
    ['valid UTF-8', Buffer.from('{"a":"é😀"}')],
    ['upper- and lowercase hex in \\u escapes', '"\\u00E9\\u00e9\\uFFFF"'],
    ['the highest code point, U+10FFFF', Buffer.from([0x22, 0xf4, 0x8f, 0xbf, 0xbf, 0x22])],
    ['512 levels of nesting', '['.repeat(512) + ']'.repeat(512)],
  ];
  for (const [what, body] of accepted) {
    it(`accepts ${what}`, () => assert.equal(jsonErrorForBody(body), null));
  }

  const refused: [string, string | Buffer, number, string][] = [
    ['whitespace only', '  ', 4, 'Syntax error'],
    ['trailing garbage', '{"a":1}x', 4, 'Syntax error'],
    ['a trailing comma', '[1,]', 4, 'Syntax error'],
    ['a leading zero', '01', 4, 'Syntax error'],
    ['single quotes', "{'a':1}", 4, 'Syntax error'],
    ['a missing colon', '{"a" 1}', 4, 'Syntax error'],
    ['a non-string key', '{1:2}', 4, 'Syntax error'],
    ['NaN', '[NaN]', 4, 'Syntax error'],
    ['a bad escape', '"\\x41"', 4, 'Syntax error'],
    ['a short \\u escape', '"\\u12"', 4, 'Syntax error'],
    ['a UTF-8 BOM', Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), 4, 'Syntax error'],
    ['an unterminated string', '{"title": "broken', 3, 'Control character error, possibly incorrectly encoded'],
    ['a raw control character in a string', '"a\u0001b"', 3, 'Control character error, possibly incorrectly encoded'],
    ['a control character between tokens', '[1,\u0002 2]', 3, 'Control character error, possibly incorrectly encoded'],
    ['a NUL byte between tokens', '{}\u0000', 3, 'Control character error, possibly incorrectly encoded'],
    ['invalid UTF-8 in a string', Buffer.from([0x22, 0xff, 0x22]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
    ['an overlong UTF-8 sequence', Buffer.from([0x22, 0xc0, 0xaf, 0x22]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
    ['a UTF-8 encoded surrogate', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
    ['a code point above U+10FFFF', Buffer.from([0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
    ['a 4-byte sequence cut off by the end of the body', Buffer.from([0x22, 0xf0, 0x9f, 0x98]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
    ['a non-hex digit in a \\u escape', '"\\u00g9"', 4, 'Syntax error'],
    ['invalid UTF-8 between tokens', Buffer.from([0x5b, 0xff, 0x5d]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
    ['a lone high surrogate escape', '"\\ud800"', 10, 'Single unpaired UTF-16 surrogate in unicode escape'],
    ['a high surrogate followed by a non-low escape', '"\\ud800\\u0041"', 10, 'Single unpaired UTF-16 surrogate in unicode escape'],
    ['a lone low surrogate escape', '"\\udc00"', 10, 'Single unpaired UTF-16 surrogate in unicode escape'],
    ['513 levels of nesting', '['.repeat(513) + ']'.repeat(513), 1, 'Maximum stack depth exceeded'],
    ['the first problem wins (control character before the syntax error)', '{"a":"\u0001"', 3, 'Control character error, possibly incorrectly encoded'],
    ['the first problem wins (syntax error before bad UTF-8)', Buffer.from([0x5b, 0x31, 0x20, 0x31, 0x5d, 0x22, 0xff]), 4, 'Syntax error'],
  ];
  for (const [what, body, code, message] of refused) {
    it(`refuses ${what} with ${code}`, () => assert.deepEqual(jsonErrorForBody(body), { code, message }));
  }
});

describe('PhpJsonEncoded (a value encoded once and kept)', () => {
  const ticket = { id: 7, subject: 'Café/Bäckerei "Nord"', tags: ['a', 'b'], assignee: null };
  const kept = new PhpJsonEncoded(ticket);

  it('writes the same bytes as the value, compact or pretty, at any depth', () => {
    assert.equal(phpJsonEncode([kept]), phpJsonEncode([ticket]));
    assert.equal(phpJsonEncode({ body: [kept], status: 200 }, { pretty: true }), phpJsonEncode({ body: [ticket], status: 200 }, { pretty: true }));
  });

  it('is filtered by _fields as the value it holds', () => {
    assert.deepEqual(filterFields([kept], 'id,subject'), [{ id: 7, subject: ticket.subject }]);
  });
});
