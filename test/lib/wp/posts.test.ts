/**
 * postMetaFor(): WordPress's update_meta_cache() read, the one way postmeta is read for several posts;
 * PostWrites: several new posts' guids, slugs and meta written in a few statements.
 */
import assert from 'node:assert/strict';
import { PostWrites, addPostMeta, insertPost, postMetaFor, singleMetaValues } from '../../../lib/wp/posts';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('postMetaFor', function () {
  let oracle: OracleSite;
  const ids: number[] = [];
  before(async () => {
    oracle = await openOracle();
    const { knex, tables } = oracle.site.db;
    const date = { local: '2026-01-02 03:04:05', gmt: '2026-01-02 03:04:05' };
    for (let i = 0; i < 3; i++) ids.push(await insertPost(knex, tables, 'http://example.test', { post_type: 'svc_test', post_status: 'publish', date }));
    const [first, second] = ids as [number, number];
    // Two rows of one key, written in this order: the first stays the single value.
    await addPostMeta(knex, tables, first, { _svc_a: 'one', _svc_b: 'b' });
    await addPostMeta(knex, tables, first, { _svc_a: 'two' });
    await knex(tables.postmeta).insert({ post_id: second, meta_key: '_svc_a', meta_value: null });
  });
  after(async () => { await oracle.close(); });

  const read = (postIds: number[], keys?: string[]) => postMetaFor(oracle.site.db.knex, oracle.site.db.tables, postIds, keys);
  const queriesOf = async (work: () => Promise<unknown>) => {
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    oracle.site.db.knex.on('query', listen);
    try {
      await work();
    } finally {
      oracle.site.db.knex.off('query', listen);
    }
    return queries;
  };

  it('groups every value per post and key in meta_id order; a single read takes the first', async () => {
    const [first, second, third] = ids as [number, number, number];
    const meta = await read([first, second, third]);
    assert.deepEqual(meta.get(first)?.get('_svc_a'), ['one', 'two']);
    assert.deepEqual([...singleMetaValues(meta.get(first))], [['_svc_a', 'one'], ['_svc_b', 'b']]);
    assert.deepEqual(meta.get(second)?.get('_svc_a'), [''], 'a NULL value reads as the empty string');
    assert.equal(meta.has(third), false, 'a post without meta is absent');
    assert.equal(singleMetaValues(meta.get(third)).size, 0);
  });

  it('narrows the read to the keys asked for', async () => {
    const meta = await read([ids[0] as number], ['_svc_b']);
    assert.deepEqual([...singleMetaValues(meta.get(ids[0] as number))], [['_svc_b', 'b']]);
  });

  it('makes one query for a few posts, none for no posts', async () => {
    assert.equal((await queriesOf(() => read(ids))).length, 1);
    assert.deepEqual(await queriesOf(() => read([])), []);
  });

  it('reads more posts than one SQLite statement may name (999 variables) in several queries', async () => {
    const many = [...Array.from({ length: 2500 }, (_, i) => 10_000_000 + i), ...ids];
    let meta = new Map();
    const queries = await queriesOf(async () => { meta = await read(many, ['_svc_a', '_svc_b']); });
    assert.equal(queries.length, 3, '2503 posts and 2 keys: 997 posts a query');
    assert.deepEqual([...meta.keys()].sort((a, b) => a - b), ids.slice(0, 2));
  });
});

describe('PostWrites', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const date = { local: '2026-01-02 03:04:05', gmt: '2026-01-02 03:04:05' };
  const home = 'http://example.test';

  it('gives every post of a large batch its guid, slug and meta, in statements within SQLite\'s variable bound', async () => {
    const { knex, tables } = oracle.site.db;
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    const ids: number[] = [];
    await knex.transaction(async (trx) => {
      const writes = new PostWrites(trx, tables, home);
      for (let i = 0; i < 450; i++) {
        const id = await writes.insert({
          post_type: 'svc_test', post_status: 'publish', date, post_title: i % 3 ? `Title ${i}` : '',
          post_name: i % 2 ? (postId) => `item-${postId}` : undefined,
        });
        writes.addMeta(id, { _svc_a: i, _svc_b: 'b' });
        ids.push(id);
      }
      knex.on('query', listen);
      try {
        await writes.flush();
      } finally {
        knex.off('query', listen);
      }
    });
    assert.equal(queries.length, 6, '450 posts: 3 updates of up to 199 posts, 3 inserts of up to 333 meta rows');
    const rows = await knex(tables.posts).whereIn('ID', ids).orderBy('ID').select('ID', 'guid', 'post_name');
    rows.forEach((row: { ID: number; guid: string; post_name: string }, i: number) => {
      assert.equal(row.guid, `${home}/?post_type=svc_test&p=${row.ID}`);
      // A slug from the ID when asked for; else WordPress's fallback (the ID) only for a post without title.
      assert.equal(row.post_name, i % 2 ? `item-${row.ID}` : i % 3 ? '' : String(row.ID));
    });
    const meta = await postMetaFor(knex, tables, ids);
    ids.forEach((id, i) => assert.deepEqual([...singleMetaValues(meta.get(id))], [['_svc_a', String(i)], ['_svc_b', 'b']]));
  });

  it('inserts many posts in a few statements, each with the ID, slug, guid and parent (another of them) it would get alone', async () => {
    const { knex, tables } = oracle.site.db;
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    const ids = await knex.transaction(async (trx) => {
      const writes = new PostWrites(trx, tables, home);
      knex.on('query', listen);
      try {
        // 100 parents, then a child of each: more rows than one SQLite INSERT may hold (45).
        const inserted = await writes.insertMany([
          ...Array.from({ length: 100 }, (_, i) => ({ post_type: 'svc_test', post_status: 'publish', date, post_title: `Parent ${i}`, post_name: (id: number) => `parent-${id}` })),
          ...Array.from({ length: 100 }, (_, i) => ({ post_type: 'svc_test', post_status: 'publish', date, post_parent: { sibling: i }, post_name: i % 2 ? 'named' : undefined })),
        ]);
        await writes.flush();
        return inserted;
      } finally {
        knex.off('query', listen);
      }
    });
    assert.ok(queries.length <= 10, `${queries.length} statements:\n${queries.join('\n')}`);
    type Row = { ID: number; guid: string; post_name: string; post_parent: number; post_title: string };
    const rows: Row[] = await knex(tables.posts).whereIn('ID', ids).select('ID', 'guid', 'post_name', 'post_parent', 'post_title');
    const byId = new Map(rows.map((r) => [Number(r.ID), r]));
    ids.forEach((id, i) => {
      const row = byId.get(id) as Row;
      assert.equal(row.guid, `${home}/?post_type=svc_test&p=${id}`);
      if (i < 100) assert.deepEqual([row.post_title, row.post_name, Number(row.post_parent)], [`Parent ${i}`, `parent-${id}`, 0]);
      else assert.deepEqual([row.post_name, Number(row.post_parent)], [i % 2 ? 'named' : String(id), ids[i - 100]]);
    });
  });
});
