/**
 * A throwaway database for one test suite, on the engine this run tests: MariaDB/MySQL when
 * WP_TEST_MYSQL_URL is set (CI runs the suite once each way), SQLite otherwise.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { DbTarget } from '../../lib/wp/db/database';

export const MYSQL_URL = process.env.WP_TEST_MYSQL_URL;
export const dialect: 'mysql' | 'sqlite' = MYSQL_URL ? 'mysql' : 'sqlite';

export interface ScratchDatabase {
  target: DbTarget;
  /** Runs raw SQL (several statements allowed) on MySQL; unused on SQLite. */
  execMysql(sql: string): Promise<void>;
  drop(): Promise<void>;
}

export async function scratchDatabase(): Promise<ScratchDatabase> {
  const name = `understudy_t_${randomBytes(5).toString('hex')}`;
  if (!MYSQL_URL) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-'));
    return {
      target: { client: 'sqlite', filename: path.join(dir, `${name}.sqlite`) },
      execMysql: async () => { throw new Error('not a MySQL run'); },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = new URL(MYSQL_URL);
  const server = {
    host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username) || 'root',
    password: decodeURIComponent(url.password),
  };
  const admin = await mysql.createConnection(server);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci`);
  await admin.end();
  return {
    target: { client: 'mysql', ...server, database: name, charset: 'utf8mb4' },
    async execMysql(sql: string) {
      const conn = await mysql.createConnection({ ...server, database: name, multipleStatements: true });
      try {
        await conn.query(sql);
      } finally {
        await conn.end();
      }
    },
    async drop() {
      const conn = await mysql.createConnection(server);
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}
