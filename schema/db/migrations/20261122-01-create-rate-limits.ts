import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/** Per-route, per-key request counters shared by every Understudy process (fixed windows). */
export const createRateLimits: Migration = {
  name: '20261122-01-create-rate-limits',
  async up(db: Database) {
    const table = db.tables.plugin('svc', 'rate_limits');
    await createIfMissing(db, table, (t) => {
      t.string('bucket', 191).notNullable();
      t.bigInteger('window_start').notNullable();
      t.integer('hits').notNullable().defaultTo(0);
      t.bigInteger('expires_at').notNullable();
      t.primary(['bucket', 'window_start']);
      t.index(['expires_at'], ownIndexName(db, table, 'expires_at'));
    });
  },
};
