/**
 * Fuzzing the request body decoders, first as functions, then through a listening server.
 *
 * PHP query strings and form bodies (parse_str): whatever the text, the decoder returns, in time that
 * grows about linearly with the text, never nests deeper than max_input_nesting_level (64) and never
 * keeps more variables than max_input_vars allows. JSON bodies: whatever the bytes, the check returns,
 * and anything JSON.parse cannot read is WordPress's `rest_invalid_json`.
 *
 * Over HTTP, anonymous requests with arbitrary and malformed bodies and content types (multipart cut
 * off, without or with the wrong boundary, huge part header lines, random bytes, names thousands of
 * brackets deep, thousands of variables) to a REST route and to admin-ajax.php: every one is answered
 * in time, never with a 5xx, REST in WordPress's JSON shape, admin-ajax with `0`, `-1` or JSON; the
 * server goes on answering, and no uploaded file is left in the temporary folder.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { buildSurface, createApp } from '../../lib/app';
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { fixedClock } from '../../lib/wp/clock';
import { isJsonContentType } from '../../lib/wp/http/body';
import { jsonErrorForBody } from '../../lib/wp/php/json';
import { FORM_BODY_COUNT, MAX_INPUT_NESTING_LEVEL, PhpInputCount, PhpQueryValue, QUERY_COUNT, parsePhpQuery, phpArrayFromPairs } from '../../lib/wp/http/php-query';
import { parseJsonBody } from '../../lib/wp/rest/request';
import { Site } from '../../lib/wp/site';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { credentials, loadOracleInto, oracleConfig } from '../harness/oracle';
import { SAMPLE_ROUTES, registerSampleAjaxActions } from '../harness/sample-routes';
import { listen } from '../harness/wp-http';
import { FuzzOutcome, FuzzRequest, explain, requestText, send, stillAnswers } from './client';
import { assertAboutAsFast, assertAboutLinear, params, preview, shown, testTimeout } from './settings';

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** What names are made of: plain words, characters PHP mangles, brackets, escapes good and broken. */
const NAME_PIECES = [
  'a', 'b', 'x', 'action', '_wpnonce', 'rest_route', '__proto__', 'constructor', 'toString', '0', '1', '-1', '_', '.', ' ',
  '[', ']', '[]', '[a]', '[0]', '[-1]', '[9223372036854775808]', '[__proto__]', '%5B', '%5D', '%20', '+', '%', '%zz',
  '%00', '%C3', '%FF', 'é', '☃',
];
const VALUE_PIECES = ['1', 'x', 'true', '', '%', '%4', '%41', '+', '%2B', '=', 'é', '%FF%FE', '\u0000', '[]'];

const joined = (pieces: string[], maxLength: number, minLength = 0) =>
  fc.array(fc.constantFrom(...pieces), { minLength, maxLength }).map((p) => p.join(''));

/** A name nested (or half-nested) thousands of levels deep. */
const deepName = fc.tuple(
  fc.constantFrom('a', 'deep', '', ' a'),
  fc.constantFrom('[a]', '[]', '[0]', '[', ']', '[[', '[a', '%5Ba%5D', '[a]]'),
  fc.integer({ min: 0, max: 3000 }),
).map(([base, level, n]) => base + level.repeat(n));

const nameArb = fc.oneof(
  { weight: 5, arbitrary: joined(NAME_PIECES, 8) },
  { weight: 2, arbitrary: deepName },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);
const valueArb = fc.oneof(joined(VALUE_PIECES, 6), fc.string({ maxLength: 30 }));

const pairsText = fc.array(fc.tuple(nameArb, fc.option(valueArb)), { maxLength: 40 })
  .map((pairs) => pairs.map(([n, v]) => (v === null ? n : `${n}=${v}`)).join('&'));

/** Thousands of variables (PHP keeps 1000 of a query, 1001 of a form body), or thousands of empty segments. */
const manyVars = fc.tuple(fc.integer({ min: 900, max: 3000 }), fc.constantFrom('v', 'a[]', 'a[x', 'a[b][', '', '&'))
  .map(([n, prefix]) => Array.from({ length: n }, (_, i) => (prefix === '&' ? '' : `${prefix}${prefix.endsWith('[') ? `${i}]` : i}=${i}`)).join('&'));

/** Text a query string or form body may hold. */
const queryText = fc.oneof(
  { weight: 4, arbitrary: pairsText },
  { weight: 1, arbitrary: manyVars },
  { weight: 2, arbitrary: joined([...NAME_PIECES, ...VALUE_PIECES, '&', '=', '&&'], 60) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

/** JSON text, valid or nearly so, and nesting far past PHP's 512 levels. */
const deepJson = fc.tuple(fc.constantFrom('[', '{"a":', '[{"a":', '{"":['), fc.integer({ min: 1, max: 20_000 }), fc.boolean())
  .map(([open, n, closed]) => {
    if (!closed) return open.repeat(n);
    const close = [...open].reverse().map((c) => ({ '[': ']', '{': '}' } as Record<string, string>)[c] ?? '').join('');
    return `${open.repeat(n)}1${close.repeat(n)}`;
  });

/** Edits of a text: insertions, deletions and replacements at arbitrary places. */
const mutated = (text: fc.Arbitrary<string>) => fc.tuple(
  text,
  fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.string({ unit: 'binary', minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 4 }),
).map(([t, edits]) => edits.reduce((s, [at, op, chars]) => {
  const i = s.length ? at % (s.length + 1) : 0;
  if (op === 'insert') return s.slice(0, i) + chars + s.slice(i);
  if (op === 'delete') return s.slice(0, i) + s.slice(i + chars.length);
  return s.slice(0, i) + chars + s.slice(i + chars.length);
}, t));

const jsonLike = fc.oneof(
  { weight: 3, arbitrary: fc.json({ maxDepth: 5 }) },
  { weight: 4, arbitrary: mutated(fc.json({ maxDepth: 5 })) },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: joined(['{', '}', '[', ']', '"', ':', ',', '\\', '\\u', 'd800', 'dc00', '1', '-', '.', 'e', 'true', 'nul', ' ', '\u0001', 'é'], 30) },
);

/** Bytes as a client may send them: JSON-ish text, with or without broken UTF-8, or noise. */
const jsonBytes = fc.oneof(
  { weight: 4, arbitrary: jsonLike.map((s) => Buffer.from(s, 'utf8')) },
  { weight: 1, arbitrary: fc.tuple(jsonLike, fc.nat(), fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x00]))
    .map(([s, at, bad]) => { const b = Buffer.from(s, 'utf8'); const i = b.length ? at % b.length : 0; return Buffer.concat([b.subarray(0, i), Buffer.from(bad), b.subarray(i)]); }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
);

// ---------------------------------------------------------------------------------------------
// What every decoded result must satisfy
// ---------------------------------------------------------------------------------------------

/** Levels of arrays: a string is 0, an array holding strings 1. */
function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depth(child));
  return deepest + 1;
}

function leaves(value: PhpQueryValue): number {
  if (typeof value === 'string') return 1;
  return Object.values(value).reduce((n: number, child) => n + leaves(child as PhpQueryValue), 0);
}

/** A decoded $_GET / $_POST: the top level plus at most 64 bracket levels, and no more variables than PHP keeps. */
function assertWithinPhpLimits(decoded: Record<string, PhpQueryValue>, count: PhpInputCount): void {
  assert.ok(depth(decoded) <= MAX_INPUT_NESTING_LEVEL + 1, `nested ${depth(decoded)} levels`);
  assert.ok(Object.keys(decoded).length <= count.maxVars, `${Object.keys(decoded).length} top-level keys`);
  assert.ok(leaves(decoded) <= count.maxVars, `${leaves(decoded)} values`);
}

describe('fuzz: body decoders', function () {
  describe('PHP query strings and form bodies (parse_str)', function () {
    this.timeout(testTimeout(20_000));

    it('decode any text without throwing, within 64 levels and the input-variable limits', () => {
      const texts = queryText.map((text) => shown({ text }, `query ${preview(text)}`));
      fc.assert(fc.property(texts, fc.constantFrom(QUERY_COUNT, FORM_BODY_COUNT), ({ text }, count) => {
        assertWithinPhpLimits(parsePhpQuery(text, count), count);
      }), params(300, 20_000));
    });

    it('build arrays from any decoded names and values (multipart fields) within 64 levels', () => {
      const pairs = fc.array(fc.tuple(fc.oneof(nameArb, fc.string({ unit: 'binary' })), fc.string()), { maxLength: 60 });
      fc.assert(fc.property(pairs, (list) => {
        const decoded = phpArrayFromPairs(list);
        assert.ok(depth(decoded) <= MAX_INPUT_NESTING_LEVEL + 1, `nested ${depth(decoded)} levels`);
        assert.ok(leaves(decoded) <= list.length);
      }), params(300, 20_000));
    });

    it('keep the last value of each plain name, in first-seen order, as PHP does', () => {
      const plain = fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,2}$/), fc.stringMatching(/^[a-z0-9]{0,4}$/)), { maxLength: 30 });
      fc.assert(fc.property(plain, (list) => {
        const expected = new Map<string, string>();
        for (const [k, v] of list) expected.set(k, v);
        assert.deepEqual(Object.entries(parsePhpQuery(list.map(([k, v]) => `${k}=${v}`).join('&'))), [...expected]);
      }), params(200, 5_000));
    });

    it('take time about linear in the length of the text, however it is built', () => {
      const fragment = joined([...NAME_PIECES, ...VALUE_PIECES, '&', '=', '[', '[a]', '[]', '%5B'], 10, 1).filter((piece) => piece.length > 0);
      fc.assert(fc.property(fragment, (piece) => {
        const text = (chars: number) => piece.repeat(Math.ceil(chars / piece.length));
        const small = text(2_000);
        const large = text(32_000);
        assertAboutLinear(`${JSON.stringify(piece)} as a form body of 2,000 and 32,000 characters`,
          () => parsePhpQuery(small, FORM_BODY_COUNT), () => parsePhpQuery(large, FORM_BODY_COUNT));
        // Multipart fields reach phpArrayFromPairs() at most 1,000 at a time (busboy's limit), but with names of any length.
        const names = (length: number): Array<[string, string]> => Array.from({ length: 1_000 }, () => [text(length), 'v']);
        const shortNames = names(100);
        const longNames = names(1_600);
        assertAboutLinear(`${JSON.stringify(piece)} in 1,000 names of 100 and 1,600 characters`,
          () => phpArrayFromPairs(shortNames), () => phpArrayFromPairs(longNames));
      }), params(15, 500));
    });
  });

  describe('JSON bodies', function () {
    this.timeout(testTimeout(20_000));

    it('never throw, and whatever JSON.parse cannot read is rest_invalid_json (400)', () => {
      fc.assert(fc.property(jsonBytes.map((b) => shown(b, `body ${preview(b.toString('latin1'))}`)), (bytes) => {
        const parsed = parseJsonBody(bytes);
        let readable = true;
        try {
          JSON.parse(bytes.toString('utf8'));
        } catch {
          readable = false;
        }
        const empty = bytes.length === 0 || bytes.toString('latin1') === '0';
        if (!readable && !empty) {
          assert.ok(parsed.error, `accepted ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`);
        }
        if (parsed.error) {
          assert.equal(parsed.error.code, 'rest_invalid_json');
          assert.equal(parsed.error.status, 400);
          assert.ok([1, 3, 4, 5, 10].includes(parsed.error.data.json_error_code as number), String(parsed.error.data.json_error_code));
          assert.equal(parsed.value, null);
        } else if (!empty) {
          const value = JSON.parse(bytes.toString('utf8'));
          assert.deepEqual(parsed.value, value && typeof value === 'object' && !Array.isArray(value) ? value : null);
        }
      }), params(500, 50_000));
    });

    it('accept any JSON value a client encodes, giving an object body as its parameters', () => {
      fc.assert(fc.property(fc.jsonValue({ maxDepth: 6, stringUnit: 'grapheme' }), (value) => {
        const parsed = parseJsonBody(Buffer.from(JSON.stringify(value), 'utf8'));
        assert.equal(parsed.error, undefined, JSON.stringify(value));
        const expected = JSON.parse(JSON.stringify(value));
        assert.deepEqual(parsed.value, expected && typeof expected === 'object' && !Array.isArray(expected) ? expected : null);
      }), params(300, 20_000));
    });

    // Every JSON body is checked before any route or sign-in: an anonymous 8 MiB string of `é` once
    // cost over five seconds (100 times its size in ASCII) though the work was linear.
    it('check 8 MiB of 2-, 3- and 4-byte characters in about the time of 8 MiB of ASCII', () => {
      const body = (char: string) => Buffer.from(`{"x":"${char.repeat(Math.floor(8 * 1024 * 1024 / Buffer.byteLength(char)))}"}`);
      const ascii = body('a');
      for (const char of ['é', '€', '😀']) {
        const wide = body(char);
        assert.equal(jsonErrorForBody(wide), null);
        assertAboutAsFast(`8 MiB of ${char}`, 4, () => jsonErrorForBody(ascii), () => jsonErrorForBody(wide));
      }
    });
  });

  describe('over HTTP, anonymous', function () {
    this.timeout(testTimeout(60_000));
    let scratch: ScratchDatabase;
    let site: Site;
    let server: { port: number; close(): Promise<void> };
    let logger: ReturnType<typeof memoryLogger>;
    let tmp: string;
    const previousTmp = process.env.TMPDIR;

    before(async () => {
      scratch = await scratchDatabase();
      await loadOracleInto(scratch);
      logger = memoryLogger();
      ({ site } = await openSite(oracleConfig(scratch), { logger, clock: fixedClock(credentials.generated_at * 1000) }));
      // The real routes and actions, plus the test namespace's echo route and action, which answer
      // with the parameters they decoded.
      const surface = buildSurface();
      for (const route of SAMPLE_ROUTES) surface.rest.register(route);
      registerSampleAjaxActions(surface.ajax);
      server = await listen(createApp(site, surface));
      // Uploads are streamed to temporary files: a folder of our own shows what is left behind.
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-fuzz-tmp-'));
      process.env.TMPDIR = tmp;
    });
    after(async () => {
      if (previousTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmp;
      await server?.close();
      await site?.close();
      await scratch?.drop();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
      if (site) fs.rmSync(site.config.dataDir, { recursive: true, force: true });
    });

    it('answers every malformed body in time and in the caller\'s shape, never 5xx, and keeps serving', async () => {
      await fc.assert(fc.asyncProperty(requestArb, async (request) => {
        const outcome = await send(server.port, request);
        assertAnswered(request, outcome);
        assert.ok(await stillAnswers(server.port, '/wp-json/test/v1/things'), `the server stopped answering after ${explain(request, outcome)}`);
      }), params(250, 6_000));
      const failures = logger.lines.filter((l) => l.level === 'error');
      assert.deepEqual(failures, [], 'nothing failed unexpectedly');
      await eventually(async () => fs.readdirSync(tmp).length === 0, 5_000)
        .catch(() => assert.fail(`temporary files left behind: ${fs.readdirSync(tmp).length}`));
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

interface Target {
  kind: 'rest' | 'ajax';
  path: string;
  methods: string[];
}

const TARGETS: Target[] = [
  // Answers with the parameters it decoded: the decoders' output must be encodable and within limits.
  { kind: 'rest', path: '/wp-json/test/v1/echo/fuzz', methods: ['POST', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  { kind: 'rest', path: '/?rest_route=/test/v1/echo/routed', methods: ['POST', 'PATCH'] },
  // A real route: its arguments are validated before the sign-in check.
  { kind: 'rest', path: '/wp-json/support/v1/tickets', methods: ['POST'] },
  { kind: 'ajax', path: '/wp-admin/admin-ajax.php?action=test_echo', methods: ['POST', 'POST', 'GET'] },
  { kind: 'ajax', path: '/wp-admin/admin-ajax.php', methods: ['POST'] },
  // A real action: a visitor's form submission.
  { kind: 'ajax', path: '/wp-admin/admin-ajax.php?action=frm_form_submit', methods: ['POST'] },
];

/**
 * Every REST route the product registers and every admin-ajax action, anonymous: each URL parameter
 * filled from values that name something (an oracle ticket, a UUID) and values that name nothing.
 */
const SURFACE = buildSurface();
const URL_PARAM_VALUES: Record<string, string[]> = {
  '[\\d]+': ['1', '158', '0', '99999999999999999999'],
  '[\\w-]+': ['main', 'site-1', 'x', '_'.repeat(300)],
  '[^/]+': ['understudy', '%00', 'a%2Fb', '%C3%A9'],
  '[0-9a-fA-F-]{36}': ['40fd36d7-c4a9-4f01-9605-d80d06d269d2', '00000000-0000-0000-0000-000000000000'],
  '[0-9a-f]{32}': ['0123456789abcdef0123456789abcdef', 'ffffffffffffffffffffffffffffffff'],
};
const EVERY_ROUTE: Target[] = SURFACE.rest.all.flatMap((route) => {
  const methods = [...new Set(route.endpoints.flatMap((e) => e.methods))];
  let paths = [route.fullRoute];
  for (const [, name, pattern] of route.fullRoute.matchAll(/\(\?P<(\w+)>(.+?)\)(?=\/|$)/g)) {
    const values = URL_PARAM_VALUES[pattern as string];
    if (!values) throw new Error(`no fuzz values for ${name}'s pattern ${pattern} in ${route.fullRoute}`);
    paths = paths.flatMap((p) => values.map((v) => p.replace(`(?P<${name}>${pattern})`, v)));
  }
  return paths.map((p) => ({ kind: 'rest' as const, path: `/wp-json${p}`, methods }));
});
const EVERY_ACTION: Target[] = SURFACE.ajax.actionNames.map((action) => ({
  kind: 'ajax' as const, path: `/wp-admin/admin-ajax.php?action=${action}`, methods: ['POST', 'GET'],
}));

const BOUNDARY_CHARS = [...'abcXYZ0189\'()+_,-./:=?'];
const boundaryArb = fc.string({ unit: fc.constantFrom(...BOUNDARY_CHARS), minLength: 1, maxLength: 70 });

interface Part {
  name: string;
  filename: string | null;
  type: string | null;
  headers: string[];
  data: Buffer;
}

const partArb: fc.Arbitrary<Part> = fc.record({
  name: fc.oneof(nameArb, fc.constantFrom('action', 'form_id', 'item_meta[1]', '_wpnonce', 'a"b', '')),
  filename: fc.option(fc.oneof(fc.constantFrom('a.txt', '', '../../etc/passwd', 'é.png', 'a"b', 'C:\\x\\y.pdf', 'x'.repeat(300)), fc.string({ maxLength: 20 })), { freq: 3 }),
  type: fc.option(fc.constantFrom('text/plain', 'application/octet-stream', 'image/png', 'text/plain; charset=iso-8859-1', 'multipart/mixed; boundary=in', '', 'x'.repeat(300))),
  headers: fc.array(fc.oneof(
    fc.constantFrom('Content-Transfer-Encoding: base64', 'Content-Disposition: attachment', 'X-Empty:', ': no name', 'no colon at all', 'Content-Type'),
    fc.string({ maxLength: 40 }).map((s) => `X-Fuzz: ${s}`),
  ), { maxLength: 3 }),
  data: fc.oneof(
    fc.string({ maxLength: 100 }).map((s) => Buffer.from(s, 'utf8')),
    fc.uint8Array({ maxLength: 2_000 }).map((a) => Buffer.from(a)),
    fc.integer({ min: 10_000, max: 300_000 }).map((n) => Buffer.alloc(n, 0x61)),
  ),
}, { requiredKeys: ['name', 'filename', 'type', 'headers', 'data'] });

function multipartBytes(boundary: string, parts: Part[], close: boolean): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === null ? '' : `; filename="${part.filename}"`}`;
    const head = [`--${boundary}`, disposition, ...(part.type === null ? [] : [`Content-Type: ${part.type}`]), ...part.headers, '', ''].join('\r\n');
    chunks.push(Buffer.from(head, 'utf8'), part.data, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

type Mutation =
  | { op: 'none' } | { op: 'truncate'; at: number } | { op: 'lf-only' } | { op: 'insert'; at: number; bytes: Uint8Array }
  | { op: 'huge-part-header'; size: number } | { op: 'flip'; at: number[] };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ op: 'none' as const }) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ op: 'truncate' as const, at })) },
  { weight: 1, arbitrary: fc.constant({ op: 'lf-only' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('huge-part-header' as const), size: fc.constantFrom(1_000, 17_000, 100_000, 1_000_000) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('flip' as const), at: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }) }) },
);

function mutate(body: Buffer, m: Mutation, boundary: string): Buffer {
  const at = (f: number) => Math.min(body.length, Math.floor(f * body.length));
  switch (m.op) {
    case 'none': return body;
    case 'truncate': return body.subarray(0, at(m.at));
    case 'lf-only': return Buffer.from(body.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
    case 'insert': return Buffer.concat([body.subarray(0, at(m.at)), m.bytes, body.subarray(at(m.at))]);
    case 'huge-part-header': {
      const line = `--${boundary}\r\nX-Huge: ${'h'.repeat(m.size)}\r\n`;
      return Buffer.concat([Buffer.from(line), body.subarray(Buffer.byteLength(`--${boundary}\r\n`))]);
    }
    case 'flip': {
      const copy = Buffer.from(body);
      for (const f of m.at) if (copy.length) copy[Math.min(copy.length - 1, Math.floor(f * copy.length))] ^= 0x5a;
      return copy;
    }
  }
}

interface Body {
  bytes: Buffer;
  contentType: string | null;
}

/** Thousands of fields or more files than PHP's max_file_uploads (20), in one well-formed body. */
const manyPartsArb = fc.tuple(fc.integer({ min: 900, max: 2_500 }), fc.boolean(), boundaryArb).map(([n, files, boundary]): Body => {
  const parts: Part[] = Array.from({ length: files ? Math.ceil(n / 40) : n }, (_, i) => ({
    name: files ? `f${i}` : `v${i}`, filename: files ? `f${i}.txt` : null, type: null, headers: [], data: Buffer.from(String(i)),
  }));
  return { bytes: multipartBytes(boundary, parts, true), contentType: `multipart/form-data; boundary=${boundary}` };
});

const multipartArb = fc.record({
  boundary: boundaryArb,
  parts: fc.array(partArb, { maxLength: 8 }),
  close: fc.boolean(),
  mutation: mutationArb,
  declared: fc.oneof(
    { weight: 6, arbitrary: fc.constant('same') },
    { weight: 1, arbitrary: fc.constantFrom('quoted', 'none', 'empty', 'other', 'charset-first', 'upper') },
  ),
}).map(({ boundary, parts, close, mutation, declared }): Body => {
  const bytes = mutate(multipartBytes(boundary, parts, close), mutation, boundary);
  const types: Record<string, string> = {
    same: `multipart/form-data; boundary=${boundary}`, quoted: `multipart/form-data; boundary="${boundary}"`,
    none: 'multipart/form-data', empty: 'multipart/form-data; boundary=', other: 'multipart/form-data; boundary=not-the-one',
    'charset-first': `multipart/form-data; charset=utf-8; boundary=${boundary}`, upper: `MULTIPART/FORM-DATA; BOUNDARY=${boundary}`,
  };
  return { bytes, contentType: types[declared] as string };
});

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=iso-8859-1', 'application/json',
  'application/json; charset=utf-16', 'application/vnd.api+json', 'text/plain', 'application/octet-stream', 'multipart/form-data',
  'multipart/form-data; boundary="unterminated', 'multipart/mixed; boundary=x', 'multipart/form-data; boundary=x; boundary=y',
  '/', ';', 'application/', 'json', 'APPLICATION/JSON', ' application/x-www-form-urlencoded ',
];

/** Any header value the HTTP client can send: printable ASCII and Latin-1 (no control characters). */
const headerText = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength: 80 });
const contentTypeArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerText });

const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  { weight: 5, arbitrary: multipartArb },
  { weight: 1, arbitrary: manyPartsArb },
  { weight: 3, arbitrary: queryText.map((t): Body => ({ bytes: Buffer.from(t, 'utf8'), contentType: 'application/x-www-form-urlencoded' })) },
  { weight: 2, arbitrary: jsonBytes.map((bytes): Body => ({ bytes, contentType: 'application/json' })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4_000 }).map((a): Body => ({ bytes: Buffer.from(a), contentType: null })) },
);

const requestArb: fc.Arbitrary<FuzzRequest> = fc.record({
  target: fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...TARGETS) }, { weight: 1, arbitrary: fc.constantFrom(...EVERY_ROUTE, ...EVERY_ACTION) }),
  // Now and then a query string of its own, decoded as PHP would: arguments, `rest_route`, brackets.
  query: fc.option(queryText, { freq: 3 }),
  method: fc.nat(),
  body: bodyArb,
  // Most bodies keep the type they were built for; the rest are sent with another, or with none.
  retype: fc.oneof(
    { weight: 4, arbitrary: fc.constant('keep' as const) },
    { weight: 1, arbitrary: contentTypeArb },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  // Now and then a method override, a nonce or cookies (none of them signs anyone in).
  extra: fc.oneof(
    { weight: 5, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.record({ 'X-HTTP-Method-Override': fc.constantFrom('PUT', 'DELETE', 'GET', 'BOGUS'), 'X-WP-Nonce': headerText, Cookie: headerText }, { requiredKeys: [] }) },
  ),
}).map(({ target, query, method, body, retype, extra }) => {
  const contentType = retype === 'keep' ? body.contentType : retype;
  const headers: Record<string, string> = { ...extra };
  if (contentType !== null) headers['Content-Type'] = contentType;
  const path = query === null ? target.path : `${target.path}${target.path.includes('?') ? '&' : '?'}${urlSafe(query)}`;
  const request = { method: target.methods[method % target.methods.length] as string, path, headers, body: body.bytes };
  return shown(request, requestText(request));
});

/**
 * A query text as a request line can carry it: its UTF-8 bytes, those outside printable ASCII (and
 * `#`) percent-encoded, broken escapes left as they are; cut to 4 KB, within Node's header limit.
 */
function urlSafe(text: string): string {
  const bytes = Buffer.from(text, 'utf8').subarray(0, 4_096);
  return [...bytes].map((b) => (b > 0x20 && b < 0x7f && b !== 0x23 ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

// ---------------------------------------------------------------------------------------------
// What every answer must be
// ---------------------------------------------------------------------------------------------

function assertAnswered(request: FuzzRequest, outcome: FuzzOutcome): void {
  const what = explain(request, outcome);
  assert.equal(outcome.kind, 'answer', what);
  if (outcome.kind !== 'answer') return;
  assert.ok(outcome.status < 500, what);
  const text = outcome.body.toString('utf8');
  if (request.path.startsWith('/wp-admin/admin-ajax.php')) {
    if (text === '0' || text === '-1') return;
    let json: any;
    assert.doesNotThrow(() => { json = JSON.parse(text); }, `admin-ajax answered neither 0, -1 nor JSON: ${what}`);
    // Besides the body's: the query's (`action` among them).
    if (json?.success === true && json.data?.params) assertEchoWithinLimits(request, json.data.params, 0);
    return;
  }
  // WP: an empty `rest_route` ('' or '0') makes no REST request at all: the front end's 404 answers.
  const routed = parsePhpQuery(request.path.split('?').slice(1).join('?')).rest_route;
  if (routed === '' || routed === '0') return assert.equal(outcome.status, 404, what);
  assert.equal(outcome.headers['content-type'], 'application/json; charset=UTF-8', what);
  let json: any;
  assert.doesNotThrow(() => { json = JSON.parse(text); }, `not JSON: ${what}`);
  if (outcome.status >= 400) {
    assert.equal(typeof json.code, 'string', what);
    assert.equal(typeof json.message, 'string', what);
    assert.equal(json.data?.status, outcome.status, what);
  } else if (json?.params && request.path.includes('/test/v1/echo/')) {
    // Besides the body's: the URL's `slot`, and the query's (`rest_route` among them).
    assertEchoWithinLimits(request, json.params, 1);
  }
}

/**
 * The parameters a route was given from a form or multipart body: PHP's limits hold (JSON bodies may
 * nest to 512). Besides the body's, a route may hold the query's variables and `fromPath` of its URL.
 */
function assertEchoWithinLimits(request: FuzzRequest, decoded: Record<string, unknown>, fromPath: number): void {
  if (isJsonContentType(request.headers['Content-Type'])) return;
  const fromElsewhere = fromPath + Object.keys(parsePhpQuery(request.path.split('?').slice(1).join('?'))).length;
  const what = explain(request, { kind: 'answer', status: 200, headers: {}, body: Buffer.from(JSON.stringify(decoded).slice(0, 300)) });
  assert.ok(depth(decoded) <= MAX_INPUT_NESTING_LEVEL + 1, `nested ${depth(decoded)} levels: ${what}`);
  assert.ok(Object.keys(decoded).length <= FORM_BODY_COUNT.maxVars + fromElsewhere, `${Object.keys(decoded).length} parameters: ${what}`);
}
