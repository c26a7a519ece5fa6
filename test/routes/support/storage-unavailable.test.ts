/** While the setup-failed notice is on, or the database does not answer, ticket routes answer 503. */
import assert from 'node:assert/strict';
import net from 'node:net';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { openSite } from '../../../lib/boot';
import { createApp } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { SETUP_FAILED_OPTION, refreshSetupNotice } from '../../../lib/support/storage-check';
import { fixedClock } from '../../../lib/wp/clock';
import { API, as } from '../../harness/support';
import { eventually } from '../../harness/eventually';
import { MYSQL_URL } from '../../harness/db';
import { OracleSite, credentials, openOracle, oracleConfig } from '../../harness/oracle';

describe('storage_unavailable', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('answers ticket routes 503 while svc_setup_failed holds a reason, and serves again once it is cleared', async () => {
    await oracle.site.db.knex('wp_options').insert({ option_name: SETUP_FAILED_OPTION, option_value: 'Table wp_svc_jobs is missing.', autoload: 'no' });
    await eventually(async () => (await as(oracle.app, 'agent1').get(`${API}/tickets`)).status === 503, 2000);
    const res = await as(oracle.app, 'customer1').get(`${API}/tickets/4`);
    assert.equal(res.status, 503);
    assert.equal(res.body.code, 'storage_unavailable');
    assert.equal((await request(oracle.app).get('/wp-json/wp/v2/users/me').set('Authorization', credentials.application_passwords.agent1.basic_auth_header)).status, 200, 'other routes keep working');
    await oracle.site.db.knex('wp_options').where({ option_name: SETUP_FAILED_OPTION }).del();
    await eventually(async () => (await as(oracle.app, 'agent1').get(`${API}/tickets`)).status === 200, 2000);
  });

  it('answers 503 while the database does not answer, and recovers by itself when it answers again (MariaDB)', async function () {
    if (!MYSQL_URL || oracle.scratch.target.client !== 'mysql') return this.skip();
    const target = oracle.scratch.target;
    // A TCP relay in front of MariaDB that the test can cut and restore, as a network outage would.
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(target.port ?? 3306, target.host ?? '127.0.0.1');
      for (const s of [client, upstream]) { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => s.destroy()); }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as AddressInfo).port;
    const config = { ...oracleConfig(oracle.scratch), db: { ...target, host: '127.0.0.1', port } };
    const { site } = await openSite(config, { logger: memoryLogger(), clock: fixedClock(credentials.generated_at * 1000), poolMax: 2 });
    (site.db.knex.client.config.pool as { acquireTimeoutMillis?: number }).acquireTimeoutMillis = 1000;
    const app = createApp(site);
    try {
      assert.equal((await as(app, 'agent1').get(`${API}/tickets`)).status, 200);
      relay.close();
      for (const s of sockets) s.destroy();
      await eventually(async () => {
        const res = await as(app, 'agent1').get(`${API}/tickets?search=outage`);
        return res.status === 503 && res.body.code === 'storage_unavailable';
      }, 10_000, 200);
      await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
      await eventually(async () => (await as(app, 'agent1').get(`${API}/tickets`)).status === 200, 10_000, 200);
    } finally {
      relay.close();
      for (const s of sockets) s.destroy();
      await site.close();
    }
  });
});

describe('the storage check', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('sets the notice when a plugin table is missing, and clears its own notice once storage works again', async () => {
    await oracle.site.db.knex.schema.renameTable('wp_svc_request_keys', 'wp_svc_request_keys_gone');
    assert.match(String(await refreshSetupNotice(oracle.site)), /wp_svc_request_keys is missing/);
    assert.match(String(await oracle.site.options.getRaw(SETUP_FAILED_OPTION)), /^Understudy: Table wp_svc_request_keys is missing/);
    assert.equal((await as(oracle.app, 'agent1').get(`${API}/tickets`)).status, 503);
    await oracle.site.db.knex.schema.renameTable('wp_svc_request_keys_gone', 'wp_svc_request_keys');
    assert.equal(await refreshSetupNotice(oracle.site), null);
    assert.equal(await oracle.site.options.getRaw(SETUP_FAILED_OPTION), undefined);
    assert.equal((await as(oracle.app, 'agent1').get(`${API}/tickets`)).status, 200);
  });
});
