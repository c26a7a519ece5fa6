/** Understudy writes password hashes the live PHP site can verify. */
import assert from 'node:assert/strict';
import { WP_68_DB_VERSION, hashPasswordForSite } from '../../../lib/wp/password-format';
import { checkPassword } from '../../../lib/wp/passwords';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('hashPasswordForSite', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('writes phpass ($P$B) for a site older than WordPress 6.8, such as the 6.1 oracle', async () => {
    assert.equal(await oracle.site.options.get('db_version'), '53496');
    const hash = await hashPasswordForSite(oracle.site.options, '  new secret  ');
    assert.match(hash, /^\$P\$B.{30}$/);
    assert.equal(await checkPassword('new secret', hash), true, 'trimmed before hashing, as wp_hash_password does');
  });

  it('writes $wp$ bcrypt for WordPress 6.8 and later', async () => {
    await oracle.site.options.update('db_version', String(WP_68_DB_VERSION));
    try {
      const hash = await hashPasswordForSite(oracle.site.options, 'new secret');
      assert.match(hash, /^\$wp\$2y\$10\$.{53}$/);
      assert.equal(await checkPassword('new secret', hash), true);
    } finally {
      await oracle.site.options.update('db_version', '53496');
    }
  });
});
