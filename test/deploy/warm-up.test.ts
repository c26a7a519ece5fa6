/**
 * `serve` loads the support desk's large caches at start, in the background (docs/deploy.md, "Warm
 * caches"): with `--ready-when-warm` readiness answers 503 until they have loaded, for deployments
 * that can wait; without it, ready at once. Either way lists are answered meanwhile (from SQL).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { demoFixture, seedDemoSite } from '../../lib/demo/seed';
import { loadGate } from '../../lib/support/desk';
import { envFor, openFor } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { startServe } from './serve-harness';

/** The JSON log lines of a cache that has loaded, by name. */
function loadedCaches(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; cache?: string })
    .filter((e) => e.msg === 'support desk: a cache has loaded').map((e) => String(e.cache));
}

const agent = demoFixture.users.find((u) => u.login === 'agent')!;
const basic = `Basic ${Buffer.from(`agent:${agent.application_password.password}`).toString('base64')}`;

describe('serve warms the support desk\'s caches at start', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let release: () => void;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local', LOG_FORMAT: 'json' });
    const { site } = await openFor(env);
    try {
      await seedDemoSite(site);
    } finally {
      await site.close();
    }
  });
  after(async () => { await db?.drop(); });

  // Every load of the desk waits until the test lets it go.
  beforeEach(() => {
    const held = new Promise<void>((resolve) => { release = resolve; });
    loadGate.wait = () => held;
  });
  afterEach(() => {
    loadGate.wait = () => Promise.resolve();
    release();
  });

  it('with --ready-when-warm, is not ready until the ticket list and docs search indexes have loaded, and answers lists meanwhile', async () => {
    const server = await startServe(['serve', '--port=0', '--ready-when-warm'], env);
    try {
      const cold = await request(server.url).get('/-/health/ready');
      assert.equal(cold.status, 503, cold.text);
      assert.deepEqual(cold.body, { status: 'not_ready', checks: { caches: 'failed', database: 'ok', storage: 'ok', jobs: 'ok' } });
      const list = await request(server.url).get('/wp-json/support/v1/tickets').set('Authorization', basic);
      assert.equal(list.status, 200, list.text);
      assert.ok(list.body.length > 0);
      assert.equal((await request(server.url).get('/wp-json/support/v1/docs/search?q=password')).status, 200);
      release();
      await eventually(async () => (await request(server.url).get('/-/health/ready')).status === 200, 5000);
      const warm = await request(server.url).get('/-/health/ready');
      assert.deepEqual(warm.body, { status: 'ready', checks: { caches: 'ok', database: 'ok', storage: 'ok', jobs: 'ok' } });
      assert.ok(loadedCaches(server.stderr.text()).includes('ticket lists'), server.stderr.text());
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('without it (READY_WHEN_WARM=0 or unset), is ready at once while they load', async () => {
    for (const setting of [{}, { READY_WHEN_WARM: '0' }] as Array<Record<string, string>>) {
      const server = await startServe(['serve', '--port=0'], { ...env, ...setting });
      try {
        const ready = await request(server.url).get('/-/health/ready');
        assert.equal(ready.status, 200, ready.text);
        assert.deepEqual(ready.body, { status: 'ready', checks: { database: 'ok', storage: 'ok', jobs: 'ok' } });
      } finally {
        assert.equal(await server.stop(), 0);
      }
    }
  });

  it('READY_WHEN_WARM=1 asks the same as the flag', async () => {
    const server = await startServe(['serve', '--port=0'], { ...env, READY_WHEN_WARM: '1' });
    try {
      assert.equal((await request(server.url).get('/-/health/ready')).status, 503);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
