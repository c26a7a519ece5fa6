import { Database } from '../../../lib/wp/db/database';
import { Migration, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * What a receipt keeps of its message, so that ignored mail stays findable (docs/mail-intake.md,
 * "Receipts and durability"): the From as written, the subject, and for ignored mail the stored
 * message itself (a path under the private uploads folder). The index serves the lists of receipts
 * by outcome, newest first (`understudy mail receipts`, GET /mail/admin/ignored).
 */
export const addMailReceiptDetails: Migration = {
  name: '20261127-01-add-mail-receipt-details',
  async up(db: Database) {
    const table = db.tables.plugin('svc', 'mail_receipts');
    // Another process migrating at the same moment may have added them first.
    if (await db.knex.schema.hasColumn(table, 'raw_file')) return;
    await db.knex.schema.alterTable(table, (t) => {
      t.string('raw_from', 998).nullable();
      t.string('subject', 255).nullable();
      t.string('raw_file', 255).nullable();
      t.index(['outcome', 'created_at'], ownIndexName(db, table, 'receipt_outcome_created_at'));
    }).catch(async (err: unknown) => {
      if (!(await db.knex.schema.hasColumn(table, 'raw_file'))) throw err;
    });
  },
};
