import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * The durable job queue and event outbox: work that must happen after an answer (team alerts, email
 * deliveries) is recorded here in the same transaction as the change that causes it.
 */
export const createJobs: Migration = {
  name: '20261122-03-create-jobs',
  async up(db: Database) {
    const table = db.tables.plugin('svc', 'jobs');
    await createIfMissing(db, table, (t) => {
      t.bigIncrements('id');
      t.string('kind', 64).notNullable();
      t.text('payload', 'longtext').notNullable();
      t.string('status', 20).notNullable().defaultTo('queued');
      t.bigInteger('run_at').notNullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.string('locked_by', 64).nullable();
      t.bigInteger('locked_until').nullable();
      t.text('last_error').nullable();
      t.bigInteger('created_at').notNullable();
      t.bigInteger('updated_at').notNullable();
      t.index(['status', 'run_at'], ownIndexName(db, table, 'status_run_at'));
      t.index(['kind'], ownIndexName(db, table, 'kind'));
    });
  },
};
