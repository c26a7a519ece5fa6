/**
 * PHP's parse_str() (how $_GET and $_POST are filled), urlencode(), and WordPress's add_query_arg()
 * as the pagination links use it.
 */
import assert from 'node:assert/strict';
import { FORM_BODY_COUNT, addQueryArgs, parsePhpQuery, phpUrldecode, phpUrlencode } from '../../../../lib/wp/http/php-query';

describe('PHP query strings', () => {
  describe('parsePhpQuery (parse_str)', () => {
    it('decodes + and %XX, and keeps the last of repeated plain names', () => {
      assert.deepEqual(parsePhpQuery('a=1+2&b=%C3%A9%2F&a=3&c&d='), { a: '3', b: 'é/', c: '', d: '' });
    });

    it('mangles dots and spaces in the top-level name, and drops leading spaces', () => {
      assert.deepEqual(parsePhpQuery('a.b=1&c+d=2&%20%20e=3&f.g[h.i]=4'), { a_b: '1', c_d: '2', e: '3', f_g: { 'h.i': '4' } });
    });

    it('builds lists and maps from brackets, nested', () => {
      assert.deepEqual(parsePhpQuery('a[]=1&a[]=2&m[x]=3&m[y][]=4&m[y][]=5&n[p][q]=6'), {
        a: ['1', '2'], m: { x: '3', y: ['4', '5'] }, n: { p: { q: '6' } },
      });
    });

    it('gives [] the next integer key after the largest one used', () => {
      assert.deepEqual(parsePhpQuery('a[1]=x&a[]=y'), { a: { 1: 'x', 2: 'y' } });
      assert.deepEqual(parsePhpQuery('a[0]=x&a[1]=y&a[]=z'), { a: ['x', 'y', 'z'] });
      assert.deepEqual(parsePhpQuery('a[k]=x&a[]=y'), { a: { k: 'x', 0: 'y' } });
      assert.deepEqual(parsePhpQuery('a[-5]=x&a[]=y'), { a: { '-5': 'x', 0: 'y' } });
    });

    it('is a list only when the keys are 0..n-1, as json_encode() decides', () => {
      assert.deepEqual(parsePhpQuery('a[0]=x&a[1]=y'), { a: ['x', 'y'] });
      assert.ok(!Array.isArray(parsePhpQuery('a[0]=x&a[2]=y').a));
      assert.ok(!Array.isArray(parsePhpQuery('a[00]=x').a), '"00" is a string key');
    });

    it('treats an unclosed bracket as part of the name and ignores what follows a closed one', () => {
      assert.deepEqual(parsePhpQuery('a[b=1&c[d]e=2'), { a_b: '1', c: { d: '2' } });
    });

    it('lets a later array replace a scalar and a later scalar replace an array', () => {
      assert.deepEqual(parsePhpQuery('a=1&a[]=2&b[]=1&b=2&c[x]=1&c[x][y]=2'), { a: ['2'], b: '2', c: { x: { y: '2' } } });
    });

    it('skips empty names and empty pairs', () => {
      assert.deepEqual(parsePhpQuery('&=1&[x]=2&&a=3&'), { a: '3' });
    });

    it('keeps a malformed escape as written and decodes the valid ones around it', () => {
      assert.deepEqual(parsePhpQuery('a=%41%zz%4&b=100%'), { a: 'A%zz%4', b: '100%' });
      assert.equal(phpUrldecode('%ff'), '\ufffd', 'a byte that is not UTF-8 (PHP keeps the byte)');
    });

    it('drops a name nested past 64 levels, and what its top-level name held before it (max_input_nesting_level)', () => {
      const deep = (levels: number, name = 'a') => `${name}${'[k]'.repeat(levels)}=1`;
      let kept: unknown = parsePhpQuery(deep(64)).a;
      for (let i = 0; i < 64; i++) kept = (kept as Record<string, unknown>).k;
      assert.equal(kept, '1');
      assert.deepEqual(parsePhpQuery(`a[x]=0&b=2&${deep(65)}`), { b: '2' });
      assert.deepEqual(parsePhpQuery(`${deep(65)}&a[y]=3`), { a: { y: '3' } }, 'a later value starts it again');
      assert.deepEqual(parsePhpQuery(`${deep(200_000)}&c=1`), { c: '1' });
    });

    it('keeps 1,000 query variables, skipping empty segments, and 1,001 from a form body, counting them (max_input_vars)', () => {
      const vars = (n: number) => Array.from({ length: n }, (_, i) => `v${i}=${i}`).join('&');
      assert.equal(Object.keys(parsePhpQuery(`&&${vars(1200)}`)).length, 1000);
      assert.equal(Object.keys(parsePhpQuery(vars(1200), FORM_BODY_COUNT)).length, 1001);
      assert.equal(Object.keys(parsePhpQuery(`&&${vars(1200)}`, FORM_BODY_COUNT)).length, 999);
    });

    it('treats names like __proto__ as plain names', () => {
      const parsed = parsePhpQuery('__proto__[polluted]=1&constructor=2');
      assert.deepEqual(Object.keys(parsed), ['__proto__', 'constructor']);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal((parsed as Record<string, unknown>).polluted, undefined);
    });
  });

  describe('phpUrlencode (urlencode)', () => {
    it('keeps letters, digits and -_. and encodes the rest, space as +', () => {
      assert.equal(phpUrlencode('aZ09-_. ~*!\'()/?&=é😀'), 'aZ09-_.+%7E%2A%21%27%28%29%2F%3F%26%3D%C3%A9%F0%9F%98%80');
    });
  });

  describe('addQueryArgs (add_query_arg with urlencode_deep)', () => {
    it('appends encoded parameters, replacing same-named ones in place', () => {
      assert.equal(addQueryArgs('http://x/wp-json/a', [['page', 2], ['s', 'a b']]), 'http://x/wp-json/a?page=2&s=a+b');
      assert.equal(addQueryArgs('http://x/a?page=1&s=q', [['page', 3]]), 'http://x/a?page=3&s=q');
    });

    it('re-encodes the URL\'s own query and drops the = of empty values', () => {
      assert.equal(addQueryArgs('http://x/index.php?rest_route=/a/b', [['_envelope', ''], ['page', 2]]), 'http://x/index.php?rest_route=%2Fa%2Fb&_envelope&page=2');
    });

    it('writes nested values with encoded brackets and keeps a fragment', () => {
      assert.equal(addQueryArgs('http://x/a#top', [['t', ['1', '2']], ['m', { k: 'v' }]]), 'http://x/a?t%5B0%5D=1&t%5B1%5D=2&m%5Bk%5D=v#top');
    });
  });
});
