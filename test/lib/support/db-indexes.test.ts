/** The opt-in svc_* indexes: added and removed only on command, on both engines, idempotently. */
import assert from 'node:assert/strict';
import { addIndexes, indexStatus, removeIndexes } from '../../../lib/support/db-indexes';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('svc_* indexes', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const present = async () => (await indexStatus(oracle.site.db)).map((s) => s.present);

  it('are absent on a WordPress database until the admin adds them, and go away on remove', async () => {
    assert.deepEqual(await present(), [false, false, false]);
    assert.equal((await addIndexes(oracle.site.db)).length, 3);
    assert.deepEqual(await present(), [true, true, true]);
    assert.deepEqual(await addIndexes(oracle.site.db), [], 'adding again changes nothing');
    assert.equal((await removeIndexes(oracle.site.db)).length, 3);
    assert.deepEqual(await present(), [false, false, false]);
  });

  it('leave WordPress\'s own indexes alone', async () => {
    const wpIndexes = async () => {
      if (oracle.site.db.dialect === 'mysql') {
        const [rows] = await oracle.site.db.knex.raw('SHOW INDEX FROM wp_posts');
        return [...new Set((rows as Array<{ Key_name: string }>).map((r) => r.Key_name))].filter((n) => !n.startsWith('svc_')).sort();
      }
      const rows = await oracle.site.db.knex.raw('PRAGMA index_list("wp_posts")');
      return (rows as Array<{ name: string }>).map((r) => r.name).filter((n) => !n.includes('svc_')).sort();
    };
    const before = await wpIndexes();
    await addIndexes(oracle.site.db);
    await removeIndexes(oracle.site.db);
    assert.deepEqual(await wpIndexes(), before);
  });
});
