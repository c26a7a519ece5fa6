/**
 * Live route switches: the routing file is read again when it changes (and on SIGHUP, which calls
 * reload), a route moves from shadow to serve without a restart, and a broken file or a changed
 * shadow section keeps the routes in force and says why.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSurface } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { LiveRouting } from '../../../lib/proxy/live-routing';
import { routeKeyOf, targetOf } from '../../../lib/replay/route-key';
import { eventually } from '../../harness/eventually';

const surface = buildSurface();
const modeOf = (routing: LiveRouting, url: string) => {
  const target = targetOf(url);
  return routing.decide(target, routeKeyOf(target, surface.rest));
};

describe('live routing file', () => {
  let dir: string;
  let file: string;
  let routing: LiveRouting | undefined;
  const logger = memoryLogger();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-routes-'));
    file = path.join(dir, 'routes.json');
    fs.writeFileSync(file, JSON.stringify({ routes: { '/support/v1/tickets': 'shadow' } }));
    logger.lines.length = 0;
  });
  afterEach(() => {
    routing?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('moves a route from shadow to serve when the file is edited, and back', async () => {
    routing = new LiveRouting({ file, surface, logger, debounceMs: 20, pollMs: 100 });
    routing.watch();
    assert.equal(modeOf(routing, '/wp-json/support/v1/tickets'), 'shadow');
    fs.writeFileSync(file, JSON.stringify({ routes: { '/support/v1/tickets': 'serve' } }));
    await eventually(async () => modeOf(routing as LiveRouting, '/wp-json/support/v1/tickets') === 'serve', 5000);
    assert.ok(logger.lines.some((l) => /re-read .*routes \/support\/v1\/tickets: shadow -> serve/.test(l.message)), JSON.stringify(logger.lines));
    // An editor's save: a new file renamed over the old one.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ routes: { '/support/v1/tickets': 'shadow' } }));
    fs.renameSync(`${file}.tmp`, file);
    await eventually(async () => modeOf(routing as LiveRouting, '/wp-json/support/v1/tickets') === 'shadow', 5000);
  });

  it('keeps the routes in force when the new file is broken, and says why', () => {
    routing = new LiveRouting({ file, surface, logger });
    fs.writeFileSync(file, '{ "routes": { "/support/v1/tickets": "serve" ');
    assert.equal(routing.reload('SIGHUP'), false);
    assert.equal(modeOf(routing, '/wp-json/support/v1/tickets'), 'shadow');
    assert.match(logger.lines.at(-1)?.message ?? '', /routes\.json not applied \(SIGHUP\); the previous routes stay in force/);
    fs.writeFileSync(file, JSON.stringify({ routes: { '/nope/v9/**': 'serve' } }));
    assert.equal(routing.reload('SIGHUP'), false);
    assert.match(String(logger.lines.at(-1)?.fields?.error), /Understudy has no route matching "\/nope\/v9\/\*\*"/);
    fs.writeFileSync(file, JSON.stringify({ routes: { '/support/v1/tickets': 'pass' } }));
    assert.equal(routing.reload('SIGHUP'), true);
    assert.equal(modeOf(routing, '/wp-json/support/v1/tickets'), 'pass');
  });

  it('refuses a change of the shadow section, which needs a restart', () => {
    routing = new LiveRouting({ file, surface, logger });
    fs.writeFileSync(file, JSON.stringify({ routes: { '/support/v1/tickets': 'serve' }, shadow: { writes: true, databaseIsCopy: true } }));
    assert.equal(routing.reload('SIGHUP'), false);
    assert.equal(modeOf(routing, '/wp-json/support/v1/tickets'), 'shadow');
    assert.match(String(logger.lines.at(-1)?.fields?.error), /shadow section changed/);
  });

  it('stops a start on a broken file', () => {
    fs.writeFileSync(file, '{');
    assert.throws(() => new LiveRouting({ file, surface, logger }), /Routing file routes\.json/);
  });
});
