/** A COUNT run with materialization on for that statement gives the same answer as the plain query. */
import assert from 'node:assert/strict';
import { selectWithMaterialization } from '../../../../lib/wp/db/optimizer';
import { OracleSite, openOracle } from '../../../harness/oracle';

describe('selectWithMaterialization', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('answers like the plain query, on every engine (MariaDB is recognised)', async () => {
    const { knex } = oracle.site.db;
    const query = () => knex('wp_posts as p').count({ n: '*' }).where('p.post_type', 'svc_ticket')
      .whereExists((sub) => sub.select(knex.raw('1')).from('wp_postmeta as m').whereRaw('m.post_id = p.ID').andWhere('m.meta_key', '_svc_priority').andWhere('m.meta_value', 'high'));
    const plain = await query();
    const tuned = await selectWithMaterialization<{ n: number }>(oracle.site.db, query());
    assert.equal(Number(tuned[0]?.n), Number((plain[0] as { n: number }).n));
    assert.ok(Number(tuned[0]?.n) > 0);
    if (oracle.site.db.dialect === 'mysql') {
      const [[version]] = await knex.raw('SELECT VERSION() AS v');
      assert.equal(oracle.site.db.server.mariadb, /mariadb/i.test(version.v));
    }
  });
});
