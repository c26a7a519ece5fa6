/**
 * A signed-in request costs a small fixed number of queries: none while WordPress state is cached,
 * a handful when the cache has just expired, and never one per capability or option.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { OracleSite, credentials, openOracle } from '../../harness/oracle';
import { FRESHNESS_MS } from '../../../lib/wp/fresh-cache';

describe('queries per signed-in request', function () {
  let oracle: OracleSite;
  let queries: string[] = [];
  before(async () => {
    oracle = await openOracle();
    oracle.site.db.knex.on('query', (q: { sql: string }) => queries.push(q.sql));
  });
  after(async () => { await oracle.close(); });

  const counted = async (send: () => Promise<request.Response>) => {
    queries = [];
    const res = await send();
    assert.equal(res.status, 200, res.text);
    return queries.length;
  };
  const byAppPassword = () => request(oracle.app).get('/wp-json/wp/v2/users/me')
    .set('Authorization', credentials.application_passwords.admin.basic_auth_header);
  const byCookie = () => request(oracle.app).get('/wp-json/wp/v2/users/me')
    .set('Cookie', credentials.sessions.admin.logged_in_cookie.header).set('X-WP-Nonce', credentials.sessions.admin.rest_nonce);

  it('costs no query while options, roles and the user are cached', async () => {
    await byAppPassword();
    await byCookie();
    for (let i = 0; i < 5; i++) {
      assert.equal(await counted(byAppPassword), 0, queries.join('\n'));
      assert.equal(await counted(byCookie), 0, queries.join('\n'));
    }
  });

  it('costs at most four queries once the cache has expired (autoloaded options, one other option, the user row, its meta), whatever the capabilities', async () => {
    await new Promise((resolve) => setTimeout(resolve, FRESHNESS_MS + 50));
    const cold = await counted(byAppPassword);
    assert.ok(cold > 0 && cold <= 4, `${cold} queries:\n${queries.join('\n')}`);
    // The administrator has 64 capabilities: checking every one of them reads nothing more.
    const admin = await oracle.site.users.byLogin('admin');
    assert.ok(admin);
    queries = [];
    const caps = await oracle.site.capabilities.forUser(admin);
    for (const cap of Object.keys(caps.allcaps)) caps.can(cap);
    assert.equal(queries.length, 0, queries.join('\n'));
  });
});
