/** The support desk's start-up check: the setup-failed notice, and the note about missing indexes. */
import assert from 'node:assert/strict';
import { memoryLogger } from '../../../lib/logger';
import { addIndexes, removeIndexes } from '../../../lib/support/db-indexes';
import { SETUP_FAILED_OPTION } from '../../../lib/support/storage-check';
import { checkSupportDeskAtStartup } from '../../../lib/support/startup';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('checkSupportDeskAtStartup', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('says which svc_* indexes are missing, and nothing once they are added', async () => {
    const before = memoryLogger();
    await checkSupportDeskAtStartup(oracle.site, before);
    assert.match(before.lines.map((l) => l.message).join('\n'), /svc_type_status_modified.*understudy db index add/);
    await addIndexes(oracle.site.db);
    try {
      const after = memoryLogger();
      await checkSupportDeskAtStartup(oracle.site, after);
      assert.deepEqual(after.lines, []);
    } finally {
      await removeIndexes(oracle.site.db);
    }
  });

  it('sets the setup-failed notice when storage is broken and clears its own notice when it works again', async () => {
    await oracle.site.db.knex.schema.renameTable('wp_svc_jobs', 'wp_svc_jobs_away');
    const broken = memoryLogger();
    await checkSupportDeskAtStartup(oracle.site, broken);
    assert.ok(broken.lines.some((l) => l.level === 'error' && /wp_svc_jobs is missing/.test(l.message)));
    assert.match(String(await oracle.site.options.getRaw(SETUP_FAILED_OPTION)), /wp_svc_jobs is missing/);
    await oracle.site.db.knex.schema.renameTable('wp_svc_jobs_away', 'wp_svc_jobs');
    await checkSupportDeskAtStartup(oracle.site, memoryLogger());
    assert.equal(await oracle.site.options.getRaw(SETUP_FAILED_OPTION), undefined);
  });
});
