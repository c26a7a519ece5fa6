/**
 * The oracle: a database made by real WordPress 6.1 (fixtures/oracle), loaded into a scratch database
 * and opened as a Site whose clock stands at the moment the credentials were issued.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Express } from 'express';
import { Knex } from 'knex';
import { openSite } from '../../lib/boot';
import { createApp } from '../../lib/app';
import { memoryLogger } from '../../lib/logger';
import { fixedClock } from '../../lib/wp/clock';
import { SiteConfig } from '../../lib/wp/config';
import { connect } from '../../lib/wp/db/database';
import { importDumpIntoSqlite } from './mysqldump/import';
import { Tables } from '../../lib/wp/db/tables';
import { SaltConstants } from '../../lib/wp/salts';
import { Site } from '../../lib/wp/site';
import { ScratchDatabase, scratchDatabase } from './db';
import { oracleFile } from './oracle-files';

export { ORACLE_DIR, oracleFile } from './oracle-files';
export const credentials = JSON.parse(fs.readFileSync(oracleFile('credentials.json'), 'utf8'));
export const oracleSql = (): string => fs.readFileSync(oracleFile('wp-oracle.sql'), 'utf8');

export const ORACLE_SALTS: SaltConstants = Object.fromEntries(
  ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT']
    .map((name) => [name, credentials.config[name]]),
);

export interface OracleSite {
  site: Site;
  app: Express;
  clock: ReturnType<typeof fixedClock>;
  scratch: ScratchDatabase;
  close(): Promise<void>;
}

/** Loads the oracle database into a scratch database (MariaDB or SQLite, as this run tests). */
export async function loadOracleInto(scratch: ScratchDatabase): Promise<void> {
  if (scratch.target.client === 'mysql') return scratch.execMysql(oracleSql());
  const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
  try {
    await importDumpIntoSqlite(db, oracleSql());
  } finally {
    await db.close();
  }
}

/** Each scratch database gets its own data folder (uploads, outbox), so suites never share files. */
const dataDirs = new WeakMap<ScratchDatabase, string>();

export function oracleConfig(scratch: ScratchDatabase): SiteConfig {
  let dataDir = dataDirs.get(scratch);
  if (!dataDir) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-oracle-'));
    dataDirs.set(scratch, dataDir);
  }
  return {
    source: 'env', description: 'oracle', db: scratch.target, tablePrefix: 'wp_', multisite: false, blogId: 1,
    salts: ORACLE_SALTS, environmentType: 'local', dataDir, seedDemo: false,
  };
}

/**
 * The oracle site, served by Understudy, with the clock at the moment its credentials were issued;
 * `config` adds what the environment would (OUTGOING_ALLOW for a suite's sources on 127.0.0.1).
 */
export async function openOracle(config: Partial<SiteConfig> = {}): Promise<OracleSite> {
  const scratch = await scratchDatabase();
  await loadOracleInto(scratch);
  const clock = fixedClock(credentials.generated_at * 1000);
  const { site } = await openSite({ ...oracleConfig(scratch), ...config }, { logger: memoryLogger(), clock });
  return {
    site, app: createApp(site), clock, scratch,
    async close() {
      await site.close();
      await scratch.drop();
      fs.rmSync(site.config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A second connection to the oracle database, standing in for the live PHP site writing it. */
export function phpConnection(oracle: OracleSite): Knex {
  return connect({ target: oracle.scratch.target, tables: new Tables({ prefix: 'wp_' }) }).knex;
}
