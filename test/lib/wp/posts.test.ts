/** postMetaFor(): WordPress's update_meta_cache() read, the one way postmeta is read for several posts. */
import assert from 'node:assert/strict';
import { addPostMeta, insertPost, postMetaFor, singleMetaValues } from '../../../lib/wp/posts';
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
