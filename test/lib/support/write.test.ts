/** writeSupport(): one transaction per write, request keys claimed in it, the site's desk told after commit. */
import assert from 'node:assert/strict';
import { memoryLogger } from '../../../lib/logger';
import { insertPost } from '../../../lib/wp/posts';
import { DeskPart, deskOf } from '../../../lib/support/desk';
import { isRequestKeyStored } from '../../../lib/support/request-keys';
import { WriteContext, writeSupport } from '../../../lib/support/write';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('writeSupport', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });
  // The recorders below are this suite's own pieces of the desk: each test starts without them.
  afterEach(() => { deskOf(oracle.site).reset(); });

  const insertTestPost = (ctx: WriteContext) => insertPost(ctx.trx, ctx.tables, ctx.home, { post_type: 'svc_test', post_status: 'publish', date: ctx.dates });
  const postExists = async (id: number) => (await oracle.site.db.knex(oracle.site.db.tables.posts).where({ ID: id }).first('ID')) !== undefined;
  const key = (k: string, request: unknown) => ({ userId: 7, scope: 'test', key: k, request });

  /** A piece of the site's desk that records what each write told it, and whether the write's post was stored by then. */
  const recorder = (fail = false): DeskPart<{ told: Array<{ tickets: number[]; committed: Promise<boolean> }> }> => ({
    name: 'test recorder',
    make: () => ({ told: [] }),
    afterWrite: (state, written) => {
      state.told.push({ tickets: [...written.tickets ?? []], committed: postExists(lastId) });
      if (fail) throw new Error('cache down');
    },
  });
  let lastId = 0;

  it('returns what the work returns, and tells the site\'s desk what changed once the write is committed', async () => {
    const part = recorder();
    const { told } = deskOf(oracle.site).get(part);
    const result = await writeSupport(oracle.site, {}, async (ctx) => {
      lastId = await insertTestPost(ctx);
      ctx.changedTickets.add(lastId);
      return lastId;
    });
    assert.equal(result, lastId);
    assert.deepEqual(told.map((t) => t.tickets), [[lastId]], 'told once');
    assert.equal(await told[0]?.committed, true, 'after the row was committed');
  });

  it('answers a committed write when a piece of the desk fails to follow it, and logs it', async () => {
    const { told } = deskOf(oracle.site).get(recorder(true));
    const id = await writeSupport(oracle.site, {}, async (ctx) => (lastId = await insertTestPost(ctx)));
    assert.equal(await postExists(id), true);
    assert.equal(told.length, 1);
    const { lines } = oracle.site.logger as ReturnType<typeof memoryLogger>;
    assert.ok(lines.some((l) => l.level === 'warn' && l.message.includes('could not follow a write') && l.fields?.cache === 'test recorder'), JSON.stringify(lines));
  });

  it('gives the context the site\'s home URL and the time in site time, UTC and Unix seconds', async () => {
    const ctx = await writeSupport(oracle.site, {}, async (c) => ({ ...c, trx: null }));
    assert.equal(ctx.home, await oracle.site.homeUrl());
    assert.match(ctx.dates.gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(ctx.nowSeconds, Math.floor(oracle.clock.now() / 1000));
  });

  it('rolls back a failed write and tells the desk nothing', async () => {
    const { told } = deskOf(oracle.site).get(recorder());
    await assert.rejects(writeSupport(oracle.site, {}, async (ctx) => {
      lastId = await insertTestPost(ctx);
      throw new Error('refused');
    }), /refused/);
    assert.equal(await postExists(lastId), false);
    assert.equal(told.length, 0);
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
