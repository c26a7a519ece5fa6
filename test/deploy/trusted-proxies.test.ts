/**
 * TRUSTED_PROXIES (docs/deploy.md): only a connection from a trusted proxy may name the visitor
 * (X-Forwarded-For, Forwarded) or say the visitor used HTTPS (X-Forwarded-Proto). Checked on the
 * resolution itself, then through the app: the per-address limit of keyless site tickets, the
 * address WordPress records for an application password, and is_ssl() in production.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import request from 'supertest';
import { createApp } from '../../lib/app';
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { createConnectedSite } from '../../lib/support/sites/admin';
import { RuntimeOptions, warnAboutForwardedProto } from '../../lib/cli/runtime-options';
import { SiteConfig } from '../../lib/wp/config';
import { parseTrustedProxies, resolveClientFacts, wpConfigTrustsForwardedProto } from '../../lib/wp/http/trusted-proxies';
import { oracleConfig } from '../harness/oracle';
import { ProductionOracle, basicAuth, lastAppPasswordIp, openProductionOracle } from './production-site';

function fakeRequest(peer: string, headers: Record<string, string> = {}, encrypted = false): IncomingMessage {
  return { socket: { remoteAddress: peer, encrypted }, headers } as unknown as IncomingMessage;
}

describe('TRUSTED_PROXIES: who the visitor is', () => {
  describe('the resolution', () => {
    const trusted = parseTrustedProxies('127.0.0.1, 10.0.0.0/8 fd00::/8');

    it('ignores X-Forwarded-For, Forwarded and X-Forwarded-Proto from an untrusted peer', () => {
      const forged = { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=203.0.113.8;proto=https', 'x-forwarded-proto': 'https' };
      assert.deepEqual(resolveClientFacts(fakeRequest('198.51.100.4', forged), trusted), { ip: '198.51.100.4', secure: false });
      assert.deepEqual(resolveClientFacts(fakeRequest('198.51.100.4', forged), parseTrustedProxies('')), { ip: '198.51.100.4', secure: false });
    });

    it('takes the right-most untrusted X-Forwarded-For entry from a trusted peer: a forged left part is never believed', () => {
      const facts = resolveClientFacts(fakeRequest('::ffff:127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.2.3', 'x-forwarded-proto': 'https' }), trusted);
      assert.deepEqual(facts, { ip: '203.0.113.9', secure: true });
    });

    it('takes the left-most entry when every hop is trusted, and stops at an entry that is no address', () => {
      assert.equal(resolveClientFacts(fakeRequest('127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 10.1.1.1' }), trusted).ip, '10.9.9.9');
      assert.equal(resolveClientFacts(fakeRequest('127.0.0.1', { 'x-forwarded-for': 'unknown, 10.1.1.1' }), trusted).ip, '10.1.1.1');
      assert.equal(resolveClientFacts(fakeRequest('127.0.0.1', {}), trusted).ip, '127.0.0.1');
    });

    it('reads Forwarded: for= and proto= (quoted, bracketed IPv6 with a port) when there is no X-Forwarded-For', () => {
      const facts = resolveClientFacts(fakeRequest('127.0.0.1', { forwarded: 'for="[2001:DB8::7]:4711";proto=https, for=10.0.0.2' }), trusted);
      assert.deepEqual(facts, { ip: '2001:db8::7', secure: true });
    });

    it('matches IPv6 CIDR ranges: fd00::/8 trusted, fe80::1 not', () => {
      assert.equal(resolveClientFacts(fakeRequest('fd12:3456::1', { 'x-forwarded-for': '2001:db8::1' }), trusted).ip, '2001:db8::1');
      assert.equal(resolveClientFacts(fakeRequest('fe80::1', { 'x-forwarded-for': '2001:db8::1' }), trusted).ip, 'fe80::1');
      assert.equal(resolveClientFacts(fakeRequest('127.0.0.1', { 'x-forwarded-for': '2001:db8::9, fd00::5' }), trusted).ip, '2001:db8::9');
    });

    it('says http when a trusted proxy says so, even over a TLS socket to it', () => {
      assert.equal(resolveClientFacts(fakeRequest('127.0.0.1', { 'x-forwarded-proto': 'http' }, true), trusted).secure, false);
      assert.equal(resolveClientFacts(fakeRequest('127.0.0.1', {}, true), trusted).secure, true);
    });

    it('refuses a list entry that is not an address or range, naming it', () => {
      for (const bad of ['10.0.0.0/33', 'nginx.local', '::1/129', '10.0.0.1/8/2', '10.0.0.0/x']) {
        assert.throws(() => parseTrustedProxies(bad), new RegExp(`TRUSTED_PROXIES: "${bad.replace(/[./]/g, '\\$&')}"`));
      }
    });
  });

  describe('wp-config.php that sets HTTPS from X-Forwarded-Proto', () => {
    const line = "if (isset($_SERVER['HTTP_X_FORWARDED_PROTO']) && $_SERVER['HTTP_X_FORWARDED_PROTO'] === 'https') {\n  $_SERVER['HTTPS'] = 'on';\n}\n";

    it('is recognised, unless the line is commented out', () => {
      assert.equal(wpConfigTrustsForwardedProto(`<?php\n${line}`), true);
      assert.equal(wpConfigTrustsForwardedProto(`<?php\n/* ${line} */`), false);
      assert.equal(wpConfigTrustsForwardedProto(`<?php\n// $_SERVER['HTTPS'] = 'on'; // HTTP_X_FORWARDED_PROTO\n`), false);
      assert.equal(wpConfigTrustsForwardedProto("<?php\nif ($_SERVER['HTTPS'] == 'on') {}\n"), false);
    });

    it('makes serve warn at start-up that TRUSTED_PROXIES is needed, and only while it is empty', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-wpconfig-'));
      try {
        const file = path.join(dir, 'wp-config.php');
        fs.writeFileSync(file, `<?php\n${line}`);
        const warnings = (trusted: string) => {
          const logger = memoryLogger();
          const ctx = { env: { WP_CONFIG_PATH: file }, cwd: dir, stdout: { write: () => undefined }, stderr: { write: () => undefined } };
          warnAboutForwardedProto(ctx, { source: 'wp-config' } as SiteConfig, { trustedProxies: parseTrustedProxies(trusted) } as RuntimeOptions, logger);
          return logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
        };
        assert.match(warnings('')[0] ?? '', /sets \$_SERVER\['HTTPS'\] from X-Forwarded-Proto, which Understudy does not run: set TRUSTED_PROXIES/);
        assert.deepEqual(warnings('127.0.0.1'), []);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('through the app (production site, real HTTP from 127.0.0.1)', () => {
    let oracle: ProductionOracle;
    let siteId: string;
    const SHOP = 'https://shop.example';
    const fields = { email: 'visitor@example.net', name: 'Vera', subject: 'Where is my order?', message: 'Order 1 is late.' };

    before(async () => {
      oracle = await openProductionOracle();
      siteId = (await createConnectedSite(oracle.site, { name: 'Shop', origins: [SHOP] })).site.siteId;
    });
    after(async () => oracle.close());
    beforeEach(() => oracle.clock.advance(3600 * 1000));

    const ticket = (app: ReturnType<typeof createApp>, forwardedFor: string) => request(app)
      .post(`/wp-json/support/v1/sites/${siteId}/tickets`).set('Origin', SHOP).set('X-Forwarded-For', forwardedFor).send(fields);
    const tickets = async () => Number(((await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' }))[0] as { n: number }).n);

    it('without TRUSTED_PROXIES, a forged X-Forwarded-For changes neither the rate-limit bucket nor the address recorded', async () => {
      const app = createApp(oracle.site);
      for (let i = 1; i <= 10; i++) assert.equal((await ticket(app, `203.0.113.${i}`)).status, 201);
      const before = await tickets();
      const refused = await ticket(app, '203.0.113.99');
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 'rest_too_many_requests');
      assert.equal(await tickets(), before);

      // Not secure either: a production site refuses application passwords over plain HTTP.
      const me = await request(app).get('/wp-json/wp/v2/users/me').set('Authorization', basicAuth('agent1'))
        .set('X-Forwarded-Proto', 'https').set('X-Forwarded-For', '203.0.113.50');
      assert.equal(me.status, 401, me.text);

      // The address recorded: the same database served as a local site, where plain HTTP is allowed.
      const { site: local } = await openSite(oracleConfig(oracle.scratch), { logger: memoryLogger(), clock: oracle.clock });
      try {
        const ok = await request(createApp(local)).get('/wp-json/wp/v2/users/me').set('Authorization', basicAuth('admin')).set('X-Forwarded-For', '203.0.113.50');
        assert.equal(ok.status, 200, ok.text);
        assert.match(String(await lastAppPasswordIp(local, 1)), /^(127\.0\.0\.1|::1)$/);
      } finally {
        await local.db.close();
      }
    });

    it('from a trusted proxy, each visitor has their own bucket, is secure with X-Forwarded-Proto, and is the address recorded', async () => {
      const app = createApp(oracle.site, undefined, { trustedProxies: parseTrustedProxies('127.0.0.1,::1') });
      for (let i = 1; i <= 10; i++) assert.equal((await ticket(app, '6.6.6.6, 198.51.100.1')).status, 201);
      assert.equal((await ticket(app, '198.51.100.1')).status, 429);
      // The forged left part does not make another visitor: the right-most untrusted entry is.
      assert.equal((await ticket(app, '198.51.100.77, 198.51.100.1')).status, 429);
      assert.equal((await ticket(app, '198.51.100.2')).status, 201);

      const me = await request(app).get('/wp-json/wp/v2/users/me').set('Authorization', basicAuth('agent1'))
        .set('X-Forwarded-Proto', 'https').set('X-Forwarded-For', '203.0.113.50');
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.id, 2);
      assert.equal(await lastAppPasswordIp(oracle.site, 2), '203.0.113.50');
    });
  });
});
