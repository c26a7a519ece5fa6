/** `{p}frm_submissions`: created with the storage map's columns, and left alone where the plugin already made it. */
import assert from 'node:assert/strict';
import { openSite } from '../../../../lib/boot';
import { memoryLogger } from '../../../../lib/logger';
import { connect } from '../../../../lib/wp/db/database';
import { Tables } from '../../../../lib/wp/db/tables';
import { scratchDatabase } from '../../../harness/db';
import { loadOracleInto, oracleConfig } from '../../../harness/oracle';

const COLUMNS = ['id', 'form_id', 'data', 'user_agent', 'ip_address', 'referer_url', 'is_spam', 'submitted_at'];

/** The table as the PHP plugin creates it on activation (its own DDL, TIMESTAMP included). */
const PLUGIN_DDL = {
  mysql: `CREATE TABLE wp_frm_submissions (id INT UNSIGNED NOT NULL PRIMARY KEY AUTO_INCREMENT, form_id INT UNSIGNED NOT NULL,
    data TEXT NOT NULL, user_agent TEXT NULL, ip_address VARCHAR(255) NULL, referer_url TEXT NULL, is_spam TINYINT(1) NOT NULL DEFAULT 0,
    submitted_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP) ENGINE=INNODB CHARACTER SET utf8mb4`,
  sqlite: `CREATE TABLE wp_frm_submissions (id INTEGER PRIMARY KEY AUTOINCREMENT, form_id INTEGER NOT NULL, data TEXT NOT NULL,
    user_agent TEXT, ip_address VARCHAR(255), referer_url TEXT, is_spam INTEGER NOT NULL DEFAULT 0, submitted_at TEXT)`,
};

describe('migration 20261122-10-create-frm-submissions', function () {
  it('creates the table with exactly the storage map columns on a site that has none', async () => {
    const scratch = await scratchDatabase();
    try {
      await loadOracleInto(scratch);
      const { site } = await openSite(oracleConfig(scratch), { logger: memoryLogger() });
      try {
        assert.deepEqual(Object.keys(await site.db.knex('wp_frm_submissions').columnInfo()).sort(), [...COLUMNS].sort());
      } finally {
        await site.close();
      }
    } finally {
      await scratch.drop();
    }
  });

  it("leaves the plugin's own table and its rows untouched on an existing site", async () => {
    const scratch = await scratchDatabase();
    try {
      await loadOracleInto(scratch);
      const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
      await db.knex.raw(PLUGIN_DDL[db.dialect]);
      await db.knex('wp_frm_submissions').insert({ form_id: 9, data: '{"a":"b"}', submitted_at: '2025-01-02 03:04:05' });
      const before = await db.knex('wp_frm_submissions').columnInfo();
      await db.close();
      const { site } = await openSite(oracleConfig(scratch), { logger: memoryLogger() });
      try {
        assert.deepEqual(await site.db.knex('wp_frm_submissions').columnInfo(), before);
        const rows = await site.db.knex('wp_frm_submissions').select('form_id', 'data');
        assert.deepEqual(rows.map((r: any) => [Number(r.form_id), r.data]), [[9, '{"a":"b"}']]);
        assert.ok(await site.db.knex('wp_svc_migrations').where({ name: '20261122-10-create-frm-submissions' }).first());
      } finally {
        await site.close();
      }
    } finally {
      await scratch.drop();
    }
  });
});
