import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * Idempotency records: a client's `request_key` per user and scope, with the hash of the request it
 * came with and the resource it created. The unique key makes concurrent repeats store once.
 */
export const createRequestKeys: Migration = {
  name: '20261122-02-create-request-keys',
  async up(db: Database) {
    const table = db.tables.plugin('svc', 'request_keys');
    await createIfMissing(db, table, (t) => {
      t.bigIncrements('id');
      t.bigInteger('user_id').notNullable();
      t.string('scope', 64).notNullable();
      t.string('request_key', 191).notNullable();
      t.string('request_hash', 64).notNullable();
      t.bigInteger('resource_id').nullable();
      t.bigInteger('created_at').notNullable();
      t.unique(['user_id', 'scope', 'request_key'], { indexName: ownIndexName(db, table, 'user_scope_key') });
      t.index(['created_at'], ownIndexName(db, table, 'created_at'));
    });
  },
};
