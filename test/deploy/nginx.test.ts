/**
 * `understudy nginx` in front of the real thing: Debian's nginx terminating TLS (a certificate made
 * here) on loopback, configured with the generated parts plus a site's own catch-all to PHP; behind
 * it `understudy proxy` (trusting nginx's address) over the oracle as a production site, and a
 * stand-in PHP upstream. Visitors connect from 127.0.0.2 and 127.0.0.3 so nginx sees two addresses.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { buildSurface } from '../../lib/app';
import { parseCommandArgs } from '../../lib/cli/args';
import { CliContext } from '../../lib/cli/context';
import { PROXY_HTTP_LIMITS } from '../../lib/cli/http-server';
import { RunningProxy, startProxy } from '../../lib/cli/proxy';
import { RUNTIME_FLAGS, loadRuntimeOptions } from '../../lib/cli/runtime-options';
import { memoryLogger } from '../../lib/logger';
import { nginxConfig } from '../../lib/proxy/nginx';
import { createRouting } from '../../lib/proxy/routing';
import { createConnectedSite } from '../../lib/support/sites/admin';
import { capture, cli, scratchDir } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { loadOracleInto, oracleConfig } from '../harness/oracle';
import { RunningNginx, nginxBinary, startNginx, visit } from './nginx-harness';
import { basicAuth, lastAppPasswordIp } from './production-site';

const binary = nginxBinary();

describe(`understudy nginx behind real nginx with TLS${binary ? '' : ' (skipped: no nginx binary; CI installs Debian\'s nginx)'}`, function () {
  let scratch: ScratchDatabase;
  let php: http.Server;
  let phpHits: Array<{ method: string; url: string; forwardedFor?: string; body: string }>;
  let phpHeaders: http.IncomingHttpHeaders[];
  let understudy: RunningProxy;
  let nginx: RunningNginx;
  let siteId: string;
  const SHOP = 'https://shop.example';

  before(async function () {
    if (!binary) return this.skip();
    scratch = await scratchDatabase();
    await loadOracleInto(scratch);
    phpHits = [];
    phpHeaders = [];
    php = http.createServer((req, res) => {
      phpHeaders.push(req.headers);
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        phpHits.push({ method: req.method ?? '', url: req.url ?? '', forwardedFor: req.headers['x-forwarded-for'] as string | undefined, body });
        res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Served-By': 'php' }).end(`php: ${req.method} ${req.url}`);
      });
    });
    await new Promise<void>((resolve) => php.listen(0, '127.0.0.1', resolve));
    const ctx: CliContext = { env: {}, cwd: scratchDir(), stdout: capture(), stderr: capture() };
    const runtime = loadRuntimeOptions(ctx, parseCommandArgs(['--trusted-proxies=127.0.0.1'], RUNTIME_FLAGS));
    understudy = await startProxy(
      ctx, { ...oracleConfig(scratch), environmentType: 'production' }, { host: '127.0.0.1', port: 0 }, PROXY_HTTP_LIMITS,
      { upstream: `http://127.0.0.1:${(php.address() as AddressInfo).port}`, preserveHost: true }, memoryLogger(), runtime,
    );
    siteId = (await createConnectedSite(understudy.site, { name: 'Shop', origins: [SHOP] })).site.siteId;
    const surface = buildSurface();
    const parts = nginxConfig(surface, createRouting({}, surface), { understudy: new URL(understudy.url).host, routesLabel: 'the defaults' });
    const phpPort = (php.address() as AddressInfo).port;
    const site = [
      '# The site\'s own locations: everything else is PHP (a stand-in HTTP server here, PHP-FPM in life).',
      'location / {',
      `    proxy_pass http://127.0.0.1:${phpPort};`,
      '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      '}',
      'location ~ \\.php$ {',
      `    proxy_pass http://127.0.0.1:${phpPort};`,
      '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      '}',
    ].join('\n');
    nginx = await startNginx(binary, { ...parts, site });
  });

  after(async () => {
    await nginx?.stop();
    await understudy?.close();
    if (php) await new Promise((resolve) => php.close(resolve));
    await scratch?.drop();
  });

  beforeEach(() => {
    phpHits.length = 0;
    phpHeaders.length = 0;
  });

  it('sends Understudy\'s REST routes to Understudy, which sees HTTPS (application passwords work in production)', async () => {
    const res = await visit(nginx, '/wp-json/support/v1/tickets?per_page=3', { headers: { Authorization: basicAuth('agent1') } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().length, 3);
    assert.ok(Number(res.headers['x-wp-total']) > 0);
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f]{32}$/, 'nginx\'s $request_id, honoured and returned');
    assert.deepEqual(phpHits, []);
  });

  it('routes the ?rest_route= form (plain and encoded, any path) exactly as the pretty one', async () => {
    const pretty = await visit(nginx, '/wp-json/support/v1/tickets?per_page=2&page=2', { headers: { Authorization: basicAuth('agent1') } });
    for (const form of ['/?rest_route=/support/v1/tickets&per_page=2&page=2', '/index.php?rest_route=%2Fsupport%2Fv1%2Ftickets&per_page=2&page=2', '/blog/?per_page=2&rest_route=/support/v1/tickets&page=2']) {
      const res = await visit(nginx, form, { headers: { Authorization: basicAuth('agent1') } });
      assert.equal(res.status, 200, `${form}: ${res.text}`);
      assert.deepEqual(res.json(), pretty.json(), form);
      assert.equal(res.headers['x-wp-total'], pretty.headers['x-wp-total']);
    }
    assert.deepEqual(phpHits, []);
  });

  it('sends every spelling of rest_route WordPress reads to Understudy: percent-encoded, repeated, rest_route[], in a POST body', async () => {
    const auth = { Authorization: basicAuth('agent1') };
    const pretty = await visit(nginx, '/wp-json/support/v1/tickets?per_page=2', { headers: auth });
    const spellings: Array<[string, Parameters<typeof visit>[2]]> = [
      ['/?rest_route=/%73upport/v1/tickets&per_page=2', { headers: auth }],
      ['/?%72est%5Froute=/support/v1/tickets&per_page=2', { headers: auth }],
      ['/?rest.route=/support/v1/tickets&per_page=2', { headers: auth }],
      ['/?rest_route=/wp/v2/posts&rest_route=/support/v1/tickets&per_page=2', { headers: auth }],
      ['/wp-js%6Fn/%2573upport/v1/tickets?per_page=2', { headers: auth }],
      ['/wp-json/wp/v2/posts&rest_route=/support/v1/tickets?per_page=2', { headers: auth }],
    ];
    for (const [url, options] of spellings) {
      const res = await visit(nginx, url, options);
      assert.equal(res.status, 200, `${url}: ${res.text}`);
      assert.deepEqual(res.json(), pretty.json(), url);
    }
    const array = await visit(nginx, '/?rest_route[]=/support/v1/tickets');
    assert.equal(array.status, 400, array.text);
    assert.equal(array.json().code, 'rest_path_invalid_type');
    // The body's rest_route wins over the path (WordPress reads $_POST first), on any front-controller path.
    for (const path of ['/', '/wp-json/wp/v2/posts', '/some/page/']) {
      const posted = await visit(nginx, path, {
        method: 'POST', headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'rest_route=%2Fsupport%2Fv1%2Ftickets',
      });
      // POST /support/v1/tickets without its arguments: Understudy's route refuses it, creating nothing.
      assert.equal(posted.status, 400, `${path}: ${posted.text}`);
      assert.equal(posted.json().code, 'rest_missing_callback_param', path);
    }
    assert.deepEqual(phpHits, []);
  });

  it('still hands PHP the POSTs and rest_route spellings that are not Understudy\'s, body and all', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    await visit(nginx, '/contact/', { method: 'POST', headers: form, body: 'name=V&rest_route=' });
    await visit(nginx, '/?rest_route=/wp/v2/posts');
    await visit(nginx, '/wp-login.php', { method: 'POST', headers: form, body: 'log=a&pwd=b&rest_route=/support/v1/tickets' });
    assert.deepEqual(phpHits.map((h) => [h.method, h.url, h.body]), [
      ['POST', '/contact/', 'name=V&rest_route='],
      ['GET', '/?rest_route=/wp/v2/posts', ''],
      ['POST', '/wp-login.php', 'log=a&pwd=b&rest_route=/support/v1/tickets'],
    ]);
  });

  it('passes PHP the forwarding headers nginx writes, and none a visitor wrote to the proxy directly', async () => {
    const forged = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example', Forwarded: 'for=6.6.6.6;proto=https', 'X-Forwarded-For': '6.6.6.6' };
    const viaNginx = await visit(nginx, '/wp-admin/admin-ajax.php', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...forged }, body: 'action=heartbeat' });
    assert.equal(viaNginx.headers['x-served-by'], 'php');
    assert.equal(phpHeaders[0]?.['x-forwarded-proto'], 'https', 'nginx terminated TLS and said so; the proxy trusts it');
    assert.equal(phpHeaders[0]?.['x-forwarded-host'], 'localhost', 'nginx\'s $host');
    assert.equal(phpHeaders[0]?.['x-forwarded-for'], '6.6.6.6, 127.0.0.2, 127.0.0.1', 'the chain as each hop appended it');
    assert.equal(phpHeaders[0]?.forwarded, undefined, 'nginx clears the visitor\'s Forwarded');
    phpHeaders.length = 0;
    // A visitor reaching the proxy's port itself (127.0.0.2 is no trusted proxy) cannot speak for it.
    const direct = await plainVisit(`${understudy.url}/about/`, forged, '127.0.0.2');
    assert.equal(direct, 'php: GET /about/');
    const proxyHost = new URL(understudy.url).host;
    assert.deepEqual(
      ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-for', 'forwarded'].map((name) => phpHeaders[0]?.[name]),
      ['http', proxyHost, '127.0.0.2', undefined],
    );
  });

  it('leaves everything else to PHP: WordPress core routes (both forms), pages, other PHP files', async () => {
    for (const url of ['/wp-json/wp/v2/posts', '/?rest_route=/wp/v2/posts', '/wp-json/', '/about/', '/wp-login.php', '/wp-json/support/v10']) {
      const res = await visit(nginx, url);
      assert.equal(res.headers['x-served-by'], 'php', url);
      assert.equal(res.text, `php: GET ${url}`);
    }
    assert.equal(phpHits.length, 6);
  });

  it('sends all of admin-ajax.php to Understudy\'s proxy: its actions answered there, others passed on to PHP with the body and the visitor', async () => {
    const own = await visit(nginx, '/wp-admin/admin-ajax.php', {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=frm_form_submit&form_id=999999',
    });
    // The form service's own answer for a form it does not have (PHP's stand-in would say "php: …").
    assert.equal(own.status, 404, own.text);
    assert.deepEqual(own.json(), { message: { type: 'error', text: 'This form is not available.' } });
    assert.deepEqual(phpHits, []);
    const other = await visit(nginx, '/wp-admin/admin-ajax.php', {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=heartbeat&data=1', from: '127.0.0.3',
    });
    assert.equal(other.headers['x-served-by'], 'php');
    assert.deepEqual(phpHits, [{ method: 'POST', url: '/wp-admin/admin-ajax.php', forwardedFor: '127.0.0.3, 127.0.0.1', body: 'action=heartbeat&data=1' }]);
  });

  it('refuses to write a configuration a --understudy or routing file name could inject directives into', async () => {
    for (const understudy of ['unix:/run/u.sock;}location / {return 200;}', '127.0.0.1:8080\nserver 6.6.6.6:80', 'unix:/run/u sock']) {
      const out = await cli(['nginx', `--understudy=${understudy}`], {});
      assert.equal(out.status, 1, understudy);
      assert.match(out.stderr, /^Error: --understudy must be host:port/);
      assert.equal(out.stdout, '');
    }
    const named = await cli(['nginx', '--routes=routes.json\n}\nlocation / {'], {});
    assert.equal(named.status, 1);
    assert.match(named.stderr, /^Error: --routes cannot name a file with control characters/);
    const unix = await cli(['nginx', '--understudy=unix:/run/understudy.sock', '--part=http'], {});
    assert.match(unix.stdout, /server "unix:\/run\/understudy\.sock";/);
  });

  it('Understudy records the visitor\'s address, not nginx\'s, even with a forged X-Forwarded-For', async () => {
    const mine = await visit(nginx, '/wp-json/support/v1/tickets?per_page=1', { headers: { Authorization: basicAuth('admin'), 'X-Forwarded-For': '6.6.6.6' }, from: '127.0.0.3' });
    assert.equal(mine.status, 200, mine.text);
    assert.equal(await lastAppPasswordIp(understudy.site, 1), '127.0.0.3');
  });

  it('gives two visitors behind nginx separate per-address limits, which a forged X-Forwarded-For does not escape', async () => {
    const ticket = (from: string, headers: Record<string, string> = {}) => visit(nginx, `/wp-json/support/v1/sites/${siteId}/tickets`, {
      method: 'POST', from, headers: { 'Content-Type': 'application/json', Origin: SHOP, ...headers },
      body: JSON.stringify({ email: 'v@example.net', name: 'V', subject: 'Hello', message: 'A question.' }),
    });
    for (let i = 0; i < 10; i++) assert.equal((await ticket('127.0.0.4')).status, 201);
    const refused = await ticket('127.0.0.4');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.json().code, 'rest_too_many_requests');
    assert.equal((await ticket('127.0.0.4', { 'X-Forwarded-For': '203.0.113.77' })).status, 429);
    assert.equal((await ticket('127.0.0.5')).status, 201);
  });
});

/** A plain HTTP GET from a loopback address of the caller's choosing; the body as text. */
function plainVisit(url: string, headers: Record<string, string>, from: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve(text));
    }).on('error', reject);
  });
}
