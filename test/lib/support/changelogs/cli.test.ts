/**
 * `understudy changelog list|create|sync` (lib/cli/changelog.ts) over a scratch database and a real
 * HTTP source: WP-CLI's table and JSON, the last sync shown in the list, a failing sync exiting 1.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { Listening, listen } from '../../../harness/http';
import { cli, envFor } from '../../../cli/cli-harness';

const readme = fs.readFileSync(path.join(__dirname, '../../../fixtures/changelogs/readme.txt'), 'utf8');

describe('understudy changelog', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let server: Listening;
  let up = true;

  before(async () => {
    db = await scratchDatabase();
    server = await listen((_req, res) => (up ? res.writeHead(200, { 'Content-Type': 'text/plain' }).end(readme) : res.writeHead(404).end()));
    // The source is on loopback: the operator's setting lets this one port through.
    env = envFor(db.target, { OUTGOING_ALLOW: `127.0.0.1:${new URL(server.url).port}` });
  });
  after(async () => {
    await server.close();
    await db?.drop();
  });

  it('creates a product (slug from the name) and prints it as JSON', async () => {
    const run = await cli(['changelog', 'create', '--name=Acme Contact Forms', `--source=${server.url}/readme.txt`, '--kind=readme', '--format=json'], env);
    assert.equal(run.status, 0, run.stderr);
    const created = JSON.parse(run.stdout);
    assert.deepEqual([created.slug, created.name, created.type, created.source, created.kind, created.releases, created.latest, created.last_sync],
      ['acme-contact-forms', 'Acme Contact Forms', 'plugin', `${server.url}/readme.txt`, 'readme', 0, null, null]);
    assert.match(created.feed, /\/changelog\/acme-contact-forms\/feed\/$/);
  });

  it('refuses a second product with the same slug, a source that is not http(s), and a missing name', async () => {
    const twice = await cli(['changelog', 'create', '--name=Acme Contact Forms'], env);
    assert.deepEqual([twice.status, twice.stderr.trim()], [1, "Error: A changelog with the slug 'acme-contact-forms' exists already."]);
    const ftp = await cli(['changelog', 'create', '--name=Other', '--source=ftp://example.com/readme.txt'], env);
    assert.equal(ftp.status, 1);
    assert.match(ftp.stderr, /^Error: Invalid source: Only http and https/);
    assert.equal((await cli(['changelog', 'create'], env)).status, 1);
  });

  it('syncs by slug, and lists the product with its releases, latest and last sync', async () => {
    const run = await cli(['changelog', 'sync', 'acme-contact-forms'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), "Success: Synced 'acme-contact-forms'. Read 5 releases (readme): 5 added, 0 updated.");
    const listed = JSON.parse((await cli(['changelog', 'list', '--format=json'], env)).stdout);
    assert.deepEqual([listed[0].releases, listed[0].latest, listed[0].last_sync.ok, listed[0].last_sync.added], [5, '3.10.1', true, 5]);
    const table = (await cli(['changelog', 'list'], env)).stdout;
    assert.match(table, /\| ID +\| slug +\| name +\| type +\| releases \| latest +\| source +\| last_sync +\|/);
    assert.match(table, /acme-contact-forms .*\| 5 +\| 3\.10\.1 .*\| ok \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: Read 5 releases/);
  });

  it('fails a sync whose source fails, and shows that failure in the list', async () => {
    up = false;
    try {
      const run = await cli(['changelog', 'sync', 'acme-contact-forms'], env);
      assert.deepEqual([run.status, run.stderr.trim()], [1, "Error: Sync of 'acme-contact-forms' failed: The source answered HTTP 404."]);
    } finally {
      up = true;
    }
    const listed = JSON.parse((await cli(['changelog', 'list', '--format=json'], env)).stdout);
    assert.deepEqual([listed[0].releases, listed[0].last_sync.ok, listed[0].last_sync.message], [5, false, 'The source answered HTTP 404.']);
    assert.equal((await cli(['changelog', 'sync', 'no-such'], env)).stderr.trim(), "Error: Could not find the changelog 'no-such'.");
  });

  it('reads no source on loopback without OUTGOING_ALLOW, and stops at an OUTGOING_ALLOW it cannot read', async () => {
    const { OUTGOING_ALLOW: _allow, ...withoutAllow } = env;
    const run = await cli(['changelog', 'sync', 'acme-contact-forms'], withoutAllow);
    assert.equal(run.status, 1);
    // The caller's message says nothing of what answered; the operator's log says why.
    assert.match(run.stderr, /^Error: Sync of 'acme-contact-forms' failed: The source could not be reached\.$/m);
    assert.match(run.stderr, /^Warning: A changelog source could not be reached .*127\.0\.0\.1 port \d+ is not allowed/m);
    const bad = await cli(['changelog', 'list'], { ...env, OUTGOING_ALLOW: '127.0.0.1:99999' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /OUTGOING_ALLOW: "127\.0\.0\.1:99999" has no valid port/);
  });
});
