/** writeSupport(): one transaction per write, request keys claimed in it, caches forgotten after commit. */
import assert from 'node:assert/strict';
import { insertPost } from '../../../lib/wp/posts';
import { isRequestKeyStored } from '../../../lib/support/request-keys';
import { WriteContext, writeSupport } from '../../../lib/support/write';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('writeSupport', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const insertTestPost = (ctx: WriteContext) => insertPost(ctx.trx, ctx.tables, ctx.home, { post_type: 'svc_test', post_status: 'publish', date: ctx.dates });
  const postExists = async (id: number) => (await oracle.site.db.knex(oracle.site.db.tables.posts).where({ ID: id }).first('ID')) !== undefined;
  const key = (k: string, request: unknown) => ({ userId: 7, scope: 'test', key: k, request });

  it('returns what the work returns, and forgets the caches once the write is committed', async () => {
    let id = 0;
    const seenByForget: Array<Promise<boolean>> = [];
    const result = await writeSupport(oracle.site, { invalidates: [() => { seenByForget.push(postExists(id)); }] }, async (ctx) => {
      id = await insertTestPost(ctx);
      return id;
    });
    assert.equal(result, id);
    assert.deepEqual(await Promise.all(seenByForget), [true], 'forgotten once, after the row was committed');
  });

  it('gives the context the site\'s home URL and the time in site time, UTC and Unix seconds', async () => {
    const ctx = await writeSupport(oracle.site, {}, async (c) => ({ ...c, trx: null }));
    assert.equal(ctx.home, await oracle.site.homeUrl());
    assert.match(ctx.dates.gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(ctx.nowSeconds, Math.floor(oracle.clock.now() / 1000));
  });

  it('rolls back a failed write and forgets nothing', async () => {
    let forgotten = 0;
    let id = 0;
    await assert.rejects(writeSupport(oracle.site, { invalidates: [() => { forgotten += 1; }] }, async (ctx) => {
      id = await insertTestPost(ctx);
      throw new Error('refused');
    }), /refused/);
    assert.equal(await postExists(id), false);
    assert.equal(forgotten, 0);
  });

  it('runs a keyed write once: a repeat of the key replays the stored ID, a different request is refused', async () => {
    let runs = 0;
    const work = async (ctx: WriteContext) => { runs += 1; return insertTestPost(ctx); };
    const first = await writeSupport(oracle.site, { requestKey: key('k1', { a: 1 }) }, work);
    const again = await writeSupport(oracle.site, { requestKey: key('k1', { a: 1 }) }, work);
    assert.deepEqual(again, { id: first.id, replayed: true });
    assert.equal(first.replayed, false);
    assert.equal(runs, 1);
    await assert.rejects(writeSupport(oracle.site, { requestKey: key('k1', { a: 2 }) }, work), { code: 'svc_request_key_reused' });
  });

  it('runs a write without key every time', async () => {
    const one = await writeSupport(oracle.site, { requestKey: null }, insertTestPost);
    const two = await writeSupport(oracle.site, { requestKey: undefined }, insertTestPost);
    assert.notEqual(one.id, two.id);
    assert.equal(one.replayed || two.replayed, false);
  });

  it('runs the check before the key is claimed, hands its result to the work, and refuses repeats the same way', async () => {
    const checked = await writeSupport(oracle.site, { requestKey: key('k2', {}), check: async () => 'checked' }, async (ctx, value) => {
      assert.equal(value, 'checked');
      return insertTestPost(ctx);
    });
    assert.equal(checked.replayed, false);
    const refuse = async () => { throw new Error('not yours'); };
    await assert.rejects(writeSupport(oracle.site, { requestKey: key('k2', {}), check: refuse }, insertTestPost), /not yours/);
    await assert.rejects(writeSupport(oracle.site, { requestKey: key('k3', {}), check: refuse }, insertTestPost), /not yours/);
    assert.equal(await isRequestKeyStored(oracle.site.db, { userId: 7, scope: 'test', key: 'k3' }), false, 'a refused request claims no key');
  });
});
