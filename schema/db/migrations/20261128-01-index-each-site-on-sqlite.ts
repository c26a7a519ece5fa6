import { Database } from '../../../lib/wp/db/database';
import { Migration, ownIndexName } from '../../../lib/wp/db/migrate';

/**
 * On SQLite an index name belongs to the whole database, and the plugin tables' indexes were created
 * with the plugin's own names: on a network, only the first site to migrate got them; every other
 * site's tables were made without (the failed CREATE INDEX was taken for a concurrent create). Their
 * unique keys are what upserts name (request keys, mail receipts, portal codes, doc votes), so those
 * writes failed there. This gives each such table the indexes it lacks, under its own names. MySQL
 * names indexes per table: nothing to do there.
 */
export const indexEachSiteOnSqlite: Migration = {
  name: '20261128-01-index-each-site-on-sqlite',
  async up(db: Database) {
    if (db.dialect !== 'sqlite') return;
    for (const index of PLUGIN_INDEXES) {
      const table = db.tables.plugin('svc', index.table);
      if (!(await db.knex.schema.hasTable(table)) || (await hasIndexOn(db, table, index.columns))) continue;
      const columns = index.columns.map((c) => `"${c}"`).join(', ');
      await db.knex.raw(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${ownIndexName(db, table, index.name)}" ON "${table}" (${columns})`);
    }
  },
};

/** Every named index of the plugin tables, as the migrations before this one declared them. */
const PLUGIN_INDEXES: Array<{ table: string; name: string; columns: string[]; unique?: true }> = [
  { table: 'rate_limits', name: 'expires_at', columns: ['expires_at'] },
  { table: 'request_keys', name: 'user_scope_key', columns: ['user_id', 'scope', 'request_key'], unique: true },
  { table: 'request_keys', name: 'created_at', columns: ['created_at'] },
  { table: 'jobs', name: 'status_run_at', columns: ['status', 'run_at'] },
  { table: 'jobs', name: 'kind', columns: ['kind'] },
  { table: 'mail_receipts', name: 'mailbox_dedupe_key', columns: ['mailbox', 'dedupe_key'], unique: true },
  { table: 'mail_receipts', name: 'receipt_id', columns: ['receipt_id'], unique: true },
  { table: 'mail_receipts', name: 'receipt_created_at', columns: ['created_at'] },
  { table: 'mail_receipts', name: 'receipt_outcome_created_at', columns: ['outcome', 'created_at'] },
  { table: 'portal_codes', name: 'portal_code_site_email', columns: ['site_id', 'email'], unique: true },
  { table: 'portal_codes', name: 'portal_code_expires', columns: ['expires_at'] },
  { table: 'portal_sessions', name: 'portal_session_token', columns: ['token_hash'], unique: true },
  { table: 'portal_sessions', name: 'portal_session_site_email', columns: ['site_id', 'email'] },
  { table: 'portal_sessions', name: 'portal_session_expires', columns: ['expires_at'] },
  { table: 'doc_votes', name: 'doc_vote_visitor_day', columns: ['doc_id', 'visitor', 'vote_day'], unique: true },
  { table: 'shadow_counts', name: 'shadow_counts_hour', columns: ['hour_start'] },
  { table: 'shadow_diffs', name: 'shadow_diffs_route', columns: ['route', 'id'] },
  { table: 'shadow_diffs', name: 'shadow_diffs_seen', columns: ['seen_at'] },
];

/** Whether `table` has an index over exactly `columns`, in that order, whatever its name. */
async function hasIndexOn(db: Database, table: string, columns: string[]): Promise<boolean> {
  const indexes = (await db.knex.raw(`PRAGMA index_list("${table}")`)) as Array<{ name: string }>;
  for (const { name } of indexes) {
    const over = ((await db.knex.raw(`PRAGMA index_info("${name}")`)) as Array<{ seqno: number; name: string }>)
      .sort((a, b) => a.seqno - b.seqno).map((c) => c.name);
    if (over.join(',') === columns.join(',')) return true;
  }
  return false;
}
