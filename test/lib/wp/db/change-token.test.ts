/** The change token of posts and postmeta: stable while nothing is written, different after any write. */
import assert from 'node:assert/strict';
import { Knex } from 'knex';
import { changeToken } from '../../../../lib/wp/db/change-token';
import { OracleSite, openOracle, phpConnection } from '../../../harness/oracle';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('changeToken', function () {
  let oracle: OracleSite;
  let php: Knex;
  before(async () => {
    oracle = await openOracle();
    php = phpConnection(oracle);
  });
  after(async () => {
    await php.destroy();
    await oracle.close();
  });

  /** A token once the last write is in an earlier second (MySQL's change times have one-second resolution). */
  const settled = async (token: () => Promise<string | null>) => {
    await sleep(1100);
    const value = await token();
    assert.notEqual(value, null, 'a settled table has a trusted token');
    return value;
  };

  it('stays the same while nothing is written', async () => {
    const token = changeToken(oracle.site.db, ['wp_posts', 'wp_postmeta']);
    const first = await settled(token);
    await sleep(100);
    assert.equal(await token(), first);
  });

  it('changes after another connection writes postmeta (the PHP site)', async () => {
    const token = changeToken(oracle.site.db, ['wp_posts', 'wp_postmeta']);
    const before = await settled(token);
    await php('wp_postmeta').where({ post_id: 4, meta_key: '_svc_priority' }).update({ meta_value: 'urgent' });
    await sleep(60);
    assert.notEqual(await token(), before);
  });

  it('changes after this process writes posts through its own connection', async () => {
    const token = changeToken(oracle.site.db, ['wp_posts', 'wp_postmeta']);
    const before = await settled(token);
    await oracle.site.db.knex('wp_posts').where({ ID: 4 }).update({ post_modified: '2027-01-01 00:00:00' });
    await sleep(60);
    assert.notEqual(await token(), before);
  });
});
