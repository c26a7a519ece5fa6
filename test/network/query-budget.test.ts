/**
 * A signed-in request on a site of a network costs no query while WordPress state is cached, the
 * network's options (`site_admins`, read by every capability check) included: a process serving a
 * whole network would otherwise send one `sitemeta` query per request of every site. A change PHP
 * makes to them still shows within the freshness bound.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Express } from 'express';
import { createApp } from '../../lib/app';
import { FRESHNESS_MS } from '../../lib/wp/fresh-cache';
import { serialize } from '../../lib/wp/php';
import { Site } from '../../lib/wp/site';
import { SignedIn, TestNetwork, buildNetwork } from '../harness/network';

const HOST = 'example.test';

describe('queries per signed-in request on a site of a network', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let site: Site;
  let app: Express;
  let agent: SignedIn;
  let queries: string[] = [];

  before(async () => {
    net = await buildNetwork({
      domain: HOST,
      install: { subdomainInstall: false, current: { domain: HOST, path: '/', networkId: 1 } },
      blogs: [{ blogId: 1, domain: HOST, path: '/' }, { blogId: 2, domain: HOST, path: '/two/' }],
      users: [{ login: 'boss', roles: { 1: 'administrator' } }, { login: 'agent', roles: { 2: 'support_agent' } }],
      superAdmins: ['boss'],
    });
    site = await net.site(2);
    app = createApp(site);
    agent = await net.signIn('agent');
    site.db.knex.on('query', (q: { sql: string }) => queries.push(q.sql));
  });

  after(async () => {
    await net?.close();
  });

  const me = async (): Promise<{ status: number; queries: string[] }> => {
    queries = [];
    const res = await request(app).get('/wp-json/wp/v2/users/me?context=edit').set('Cookie', agent.cookie).set('X-WP-Nonce', agent.nonce);
    assert.equal(res.status, 200, res.text);
    return { status: res.status, queries };
  };

  it('reads no network option again while it is cached: users/me five times in a row costs no query', async () => {
    await me();
    for (let i = 0; i < 5; i++) assert.deepEqual((await me()).queries, []);
  });

  it('sees a super admin PHP adds to site_admins within the freshness bound', async () => {
    const user = await site.users.byLogin('agent');
    assert.ok(user);
    assert.equal((await site.capabilities.forUser(user)).isSuperAdmin, false);
    await site.db.knex('wp_sitemeta').where({ site_id: 1, meta_key: 'site_admins' }).update({ meta_value: serialize(['boss', 'agent']) });
    await new Promise((resolve) => setTimeout(resolve, FRESHNESS_MS + 50));
    assert.equal((await site.capabilities.forUser(user)).isSuperAdmin, true);
  });
});
