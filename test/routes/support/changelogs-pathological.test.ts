/**
 * Release notes built to make marked slow (issue 27: runs of `_a`, `*a`, `**a`, `<!--`, lists nested
 * hundreds deep): synced from a real HTTP source, written by the PHP site, or pasted into admin/parse.
 * No anonymous read (the changelog route, its RSS, Atom and JSON feeds) holds the event loop: notes
 * are rendered once, in a worker thread with a time limit, and reads serve what was stored. Before,
 * each read of a 32 KB `- _a_a…` note held the whole server for seconds.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { createProduct } from '../../../lib/support/changelogs/admin';
import { PREVIEW_BUDGET_MS } from '../../../lib/support/changelogs/preview';
import { Product } from '../../../lib/support/changelogs/store';
import { parseOutgoingAllow } from '../../../lib/wp/http/outgoing-allow';
import { API, as } from '../../harness/support';
import { Listening, listen } from '../../harness/http';
import { OracleSite, openOracle, phpConnection } from '../../harness/oracle';
import { assertRestError } from '../../harness/wp-http';

/** Each about 32 KB; marked took 0.2 to 4 s on each (on one read) before. */
const SLOW_NOTES: Record<string, string> = {
  '1.0.0': `- ${'_a'.repeat(16_384)}`,
  '1.1.0': '*a'.repeat(16_384),
  '1.2.0': '**a'.repeat(11_000),
  '1.3.0': `Intro\n\n${'<!--'.repeat(8_192)}`,
  '1.4.0': Array.from({ length: 180 }, (_, depth) => `${'  '.repeat(depth)}- a`).join('\n'),
};

const MAX_STALL_MS = 50;

/**
 * The longest the event loop was held while `work` ran (the longest gap between ticks of a 5 ms
 * timer), the best of three runs: one slow run may be another process taking the CPU, three are not.
 */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < 3 && best >= MAX_STALL_MS; run++) {
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last - 5);
      last = now;
    }, 5);
    await work();
    // A block just before the answer shows in the tick after it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    clearInterval(tick);
    best = Math.min(best, longest);
  }
  return best;
}

describe('changelogs: notes built to be slow to render', function () {
  this.timeout(120_000);
  let oracle: OracleSite;
  let server: Listening;
  let product: Product;

  before(async () => {
    const releases = Object.entries(SLOW_NOTES).map(([version, body]) => ({ tag_name: `v${version}`, name: version, body, published_at: '2026-03-01T00:00:00Z', draft: false, prerelease: false }));
    server = await listen((_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(releases)));
    // The source is a loopback server: allowed by name, as a site with an internal source would.
    oracle = await openOracle({ outgoingAllow: parseOutgoingAllow(`127.0.0.1:${new URL(server.url).port}`) });
    product = await createProduct(oracle.site, { name: 'Slow', slug: 'slow', source: `${server.url}/releases`, kind: 'github' });
    const synced = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${product.postId}/sync`);
    assert.equal(synced.status, 200, synced.text);
    assert.equal(synced.body.added, 5);
  });
  after(async () => {
    await server.close();
    await oracle.close();
  });

  const PUBLIC_READS = [`/wp-json/support/v1/changelogs/slow?per_page=50`, '/changelog/slow/feed/', '/changelog/slow/feed/atom/', '/changelog/slow/feed/json/'];

  for (const path of PUBLIC_READS) {
    it(`answers ${path} without holding the event loop (under ${MAX_STALL_MS} ms)`, async () => {
      let status = 0;
      const stall = await longestStall(async () => {
        status = (await request(oracle.app).get(path)).status;
      });
      assert.equal(status, 200);
      assert.ok(stall < MAX_STALL_MS, `the event loop was held ${stall.toFixed(0)} ms`);
    });
  }

  it('shows every synced release, rendered or as escaped plain text, with nothing that runs', async () => {
    const res = await request(oracle.app).get(`${API}/changelogs/slow?per_page=50`);
    assert.deepEqual(res.body.map((r: { version: string }) => r.version), ['1.4.0', '1.3.0', '1.2.0', '1.1.0', '1.0.0']);
    for (const release of res.body as Array<{ html: string; summary: string }>) {
      assert.ok(release.html.length > 100, release.html.slice(0, 100));
      assert.ok(!/<script/i.test(release.html), release.html.slice(0, 200));
    }
  });

  it('renders a slow note the PHP site writes off the main thread, once: the first read stores its view', async () => {
    const php = phpConnection(oracle);
    try {
      const row = await php('wp_posts').where({ post_type: 'svc_release', post_parent: product.postId, post_title: '1.0.0' }).first('ID');
      await php('wp_posts').where({ ID: row.ID }).update({ post_content: `- ${'_b'.repeat(16_384)}`, post_modified_gmt: '2026-04-01 00:00:00' });
    } finally {
      await php.destroy();
    }
    let body = '';
    const stall = await longestStall(async () => {
      body = (await request(oracle.app).get('/changelog/slow/feed/json/')).text;
    });
    assert.ok(stall < MAX_STALL_MS, `the event loop was held ${stall.toFixed(0)} ms`);
    assert.match(body, /_b_b_b|<em>b<\/em>/, 'the edited note is shown');
    const stored = await oracle.site.db.knex('wp_postmeta').join('wp_posts', 'ID', 'post_id')
      .where({ post_title: '1.0.0', post_parent: product.postId, meta_key: '_svc_rendered_notes' }).first('meta_value');
    assert.match(String(stored?.meta_value), /_b_b_b|<em>b<\/em>/, 'the view of the edited note is stored');
  });

  it('answers admin/parse of 800 KB of slow notes with a clear 400 within its budget', async () => {
    // Before, this held the server for minutes.
    const oneHuge = `= 1.0 =\n* ${'_a'.repeat(400_000)}`;
    let started = performance.now();
    const res = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/parse`).send({ text: oneHuge });
    assertRestError(res, 400, 'rest_invalid_param');
    assert.match(res.body.data.params.text, /The notes of 1\.0 are 800,002 characters long; a release's notes may have at most 65,536\./);
    assert.ok(performance.now() - started < PREVIEW_BUDGET_MS, `answered after ${(performance.now() - started).toFixed(0)} ms`);

    // Under the size cap each, but 25 of them: the notes that cannot be rendered in time are refused.
    const many = Array.from({ length: 25 }, (_, i) => `= 1.${i} =\n* ${'_a'.repeat(16_000)}`).join('\n');
    started = performance.now();
    const slow = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/parse`).send({ text: many });
    assertRestError(slow, 400, 'svc_changelog_notes_too_complex');
    assert.match(slow.body.message, /could not be rendered in time .*simplify their markdown/);
    assert.ok(performance.now() - started < 2 * PREVIEW_BUDGET_MS, `answered after ${(performance.now() - started).toFixed(0)} ms`);
  });
});
