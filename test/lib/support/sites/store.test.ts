/**
 * Connected sites as stored (docs/sites.md): an svc_site post with the site-id as post_name, settings
 * in _svc_* postmeta (arrays PHP-serialized), the key only as a hash; rows PHP may write read as PHP
 * would; and what the caller resolver makes of a request's credentials.
 */
import assert from 'node:assert/strict';
import { SiteError, changeConnectedSite, createConnectedSite, deleteConnectedSite, getConnectedSite, rotateSiteKey } from '../../../../lib/support/sites/admin';
import { bearerSecretOf, hashBearerSecret } from '../../../../lib/support/bearer-secrets';
import { siteCallerOf } from '../../../../lib/support/sites/caller';
import { presentSite } from '../../../../lib/support/sites/present';
import { findSite, listSites } from '../../../../lib/support/sites/store';
import { WpError } from '../../../../lib/wp/errors';
import { siteSchema } from '../../../../schema/support/site';
import { OracleSite, openOracle, phpConnection } from '../../../harness/oracle';

describe('connected sites: storage and callers', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const rowsOf = async (siteId: string) => {
    const { knex } = oracle.site.db;
    const post = await knex('wp_posts').where({ post_type: 'svc_site', post_name: siteId }).first();
    const meta = Object.fromEntries((await knex('wp_postmeta').where({ post_id: post.ID }).orderBy('meta_id'))
      .map((m: { meta_key: string; meta_value: string }) => [m.meta_key, m.meta_value]));
    return { post, meta };
  };

  it('stores a new site as an svc_site post with its settings in _svc_* postmeta and only the key\'s hash', async () => {
    const { site, key } = await createConnectedSite(oracle.site, {
      name: 'Docs Site', origins: ['https://Docs.Example/', 'http://localhost:3000'], portal: true, messageHint: ' Include your order number. ',
      docCollections: ['getting-started', 'billing'],
    });
    const { post, meta } = await rowsOf(site.siteId);
    assert.deepEqual([post.post_type, post.post_status, post.post_title, post.post_name], ['svc_site', 'publish', 'Docs Site', site.siteId]);
    assert.deepEqual(meta, {
      _svc_key_hash: hashBearerSecret(key),
      _svc_origins: 'a:2:{i:0;s:20:"https://docs.example";i:1;s:21:"http://localhost:3000";}',
      _svc_portal: '1',
      _svc_new_tickets: '1',
      _svc_message_limit: '5000',
      _svc_message_hint: 'Include your order number.',
      _svc_customer_can_resolve: '1',
      _svc_customer_can_reopen: '1',
      _svc_doc_collections: 'a:2:{i:0;s:15:"getting-started";i:1;s:7:"billing";}',
    });
    assert.ok(!JSON.stringify(await oracle.site.db.knex('wp_postmeta').select('meta_value')).includes(key), 'the key itself is stored nowhere');
    assert.deepEqual(presentSite(site), {
      site_id: site.siteId, name: 'Docs Site', origins: ['https://docs.example', 'http://localhost:3000'], portal: true, new_tickets: true,
      message_limit: 5000, message_hint: 'Include your order number.', customer_can_resolve: true, customer_can_reopen: true,
      doc_collections: ['getting-started', 'billing'], created_at: site.createdAt, updated_at: site.updatedAt,
    });
    assert.deepEqual(Object.keys(presentSite(site)), Object.keys(siteSchema.properties), 'the item schema\'s properties, in order');
  });

  it('changes settings, rotates the key and deletes the site (its tickets would keep their site-id)', async () => {
    const { site, key } = await createConnectedSite(oracle.site, { name: 'Temp' });
    const changed = await changeConnectedSite(oracle.site, site.siteId, { name: 'Renamed', origins: [], newTickets: false, messageLimit: 200, customerCanReopen: false });
    assert.deepEqual([changed.name, changed.origins, changed.newTickets, changed.messageLimit, changed.customerCanReopen, changed.portal], ['Renamed', [], false, 200, false, false]);
    assert.equal((await rowsOf(site.siteId)).post.post_title, 'Renamed');
    const rotated = await rotateSiteKey(oracle.site, site.siteId);
    assert.notEqual(rotated.key, key);
    assert.equal((await rowsOf(site.siteId)).meta._svc_key_hash, hashBearerSecret(rotated.key));
    await deleteConnectedSite(oracle.site, site.siteId);
    assert.equal(await findSite(oracle.site.db, site.siteId), null);
    assert.equal(Number((await oracle.site.db.knex('wp_postmeta').where({ post_id: site.postId }).count({ n: '*' }))[0]?.n), 0);
    await assert.rejects(getConnectedSite(oracle.site, site.siteId), SiteError);
  });

  it('refuses bad settings with a message, changing nothing', async () => {
    const { site } = await createConnectedSite(oracle.site, { name: 'Strict', origins: ['https://strict.example'] });
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ origins: ['null'] }, /never a listed address/],
      [{ origins: ['https://strict.example/path'] }, /without a path/],
      [{ name: '   ' }, /Invalid name/],
      [{ messageLimit: 0 }, /Invalid message limit/],
      [{ messageLimit: 70000 }, /Invalid message limit/],
      [{ messageHint: 'x'.repeat(501) }, /at most 500/],
      [{ docCollections: ['Bad Slug'] }, /Invalid doc collection/],
    ];
    for (const [change, message] of bad) await assert.rejects(changeConnectedSite(oracle.site, site.siteId, change), message, JSON.stringify(change));
    await assert.rejects(createConnectedSite(oracle.site, { name: 'X', origins: ['null'] }), SiteError);
    assert.deepEqual((await getConnectedSite(oracle.site, site.siteId)).origins, ['https://strict.example']);
  });

  it('reads rows as PHP may write them: flags in PHP\'s spellings, defaults for missing keys, no null or path among the addresses', async () => {
    const php = phpConnection(oracle);
    try {
      const [id] = await php('wp_posts').insert({
        post_author: 0, post_date: '2026-01-01 00:00:00', post_date_gmt: '2026-01-01 00:00:00', post_content: '', post_title: 'From PHP', post_excerpt: '',
        post_status: 'publish', comment_status: 'closed', ping_status: 'closed', post_password: '', post_name: 'phpsite00001', to_ping: '', pinged: '',
        post_modified: '2026-01-01 00:00:00', post_modified_gmt: '2026-01-01 00:00:00', post_content_filtered: '', post_parent: 0, guid: '', menu_order: 0,
        post_type: 'svc_site', post_mime_type: '', comment_count: 0,
      });
      await php('wp_postmeta').insert([
        { post_id: id, meta_key: '_svc_origins', meta_value: 'a:3:{i:0;s:4:"null";i:1;s:20:"https://php.example/";i:2;s:19:"https://php.example";}' },
        { post_id: id, meta_key: '_svc_portal', meta_value: 'yes' },
        { post_id: id, meta_key: '_svc_new_tickets', meta_value: '' },
        { post_id: id, meta_key: '_svc_message_limit', meta_value: 'lots' },
      ]);
    } finally {
      await php.destroy();
    }
    const found = await findSite(oracle.site.db, 'phpsite00001');
    assert.ok(found);
    assert.deepEqual([found.origins, found.portal, found.newTickets, found.messageLimit, found.customerCanResolve, found.keyHash],
      [['https://php.example'], true, false, 5000, true, '']);
    assert.ok((await listSites(oracle.site.db)).some((s) => s.siteId === 'phpsite00001'));
    // Without a stored hash no key opens it.
    assert.equal((siteCallerOf(await findSite(oracle.site.db, 'phpsite00001'), '', undefined) as WpError).code, 'svc_invalid_site_key');
  });

  it('finds the key in Authorization: Bearer, else X-Svc-Key; another scheme is no key', () => {
    assert.equal(bearerSecretOf('Bearer abc', undefined), 'abc');
    assert.equal(bearerSecretOf('bearer   abc  ', 'other'), 'abc');
    assert.equal(bearerSecretOf('Bearer', undefined), '');
    assert.equal(bearerSecretOf(undefined, ' abc '), 'abc');
    assert.equal(bearerSecretOf('Basic dXNlcjpwdw==', undefined), undefined);
    assert.equal(bearerSecretOf('Basic dXNlcjpwdw==', 'abc'), 'abc');
    assert.equal(bearerSecretOf(undefined, undefined), undefined);
  });

  it('resolves the caller: the server with the key, a browser on a listed address, refusals otherwise', async () => {
    const { site, key } = await createConnectedSite(oracle.site, { name: 'Callers', origins: ['https://callers.example'] });
    const resolve = async (k: string | undefined, origin?: string, id = site.siteId) => siteCallerOf(await findSite(oracle.site.db, id), k, origin);
    const server = await resolve(key);
    assert.ok(!(server instanceof WpError) && server.kind === 'server');
    const serverWithOrigin = await resolve(key, 'https://callers.example');
    assert.ok(!(serverWithOrigin instanceof WpError) && serverWithOrigin.kind === 'server');
    const browser = await resolve(undefined, 'https://callers.example');
    assert.ok(!(browser instanceof WpError) && browser.kind === 'browser' && browser.origin === 'https://callers.example');
    const codes = async (...calls: Array<Promise<unknown>>) => (await Promise.all(calls)).map((r) => (r as WpError).code);
    assert.deepEqual(await codes(resolve('wrong'), resolve(undefined), resolve(undefined, 'https://other.example'), resolve(undefined, 'null'), resolve(key, undefined, 'nosuchsite00')), [
      'svc_invalid_site_key', 'svc_site_key_required', 'svc_site_key_required', 'svc_site_key_required', 'svc_site_not_found',
    ]);
  });
});
