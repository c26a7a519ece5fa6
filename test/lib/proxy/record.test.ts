/**
 * Recording through the proxy, end to end: a real upstream on loopback (a small HTTP server standing
 * in for PHP, which hands the plugins' routes to Understudy over the oracle site) behind the proxy
 * with --record; the recording holds none of the secrets sent, names identities by placeholders,
 * and `understudy replay <dir>` against Understudy, with each identity mapped, finds 0 differences.
 * Then a burst of 10,000 exchanges: files rotated, disk bounded, every exchange recorded or counted.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildSurface } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { Recorder } from '../../../lib/proxy/record/recorder';
import { SHADOW_DEFAULTS, createRouting } from '../../../lib/proxy/routing';
import { Proxy, createProxy } from '../../../lib/proxy/server';
import { parseCapture } from '../../../lib/replay/capture';
import { compileRules } from '../../../lib/replay/rules';
import { cli } from '../../cli/cli-harness';
import { Listening, listen, rawRequest } from '../../harness/http';
import { OracleSite, credentials, openOracle } from '../../harness/oracle';

const AGENT = credentials.application_passwords.agent1;
const CUSTOMER = credentials.application_passwords.customer1;
const SECRETS = {
  siteKey: 'site-key-SECRET-5f2a9c11',
  portal: 'portal-session-SECRET-77aa01',
  chat: 'chat-token-SECRET-c0ffee42',
  mailbox: 'mailbox-token-SECRET-9911ab',
  signature: 'v1=0f0e0d0c0b0a09080706050403020100ffeeddccbbaa',
  bearer: 'bearer-SECRET-3b3b3b3b3b',
  cookie: 'agent1%7C1796000000%7CcookieTOKENsecret123%7Chmacsecret456',
  restNonce: 'a1b2c3d4e5',
  pageNonce: '0f9e8d7c6b',
  loginPassword: 'Login-Password-SECRET-42',
};

describe('proxy --record', () => {
  let oracle: OracleSite;
  let php: Listening;
  let target: Listening;
  let dir: string;

  before(async () => {
    oracle = await openOracle();
    // The PHP site: the plugins' REST routes answered by Understudy over the oracle, pages by itself.
    php = await listen((req, res) => {
      if (req.url?.startsWith('/wp-json/')) return void oracle.app(req, res);
      req.resume().on('end', () => res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' }).end(`<p>page ${req.url}</p>`));
    });
    target = await listen(oracle.app);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-record-'));
  });
  after(async () => {
    await php.close();
    await target.close();
    await oracle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function throughProxy(recorder: Recorder, send: (url: string) => Promise<void>): Promise<Proxy> {
    const proxy = createProxy({
      upstream: php.url, understudy: oracle.app, surface: buildSurface(), logger: memoryLogger(), rules: compileRules({}), recorder,
      routing: { shadow: SHADOW_DEFAULTS, decide: () => 'pass' },
    });
    const front = await listen(proxy.handler);
    try {
      await send(front.url);
    } finally {
      await front.close();
      await proxy.close(0);
      await recorder.close();
    }
    return proxy;
  }

  it('records without a secret, and replays against Understudy with identities mapped: 0 differences', async () => {
    const recording = path.join(dir, 'live');
    const progress: string[] = [];
    const recorder = new Recorder({ dir: recording, progress: { write: (t: string) => progress.push(t) } });
    const requests: Array<{ method?: string; path: string; headers?: string[]; body?: string }> = [
      { path: '/wp-json/support/v1/tickets?per_page=3', headers: ['Authorization', AGENT.basic_auth_header] },
      { path: '/wp-json/wp/v2/users/me', headers: ['Authorization', CUSTOMER.basic_auth_header] },
      { path: '/wp-json/support/v1/tickets', headers: ['X-Svc-Key', SECRETS.siteKey] },
      { path: '/wp-json/support/v1/tickets', headers: ['X-Svc-Portal', SECRETS.portal, 'X-Chat-Token', SECRETS.chat] },
      { path: '/wp-json/support/v1/tickets', headers: ['X-Svc-Token', SECRETS.mailbox, 'X-Svc-Signature', SECRETS.signature] },
      { path: '/wp-json/support/v1/tickets', headers: ['Authorization', `Bearer ${SECRETS.bearer}`] },
      { path: '/wp-json/wp/v2/users/me', headers: ['Cookie', `wordpress_logged_in_0123abcd=${SECRETS.cookie}; theme=dark`, 'X-WP-Nonce', SECRETS.restNonce] },
      { path: `/blog/?_wpnonce=${SECRETS.pageNonce}` },
      {
        method: 'POST', path: '/wp-login.php', headers: ['Content-Type', 'application/x-www-form-urlencoded'],
        body: `log=agent1&pwd=${encodeURIComponent(SECRETS.loginPassword)}`,
      },
      // The same agent again: the same placeholder.
      { path: '/wp-json/support/v1/tickets?per_page=1', headers: ['Authorization', AGENT.basic_auth_header] },
    ];
    await throughProxy(recorder, async (url) => {
      for (const r of requests) await rawRequest(url, r);
    });
    assert.deepEqual(recorder.counters, { recorded: requests.length, dropped: 0, truncated: 0, files: 1, bytes: recorder.counters.bytes });
    assert.match(progress.join(''), /recording: 10 exchanges, [\d.]+ MiB in 1 file, 0 dropped, 0 cut\n$/);

    const files = fs.readdirSync(recording).map((f) => path.join(recording, f));
    const text = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    const agentDecoded = Buffer.from(AGENT.basic_auth_header.slice(6), 'base64').toString();
    const sent = [
      ...Object.values(SECRETS), decodeURIComponent(SECRETS.cookie), 'cookieTOKENsecret123', 'hmacsecret456', encodeURIComponent(SECRETS.loginPassword),
      AGENT.basic_auth_header.slice(6), AGENT.password, AGENT.password_chunked, agentDecoded,
      CUSTOMER.basic_auth_header.slice(6), CUSTOMER.password, CUSTOMER.password_chunked,
    ];
    for (const secret of sent) assert.ok(!text.includes(secret), `the recording holds a secret (${secret.slice(0, 4)}…)`);
    for (const placeholder of ['<basic:agent1>', '<basic:customer1>', '<site-key:1>', '<portal:1>', '<chat:1>', '<mailbox:1>', '<signature:1>', '<bearer:1>', '<cookie:user agent1>', '<nonce:1>', '<nonce:2>']) {
      assert.ok(text.includes(placeholder), `placeholder ${placeholder}`);
    }
    assert.equal(text.split('<basic:agent1>').length - 1, 2, 'one identity, one placeholder');
    assert.equal(parseCapture(fs.readFileSync(files[0] as string, 'utf8')).length, requests.length, 'valid HAR');

    const rules = path.join(dir, 'rules.json');
    fs.writeFileSync(rules, JSON.stringify({ exclude: ['page:**'] }));
    const identity = (placeholder: string, value: string) => `--credential=identity:${placeholder}=>${value}`;
    const customerDecoded = Buffer.from(CUSTOMER.basic_auth_header.slice(6), 'base64').toString();
    const replay = await cli([
      'replay', recording, `--target=${target.url}`, `--rules=${rules}`, '--json',
      identity('<basic:agent1>', agentDecoded), identity('<basic:customer1>', customerDecoded),
      identity('<site-key:1>', SECRETS.siteKey), identity('<portal:1>', SECRETS.portal), identity('<chat:1>', SECRETS.chat),
      identity('<mailbox:1>', SECRETS.mailbox), identity('<signature:1>', SECRETS.signature), identity('<bearer:1>', SECRETS.bearer),
      identity('<cookie:user agent1>', SECRETS.cookie), identity('<nonce:1>', SECRETS.restNonce),
    ], {});
    const report = JSON.parse(replay.stdout);
    assert.deepEqual(report.totals, { exchanges: 10, matched: 8, differed: 0, failed: 0, excluded: 2 }, JSON.stringify(report.results.filter((r: { outcome: string }) => r.outcome !== 'matched'), null, 1));
    assert.equal(replay.status, 0);
    assert.equal(report.results[0].actualStatus, 200, 'agent1 signed in on the target');
  });

  it('records only the routes in record mode when the routing file names some, plus --record-routes', async () => {
    const surface = buildSurface();
    const routing = createRouting({ routes: { '/wp/v2/users/me': 'record' } }, surface);
    const recording = path.join(dir, 'marked');
    const recorder = new Recorder({ dir: recording, routes: ['page:/blog/**'] });
    const proxy = createProxy({ upstream: php.url, understudy: oracle.app, surface, logger: memoryLogger(), rules: compileRules({}), recorder, routing });
    const front = await listen(proxy.handler);
    try {
      for (const p of ['/wp-json/wp/v2/users/me', '/wp-json/wp/v2/posts', '/blog/one/', '/shop/']) await rawRequest(front.url, { path: p });
    } finally {
      await front.close();
      await proxy.close(0);
      await recorder.close();
    }
    const recorded = parseCapture(fs.readFileSync(recorder.recordedFiles[0] as string, 'utf8'));
    assert.deepEqual(recorded.map((e) => new URL(e.request.url).pathname), ['/wp-json/wp/v2/users/me', '/blog/one/']);
    assert.equal(recorded[0]?.response.status, 401, 'the PHP site answered it');
  });

  it('keeps answering when the recording cannot be written, and says so', async () => {
    const recording = path.join(dir, 'gone');
    const progress: string[] = [];
    const recorder = new Recorder({ dir: recording, progress: { write: (t: string) => progress.push(t) } });
    // The folder disappears and a file takes its name: every file the recorder opens fails.
    fs.rmSync(recording, { recursive: true });
    fs.writeFileSync(recording, 'not a folder');
    const statuses: number[] = [];
    await throughProxy(recorder, async (url) => {
      for (let i = 0; i < 3; i++) {
        statuses.push((await rawRequest(url, { path: `/blog/${i}/` })).status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    assert.deepEqual(statuses, [200, 200, 200]);
    assert.match(progress.join(''), /, [1-3] not written \(ENOTDIR[^)]*\)\n$/);
  });

  it('cuts a body over the cap and marks it not comparable; replay leaves it out', async () => {
    const recording = path.join(dir, 'cut');
    const recorder = new Recorder({ dir: recording, maxBodyBytes: 64 });
    await throughProxy(recorder, async (url) => {
      await rawRequest(url, { method: 'POST', path: '/contact/', headers: ['Content-Type', 'text/plain'], body: 'x'.repeat(1000) });
    });
    assert.equal(recorder.counters.truncated, 1);
    const [exchange] = parseCapture(fs.readFileSync(recorder.recordedFiles[0] as string, 'utf8'));
    // Cut, the body could hold half a secret no rule recognises: only its size and type are kept.
    assert.equal(exchange?.request.body, '<not recorded: 64+ bytes of text/plain>');
    assert.equal(exchange?.notComparable, 'request body over 64 bytes, recorded cut');
    const replay = JSON.parse((await cli(['replay', recording, `--target=${target.url}`, '--json'], {})).stdout);
    assert.deepEqual(replay.totals, { exchanges: 1, matched: 0, differed: 0, failed: 0, excluded: 1 });
    assert.match(replay.results[0].error, /^not comparable: request body over 64 bytes/);
  });

  it('rotates files and bounds the disk under a burst of 10,000 exchanges, each recorded or counted as dropped', async function () {
    this.timeout(120_000);
    const recording = path.join(dir, 'burst');
    const limits = { maxFileBytes: 256 * 1024, maxFiles: 4, maxEntries: 1_000 };
    const recorder = new Recorder({ dir: recording, ...limits });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    let ok = 0;
    await throughProxy(recorder, async (url) => {
      const { port } = new URL(url);
      const one = (i: number) => new Promise<void>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: `/burst/${i}`, agent }, (res) => {
          res.resume().on('end', () => { if (res.statusCode === 200) ok++; resolve(); });
        }).on('error', reject);
      });
      for (let start = 0; start < 10_000; start += 200) await Promise.all(Array.from({ length: 200 }, (_, k) => one(start + k)));
    });
    agent.destroy();
    assert.equal(ok, 10_000, 'every client answered');
    assert.equal(recorder.counters.recorded + recorder.counters.dropped, 10_000);
    const files = fs.readdirSync(recording).sort();
    assert.ok(files.length <= limits.maxFiles, `${files.length} files`);
    let entries = 0;
    for (const file of files) {
      const text = fs.readFileSync(path.join(recording, file), 'utf8');
      assert.ok(Buffer.byteLength(text) <= limits.maxFileBytes, `${file} is ${Buffer.byteLength(text)} bytes`);
      const exchanges = parseCapture(text);
      assert.ok(exchanges.length <= limits.maxEntries);
      entries += exchanges.length;
    }
    assert.ok(entries < recorder.counters.recorded, 'the oldest files were deleted to stay within the bound');
    const newest = parseCapture(fs.readFileSync(path.join(recording, files.at(-1) as string), 'utf8'));
    assert.ok(newest.some((e) => Number(new URL(e.request.url).pathname.split('/')[2]) >= 9_800), 'the newest exchanges are kept');
  });
});
