import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing } from '../../../lib/wp/db/migrate';

/**
 * Shadow evidence (docs/replay-and-proxy.md): counters per route and hour, added to atomically by
 * every proxy process sharing the database; and the latest differences per route, already redacted,
 * kept up to a count per route. Both are kept a configurable number of days.
 */
export const createShadowEvidence: Migration = {
  name: '20261125-20-create-shadow-evidence',
  async up(db: Database) {
    await createIfMissing(db, db.tables.plugin('svc', 'shadow_counts'), (t, index) => {
      t.string('route', 191).notNullable();
      t.bigInteger('hour_start').notNullable();
      for (const counter of ['matched', 'differed', 'noise_cancelled', 'failed', 'dropped', 'skipped']) t.bigInteger(counter).notNullable().defaultTo(0);
      t.primary(['route', 'hour_start']);
      t.index(['hour_start'], index('shadow_counts_hour'));
    });
    await createIfMissing(db, db.tables.plugin('svc', 'shadow_diffs'), (t, index) => {
      t.bigIncrements('id');
      t.string('route', 191).notNullable();
      t.bigInteger('seen_at').notNullable();
      t.string('method', 16).notNullable();
      t.text('url').notNullable();
      t.integer('diff_count').notNullable();
      t.text('diffs', 'mediumtext').notNullable();
      t.index(['route', 'id'], index('shadow_diffs_route'));
      t.index(['seen_at'], index('shadow_diffs_seen'));
    });
  },
};
