/**
 * Replaying the traffic captured from real WordPress (fixtures/oracle/wp-core-traffic.json) against
 * Understudy over HTTP: for every exchange whose route Understudy serves, the same status, the same
 * significant headers and the same JSON body. The clock stands where the capture was made, so nonces
 * must match exactly; only WordPress's own content routes (posts, types) are out of scope.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { Server } from 'node:http';
import { Exchange, parseCapture } from '../../lib/replay/capture';
import { WORDPRESS_SIGNIFICANT_HEADERS, compareResponses } from '../../lib/replay/compare';
import { sendCaptured } from '../../lib/replay/send';
import { buildSurface, createApp } from '../../lib/app';
import { ORACLE_DIR, OracleSite, openOracle } from '../harness/oracle';

const exchanges = parseCapture(fs.readFileSync(path.join(ORACLE_DIR, 'wp-core-traffic.json'), 'utf8'));
const rules = { significantHeaders: WORDPRESS_SIGNIFICANT_HEADERS, replace: [], volatile: [] };

/** The REST route of a captured request, or null for admin-ajax and other pages. */
function restRoute(exchange: Exchange): string | null {
  const url = new URL(exchange.request.url);
  const queryRoute = url.searchParams.get('rest_route');
  if (queryRoute !== null) return queryRoute;
  const match = /^\/(?:index\.php\/)?wp-json(\/.*)?$/.exec(url.pathname);
  return match ? match[1] ?? '/' : null;
}

const surface = buildSurface();

/** In scope: admin-ajax, routes Understudy declares, and paths WordPress itself has no route for. */
function served(exchange: Exchange): boolean {
  const route = restRoute(exchange);
  if (route === null) return true;
  if (surface.rest.routesFor(route.replace(/\/+$/, '') || '/').length > 0) return true;
  return exchange.response.body?.includes('"code":"rest_no_route"') === true;
}

describe('replay of real WordPress traffic (wp-core-traffic.json)', function () {
  let oracle: OracleSite;
  let server: Server;
  let target: string;

  before(async () => {
    oracle = await openOracle();
    server = createApp(oracle.site, surface).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await oracle.close();
  });

  it('serves most of the capture (the rest is WordPress content Understudy does not stand in for)', () => {
    const inScope = exchanges.filter(served);
    assert.ok(inScope.length >= 30, `${inScope.length} of ${exchanges.length} exchanges in scope`);
    for (const exchange of exchanges.filter((e) => !served(e))) assert.match(restRoute(exchange) ?? '', /^\/wp\/v2\/(posts|types)/);
  });

  for (const exchange of exchanges) {
    it(`answers "${exchange.name}" as WordPress did`, async function () {
      if (!served(exchange)) this.skip();
      const actual = await sendCaptured(exchange.request, target);
      const diffs = compareResponses(exchange.response, actual, rules);
      assert.deepEqual(diffs, [], diffs.map((d) => `${d.where}: expected ${d.expected}, got ${d.actual}`).join('\n'));
    });
  }
});
