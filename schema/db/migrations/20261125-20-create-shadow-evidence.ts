import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * Shadow evidence (docs/replay-and-proxy.md): counters per route and hour, added to atomically by
 * every proxy process sharing the database; and the latest differences per route, already redacted,
 * kept up to a count per route. Both are kept a configurable number of days.
 */
export const createShadowEvidence: Migration = {
  name: '20261125-20-create-shadow-evidence',
  async up(db: Database) {
    const counts = db.tables.plugin('svc', 'shadow_counts');
    await createIfMissing(db, counts, (t) => {
      t.string('route', 191).notNullable();
      t.bigInteger('hour_start').notNullable();
      for (const counter of ['matched', 'differed', 'noise_cancelled', 'failed', 'dropped', 'skipped']) t.bigInteger(counter).notNullable().defaultTo(0);
      t.primary(['route', 'hour_start']);
      t.index(['hour_start'], ownIndexName(db, counts, 'shadow_counts_hour'));
    });
    const diffs = db.tables.plugin('svc', 'shadow_diffs');
    await createIfMissing(db, diffs, (t) => {
      t.bigIncrements('id');
      t.string('route', 191).notNullable();
      t.bigInteger('seen_at').notNullable();
      t.string('method', 16).notNullable();
      t.text('url').notNullable();
      t.integer('diff_count').notNullable();
      t.text('diffs', 'mediumtext').notNullable();
      t.index(['route', 'id'], ownIndexName(db, diffs, 'shadow_diffs_route'));
      t.index(['seen_at'], ownIndexName(db, diffs, 'shadow_diffs_seen'));
    });
  },
};
