import { Database } from '../../../lib/wp/db/database';
import { Migration, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * Expired portal codes and sessions are swept at each sign-in (lib/support/portal/store.ts): an index
 * on `expires_at` keeps that sweep from reading the whole table.
 */
export const indexPortalExpiry: Migration = {
  name: '20261125-02-index-portal-expiry',
  async up(db: Database) {
    for (const [table, name] of [['portal_codes', 'portal_code_expires'], ['portal_sessions', 'portal_session_expires']] as const) {
      const named = db.tables.plugin('svc', table);
      await db.knex.schema.alterTable(named, (t) => {
        t.index(['expires_at'], ownIndexName(db, named, name));
      }).catch((err: unknown) => {
        // Another process migrating at the same moment made it first.
        if (!isDuplicateIndex(err)) throw err;
      });
    }
  },
};

function isDuplicateIndex(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === 'ER_DUP_KEYNAME' || /index \S+ already exists/i.test(e.message ?? '');
}
