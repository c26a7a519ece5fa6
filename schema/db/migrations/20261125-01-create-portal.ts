import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * The customer portal's sign-in (docs/portal.md): one pending code per site and address (an HMAC of
 * the code, never the code), and the sessions it opens (the SHA-256 of the token, never the token).
 */
export const createPortal: Migration = {
  name: '20261125-01-create-portal',
  async up(db: Database) {
    const codes = db.tables.plugin('svc', 'portal_codes');
    await createIfMissing(db, codes, (t) => {
      t.bigIncrements('id');
      t.string('site_id', 32).notNullable();
      t.string('email', 191).notNullable();
      t.string('code_hash', 64).notNullable();
      t.integer('failures').notNullable().defaultTo(0);
      t.bigInteger('sent_at').notNullable();
      t.bigInteger('expires_at').notNullable();
      t.unique(['site_id', 'email'], { indexName: ownIndexName(db, codes, 'portal_code_site_email') });
    });
    const sessions = db.tables.plugin('svc', 'portal_sessions');
    await createIfMissing(db, sessions, (t) => {
      t.bigIncrements('id');
      t.string('token_hash', 64).notNullable();
      t.string('site_id', 32).notNullable();
      t.string('email', 191).notNullable();
      t.bigInteger('created_at').notNullable();
      t.bigInteger('expires_at').notNullable();
      t.unique(['token_hash'], { indexName: ownIndexName(db, sessions, 'portal_session_token') });
      t.index(['site_id', 'email'], ownIndexName(db, sessions, 'portal_session_site_email'));
    });
  },
};
