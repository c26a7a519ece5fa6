import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * Receipts of incoming mail: one row per message a mailbox accepted, keyed by the relay's delivery ID
 * (or, for automation tools, the message's identity). The unique key makes a retried or concurrent
 * duplicate store once; the row is written in the transaction that stores the ticket or reply, so an
 * acknowledged message is always committed and a retry finds it. See docs/mail-intake.md.
 */
export const createMailReceipts: Migration = {
  name: '20261122-04-create-mail-receipts',
  async up(db: Database) {
    const table = db.tables.plugin('svc', 'mail_receipts');
    await createIfMissing(db, table, (t) => {
      t.bigIncrements('id');
      t.string('receipt_id', 32).notNullable();
      t.string('mailbox', 64).notNullable();
      t.string('dedupe_key', 100).notNullable();
      t.string('outcome', 20).notNullable();
      t.string('reason', 40).nullable();
      t.bigInteger('ticket_id').nullable();
      t.bigInteger('message_id').nullable();
      t.bigInteger('created_at').notNullable();
      t.unique(['mailbox', 'dedupe_key'], { indexName: ownIndexName(db, table, 'mailbox_dedupe_key') });
      t.unique(['receipt_id'], { indexName: ownIndexName(db, table, 'receipt_id') });
      t.index(['created_at'], ownIndexName(db, table, 'receipt_created_at'));
    });
  },
};
