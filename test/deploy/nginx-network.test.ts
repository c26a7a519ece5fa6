/**
 * `understudy nginx --network` in front of the real thing: Debian's nginx with the configuration
 * printed for a subdirectory network (read from WordPress's network tables, SQLite or MariaDB), inside
 * a server block that also holds WordPress's own nginx rules for such networks (the rewrite of
 * `/<site>/wp-…` to `/wp-…`), a stand-in Understudy and a stand-in PHP recording what reaches them.
 * Every site's REST routes and admin-ajax.php reach Understudy with the site's path as the visitor
 * sent it; the rest of each site, and hosts that are no site's, do not.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { cli, envFor } from '../cli/cli-harness';
import { ScratchDatabase, dialect, scratchDatabase } from '../harness/db';
import { createNetworkTables, insertBlog, insertNetwork } from '../harness/network-tables';
import { RunningNginx, nginxBinary, startNginx, visit } from './nginx-harness';

const binary = nginxBinary();

interface Hit { method: string; url: string; host?: string; body: string }

/** An HTTP server that answers `<name>: <method> <url>` and records each request. */
async function standIn(name: string, hits: Hit[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host, body });
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Served-By': name }).end(`${name}: ${req.method} ${req.url}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

describe(`understudy nginx --network behind real nginx${binary ? '' : ' (skipped: no nginx binary; CI installs Debian\'s nginx)'}`, function () {
  let scratch: ScratchDatabase;
  let nginx: RunningNginx;
  let understudy: http.Server;
  let php: http.Server;
  const understudyHits: Hit[] = [];
  const phpHits: Hit[] = [];

  before(async function () {
    if (!binary) return this.skip();
    scratch = await scratchDatabase();
    const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      await createNetworkTables(db.knex, 'wp_', dialect);
      await insertNetwork(db.knex, 'wp_', { id: 1, domain: 'example.test', path: '/' });
      await insertBlog(db.knex, 'wp_', { blogId: 1, domain: 'example.test', path: '/' });
      await insertBlog(db.knex, 'wp_', { blogId: 2, domain: 'example.test', path: '/two/' });
      await insertBlog(db.knex, 'wp_', { blogId: 3, domain: 'mapped.test', path: '/' });
    } finally {
      await db.close();
    }
    understudy = await standIn('understudy', understudyHits);
    php = await standIn('php', phpHits);
    const env = envFor(scratch.target, { MULTISITE: '1', DOMAIN_CURRENT_SITE: 'example.test', PATH_CURRENT_SITE: '/' });
    const part = async (name: string) => {
      const run = await cli(['nginx', '--network', `--understudy=127.0.0.1:${portOf(understudy)}`, `--part=${name}`], env);
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    // PHP-FPM is handed REQUEST_URI=$request_uri; the stand-in gets the same URI as its path.
    const toPhp = `proxy_pass http://127.0.0.1:${portOf(php)}$request_uri;`;
    const site = [
      '# WordPress\'s nginx rules for a subdirectory network, then everything to PHP.',
      'if (!-e $request_filename) {',
      '    rewrite /wp-admin$ $scheme://$host$uri/ permanent;',
      '    rewrite ^(/[^/]+)?(/wp-.*) $2 last;',
      '    rewrite ^(/[^/]+)?(/.*\\.php) $2 last;',
      '}',
      `location / { ${toPhp} }`,
      `location ~ \\.php$ { ${toPhp} }`,
    ].join('\n');
    nginx = await startNginx(binary, { http: await part('http'), server: await part('server'), site, fallback: 'return 421;' });
  });

  after(async () => {
    await nginx?.stop();
    for (const server of [understudy, php]) if (server) await new Promise((resolve) => server.close(resolve));
    await scratch?.drop();
  });

  beforeEach(() => {
    understudyHits.length = 0;
    phpHits.length = 0;
  });

  const on = (host: string) => ({ headers: { Host: host } });

  it('sends every site\'s REST routes to Understudy with the site\'s path and host as the visitor sent them', async () => {
    const urls = [
      ['example.test', '/two/wp-json/support/v1/tickets?per_page=2'],
      ['example.test', '/two/index.php/wp-json/frm/v2/forms'],
      ['example.test', '/wp-json/support/v1/tickets'],
      ['mapped.test', '/wp-json/support/v1/tickets'],
      ['example.test', '/two/?rest_route=/support/v1/tickets'],
      ['example.test', '/two/wp-json/wp/v2/posts&rest_route=/support/v1/tickets'],
    ];
    for (const [host, url] of urls) {
      const res = await visit(nginx, url as string, on(host as string));
      assert.equal(res.headers['x-served-by'], 'understudy', `${host}${url}: ${res.status} ${res.text}`);
    }
    assert.deepEqual(understudyHits.map((h) => `${h.host}${h.url}`), urls.map(([host, url]) => `${host}${url}`));
    assert.deepEqual(phpHits, []);
  });

  it('sends every site\'s admin-ajax.php to Understudy, body and all', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const url of ['/two/wp-admin/admin-ajax.php', '/wp-admin/admin-ajax.php']) {
      const res = await visit(nginx, url, { method: 'POST', headers: { Host: 'example.test', ...form }, body: 'action=frm_form_submit&form_id=1' });
      assert.equal(res.headers['x-served-by'], 'understudy', url);
    }
    assert.deepEqual(understudyHits.map((h) => [h.method, h.url, h.body]), [
      ['POST', '/two/wp-admin/admin-ajax.php', 'action=frm_form_submit&form_id=1'],
      ['POST', '/wp-admin/admin-ajax.php', 'action=frm_form_submit&form_id=1'],
    ]);
  });

  it('leaves the rest of every site to PHP: core routes, pages, other PHP files, paths deeper than a site', async () => {
    const urls = ['/two/wp-json/wp/v2/posts', '/two/some-page/', '/two/wp-login.php', '/a/b/wp-json/support/v1/tickets', '/two/wp-admin/index.php'];
    for (const url of urls) assert.equal((await visit(nginx, url, on('example.test'))).headers['x-served-by'], 'php', url);
    assert.deepEqual(phpHits.map((h) => h.url), urls);
    assert.deepEqual(understudyHits, []);
  });

  it('answers for every site\'s domain and for no other host', async () => {
    assert.equal((await visit(nginx, '/two/', on('example.test'))).headers['x-served-by'], 'php');
    assert.equal((await visit(nginx, '/', on('mapped.test'))).headers['x-served-by'], 'php');
    const other = await visit(nginx, '/wp-json/support/v1/tickets', on('other.test'));
    assert.equal(other.status, 421);
    assert.deepEqual(understudyHits, []);
  });
});
