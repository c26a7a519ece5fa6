import { Database } from '../../../lib/wp/db/database';
import { Migration, createIfMissing, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * Docs feedback (docs/docs.md): one row per doc, visitor and site-local day. The visitor is a keyed
 * hash of the address (HMAC-SHA-256, hex), never the address; a second vote that day updates the row.
 */
export const createDocVotes: Migration = {
  name: '20261125-05-create-doc-votes',
  async up(db: Database) {
    const table = db.tables.plugin('svc', 'doc_votes');
    await createIfMissing(db, table, (t) => {
      t.bigIncrements('id');
      t.bigInteger('doc_id').unsigned().notNullable();
      t.string('visitor', 64).notNullable();
      t.string('vote_day', 10).notNullable();
      t.tinyint('helpful').notNullable();
      t.text('comment').notNullable();
      t.bigInteger('voted_at').notNullable();
      t.unique(['doc_id', 'visitor', 'vote_day'], { indexName: ownIndexName(db, table, 'doc_vote_visitor_day') });
    });
  },
};
