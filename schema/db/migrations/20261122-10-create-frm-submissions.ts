import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing } from '../../../lib/wp/db/migrate';

/**
 * The form service's submissions table, `{p}frm_submissions`, in the shape the hand-written-HTML form
 * plugin family gives it (see the storage map). An existing site already has the table, made by the
 * plugin itself: then nothing is touched. `data` is TEXT there (64 KiB on MySQL), so the submit path
 * refuses larger submissions instead of letting MySQL truncate the JSON. Frozen copy of the spec.
 */
export const createFrmSubmissions: Migration = {
  name: '20261122-10-create-frm-submissions',
  async up(db: Database) {
    await createIfMissing(db, db.tables.plugin('frm', 'submissions'), (t) => {
      t.increments('id');
      t.integer('form_id').unsigned().notNullable();
      t.text('data').notNullable();
      t.text('user_agent').nullable();
      t.string('ip_address', 255).nullable();
      t.text('referer_url').nullable();
      t.tinyint('is_spam').notNullable().defaultTo(0);
      t.dateTime('submitted_at').notNullable();
      // Lists and exports read one form's submissions newest first.
      t.index(['form_id', 'submitted_at']);
    });
  },
};
