/**
 * Sync from a real HTTP server on 127.0.0.1 (lib/support/changelogs/sync.ts, fetch.ts, sources.ts):
 * a readme.txt, a CHANGELOG.md and GitHub-releases JSON; re-syncs that change nothing or only what
 * changed; and every failure (timeout, 404, 5xx, bad content, too large, a redirect off http) leaving
 * the releases as they were, reported in the product's last sync. Then the scheduled job.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { JobWorker } from '../../../../lib/jobs/worker';
import { createProduct } from '../../../../lib/support/changelogs/admin';
import { FetchLimits } from '../../../../lib/support/changelogs/fetch';
import { CHANGELOG_SYNC_JOB, enqueueDueSyncs } from '../../../../lib/support/changelogs/schedule';
import { Product, findProductById } from '../../../../lib/support/changelogs/store';
import { probeSource, syncProduct } from '../../../../lib/support/changelogs/sync';
import { updateProduct } from '../../../../lib/support/changelogs/writes';
import { changelogSyncHandler } from '../../../../lib/support/jobs/handlers/changelog-sync';
import { parseOutgoingAllow } from '../../../../lib/wp/http/outgoing-allow';
import { jobHandlers } from '../../../../lib/worker';
import { Listening, listen } from '../../../harness/http';
import { OracleSite, openOracle } from '../../../harness/oracle';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../../fixtures/changelogs', name), 'utf8');

/** A short timeout, so the never-answering source costs the test a moment rather than 10 s. */
const LIMITS: FetchLimits = { timeoutMs: 400, maxBytes: 2 * 1024 * 1024 };

const GITHUB_RELEASES = [
  { tag_name: 'v2.1.0-rc.1', name: '2.1.0 RC 1', body: '- Release candidate', published_at: '2026-03-10T12:00:00Z', prerelease: true, draft: false, html_url: 'https://github.com/acme/tool/releases/tag/v2.1.0-rc.1' },
  { tag_name: 'v2.0.0', name: 'Two', body: 'Big one.\r\n\r\n- New engine', published_at: '2026-02-01T08:30:00Z', prerelease: false, draft: false, html_url: 'https://github.com/acme/tool/releases/tag/v2.0.0' },
  { tag_name: 'v2.2.0', name: 'Draft', body: 'not yet', published_at: null, prerelease: false, draft: true, html_url: 'https://github.com/acme/tool/releases/tag/untagged-1' },
  { tag_name: 'v1.9.0', name: '', body: '', published_at: '2025-12-24T00:00:00Z', prerelease: false, draft: false, html_url: 'javascript:alert(1)' },
];

describe('changelog sync from an HTTP source', function () {
  let oracle: OracleSite;
  let server: Listening;
  let readme = fixture('readme.txt');
  const hanging: http.ServerResponse[] = [];

  before(async () => {
    server = await listen((req, res) => {
      const send = (status: number, type: string, body: string | Buffer) => res.writeHead(status, { 'Content-Type': type }).end(body);
      switch (req.url) {
        case '/readme.txt': return send(200, 'text/plain; charset=utf-8', readme);
        case '/CHANGELOG.md': return send(200, 'text/markdown', fixture('keep-a-changelog.md'));
        case '/releases.json': return send(200, 'application/json', JSON.stringify(GITHUB_RELEASES));
        case '/hostile-links.json': return send(200, 'application/json', JSON.stringify([{ tag_name: 'v3.0.0', body: '- Three', html_url: `${GITHUB_RELEASES[1]?.html_url}"><script>alert(1)</script>` }]));
        case '/moved': return res.writeHead(301, { Location: '/readme.txt' }).end();
        case '/to-file': return res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
        case '/missing': return send(404, 'text/html', '<h1>Not found</h1>');
        case '/broken': return send(503, 'text/html', 'Service unavailable');
        case '/binary': return send(200, 'application/octet-stream', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
        case '/no-releases': return send(200, 'text/plain', '# My plugin\n\nNothing to see here.\n');
        case '/bad-json': return send(200, 'application/json', '{"tag_name": ');
        case '/huge': return streamHuge(res);
        case '/huge-declared': return res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(3 * 1024 * 1024) }).end();
        case '/hang': hanging.push(res); return undefined;
        case '/hang-after-head': res.writeHead(200, { 'Content-Type': 'text/plain' }).write('= 1.0 =\n'); hanging.push(res); return undefined;
        case '/reset': return req.socket.destroy();
        default: return send(404, 'text/plain', 'no');
      }
    });
    // The suite's source is on loopback: the operator's setting lets this one port through.
    oracle = await openOracle({ outgoingAllow: parseOutgoingAllow(`127.0.0.1:${new URL(server.url).port}`) });
  });
  after(async () => {
    for (const res of hanging) res.destroy();
    await server.close();
    await oracle.close();
  });

  /** More than 2 MiB of a valid-looking changelog, chunked (no Content-Length), so the cap must stop it while it streams. */
  function streamHuge(res: http.ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    const chunk = `= 1.0 =\n${'* A change that repeats.\n'.repeat(2700)}`;
    let sent = 0;
    const more = () => {
      while (sent < 2.5 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => undefined);
    more();
  }

  let serial = 0;
  const product = async (source: string, kind?: string): Promise<Product> => createProduct(oracle.site, { name: `Product ${++serial}`, source: `${server.url}${source}`, kind });
  const fresh = async (p: Product) => (await findProductById(oracle.site.db, p.postId)) as Product;
  /** The product's releases as rows: what must not change when a sync fails. */
  const releaseRows = async (p: Product) => {
    const rows = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_release', post_parent: p.postId }).orderBy('ID')
      .select('ID', 'post_title', 'post_content', 'post_date_gmt', 'post_modified_gmt', 'post_status');
    const meta = await oracle.site.db.knex('wp_postmeta').whereIn('post_id', rows.map((r: { ID: number }) => r.ID)).orderBy('meta_id').select('post_id', 'meta_key', 'meta_value');
    return { rows, meta };
  };

  it('syncs a readme.txt: every release of its changelog, dated where it says, stability from the version', async () => {
    const p = await product('/readme.txt');
    const outcome = await syncProduct(oracle.site, p, LIMITS);
    assert.deepEqual([outcome.ok, outcome.found, outcome.added, outcome.updated], [true, 5, 5, 0], outcome.message);
    const { rows, meta } = await releaseRows(p);
    assert.deepEqual(rows.map((r: { post_title: string }) => r.post_title).sort(), ['3.10.0', '3.10.0-beta.1', '3.10.1', '3.9.0', '3.9.2']);
    const beta = rows.find((r: { post_title: string }) => r.post_title === '3.10.0-beta.1');
    assert.ok(meta.some((m: { post_id: number; meta_key: string; meta_value: string }) => m.post_id === beta.ID && m.meta_key === '_svc_stability' && m.meta_value === 'pre-release'));
    const last = (await fresh(p)).lastSync;
    assert.deepEqual([last?.ok, last?.found, last?.added, last?.updated], [true, 5, 5, 0]);
  });

  it('is idempotent: a second sync adds and updates nothing, and only what changed the time after', async () => {
    const p = await product('/readme.txt');
    await syncProduct(oracle.site, p, LIMITS);
    const before = await releaseRows(p);
    const again = await syncProduct(oracle.site, p, LIMITS);
    assert.deepEqual([again.ok, again.found, again.added, again.updated], [true, 5, 0, 0]);
    assert.deepEqual(await releaseRows(p), before, 'not a row written');
    const original = readme;
    try {
      readme = readme.replace('= 3.10.1 - 2026-02-11 =', '= 3.11.0 - 2026-03-01 =\n* New: Signature field.\n\n= 3.10.1 - 2026-02-11 =')
        .replace('PHP 8.4 deprecation notices', 'PHP 8.4 and 8.5 deprecation notices');
      const changed = await syncProduct(oracle.site, p, LIMITS);
      assert.deepEqual([changed.found, changed.added, changed.updated], [6, 1, 1]);
      const titles = (await releaseRows(p)).rows.map((r: { post_title: string }) => r.post_title);
      assert.equal(titles.length, 6);
      assert.equal(new Set(titles).size, 6, 'no version twice');
    } finally {
      readme = original;
    }
  });

  it('stores each version once when two syncs of one product run at the same time', async () => {
    const p = await product('/CHANGELOG.md');
    const outcomes = await Promise.all([syncProduct(oracle.site, p, LIMITS), syncProduct(oracle.site, p, LIMITS), syncProduct(oracle.site, p, LIMITS)]);
    assert.ok(outcomes.every((o) => o.ok));
    assert.equal(outcomes.reduce((sum, o) => sum + o.added, 0), 6);
    const titles = (await releaseRows(p)).rows.map((r: { post_title: string }) => r.post_title);
    assert.deepEqual([titles.length, new Set(titles).size], [6, 6]);
  });

  it('follows a redirect to another http URL', async () => {
    const outcome = await syncProduct(oracle.site, await product('/moved'), LIMITS);
    assert.deepEqual([outcome.ok, outcome.added], [true, 5]);
  });

  it('reads a CHANGELOG.md and GitHub-releases JSON (drafts skipped, GitHub\'s prerelease flag, release pages)', async () => {
    const md = await syncProduct(oracle.site, await product('/CHANGELOG.md'), LIMITS);
    assert.deepEqual([md.ok, md.added], [true, 6]);
    const gh = await product('/releases.json');
    const outcome = await syncProduct(oracle.site, gh, LIMITS);
    assert.deepEqual([outcome.ok, outcome.added], [true, 3], outcome.message);
    const { rows, meta } = await releaseRows(gh);
    const metaOf = (title: string, key: string) => {
      const id = rows.find((r: { post_title: string }) => r.post_title === title).ID;
      return meta.find((m: { post_id: number; meta_key: string }) => m.post_id === id && m.meta_key === key)?.meta_value;
    };
    assert.deepEqual(rows.map((r: { post_title: string }) => r.post_title).sort(), ['1.9.0', '2.0.0', '2.1.0-rc.1']);
    assert.equal(metaOf('2.1.0-rc.1', '_svc_stability'), 'pre-release');
    assert.equal(metaOf('2.0.0', '_svc_url'), 'https://github.com/acme/tool/releases/tag/v2.0.0');
    assert.equal(metaOf('1.9.0', '_svc_url'), '', 'a javascript: URL is no release page');
    assert.equal(rows.find((r: { post_title: string }) => r.post_title === '2.0.0').post_content, 'Big one.\n\n- New engine');
  });

  it('keeps a release page as WordPress keeps a URL (esc_url_raw): no ", < or > stored or served', async () => {
    const p = await product('/hostile-links.json');
    assert.equal((await syncProduct(oracle.site, p, LIMITS)).added, 1);
    const { meta } = await releaseRows(p);
    const page = 'https://github.com/acme/tool/releases/tag/v2.0.0scriptalert(1)/script';
    assert.equal(meta.find((m: { meta_key: string }) => m.meta_key === '_svc_url')?.meta_value, page);
    const served = await request(oracle.app).get(`/wp-json/support/v1/changelogs/${p.slug}`);
    assert.equal(served.body[0].url, page);
  });

  const failures: Array<[string, string, RegExp]> = [
    ['/hang', 'unreachable', /^The source could not be reached\.$/],
    ['/reset', 'unreachable', /^The source could not be reached\.$/],
    ['/hang-after-head', 'timeout', /did not finish answering within 0.4 s/],
    ['/missing', 'http_status', /HTTP 404/],
    ['/broken', 'http_status', /HTTP 503/],
    ['/binary', 'bad_content', /not text/],
    ['/no-releases', 'bad_content', /No release was found/],
    ['/bad-json', 'bad_content', /not valid JSON/],
    ['/huge', 'too_large', /larger than 2097152 bytes/],
    ['/huge-declared', 'too_large', /larger than 2097152 bytes/],
    ['/to-file', 'invalid_url', /Only http and https/],
  ];
  for (const [source, reason, message] of failures) {
    it(`changes nothing and reports it when the source fails: ${source} (${reason})`, async () => {
      const p = await product('/readme.txt');
      await syncProduct(oracle.site, p, LIMITS);
      const before = await releaseRows(p);
      await updateProduct(oracle.site, p.postId, { source: `${server.url}${source}` });
      const outcome = await syncProduct(oracle.site, await fresh(p), LIMITS);
      assert.deepEqual([outcome.ok, outcome.reason], [false, reason], outcome.message);
      assert.match(outcome.message, message);
      assert.deepEqual(await releaseRows(p), before);
      const last = (await fresh(p)).lastSync;
      assert.deepEqual([last?.ok, last?.added, last?.updated], [false, 0, 0]);
      assert.match(last?.message ?? '', message);
    });
  }

  it('probes a source without saving anything', async () => {
    const posts = async () => Number(((await oracle.site.db.knex('wp_posts').count({ n: '*' }))[0] as { n: number }).n);
    const count = await posts();
    assert.deepEqual(await probeSource(oracle.site, `${server.url}/CHANGELOG.md`, 'auto', LIMITS), {
      ok: true, url: `${server.url}/CHANGELOG.md`, kind: 'changelog', format: 'keep-a-changelog', count: 6,
      newest: ['2.0.0', '2.0.0-rc.1', '2.0.0-beta.10', '2.0.0-beta.2', '1.4.1'],
    });
    assert.deepEqual(await probeSource(oracle.site, `${server.url}/missing`, 'auto', LIMITS), {
      ok: false, url: `${server.url}/missing`, error: { code: 'http_status', message: 'The source answered HTTP 404.', status: 404 },
    });
    const asReadme = await probeSource(oracle.site, `${server.url}/CHANGELOG.md`, 'readme', LIMITS);
    assert.equal(asReadme.ok ? '' : asReadme.error.code, 'bad_content');
    assert.equal(await posts(), count);
  });

  it('runs on the schedule as changelog_sync jobs, once per product and interval', async () => {
    assert.ok(jobHandlers()[CHANGELOG_SYNC_JOB], 'every server worker runs the kind');
    const knex = oracle.site.db.knex;
    // Only this test's product has a source that is due: the others synced just now.
    await knex('wp_svc_jobs').where({ kind: CHANGELOG_SYNC_JOB }).del();
    const p = await product('/CHANGELOG.md');
    const worker = new JobWorker(oracle.site, { handlers: { [CHANGELOG_SYNC_JOB]: changelogSyncHandler(LIMITS) } });
    const due = await enqueueDueSyncs(oracle.site);
    assert.ok(due >= 1);
    const payloads = (await knex('wp_svc_jobs').where({ kind: CHANGELOG_SYNC_JOB }).select('payload')).map((j: { payload: string }) => JSON.parse(j.payload));
    assert.ok(payloads.some((j) => j.product_id === p.postId && j.scheduled === true));
    await worker.runDueJobs();
    assert.equal((await releaseRows(p)).rows.length, 6);
    assert.equal((await fresh(p)).lastSync?.ok, true);
    const jobs = await knex('wp_svc_jobs').where({ kind: CHANGELOG_SYNC_JOB }).select('status', 'payload');
    const ours = jobs.find((j: { payload: string }) => JSON.parse(j.payload).product_id === p.postId);
    assert.equal(ours.status, 'done');
    // Synced within the interval: the next tick enqueues nothing for it; an hour later it does.
    await knex('wp_svc_jobs').where({ kind: CHANGELOG_SYNC_JOB }).del();
    await enqueueDueSyncs(oracle.site);
    const queued = () => knex('wp_svc_jobs').where({ kind: CHANGELOG_SYNC_JOB }).select('payload').then((rows: Array<{ payload: string }>) => rows.map((r) => JSON.parse(r.payload).product_id));
    assert.ok(!(await queued()).includes(p.postId));
    oracle.clock.advance(3600 * 1000);
    await enqueueDueSyncs(oracle.site);
    assert.ok((await queued()).includes(p.postId));
    await knex('wp_svc_jobs').where({ kind: CHANGELOG_SYNC_JOB }).del();
  });
});
