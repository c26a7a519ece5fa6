/**
 * A cheap answer to "has anything been written to these tables since?", so a costly cached query can
 * be confirmed instead of repeated. MySQL/MariaDB keep each InnoDB table's last change time
 * (information_schema.TABLES.UPDATE_TIME, one-second resolution, unknown after a server restart);
 * SQLite counts commits made by other connections (PRAGMA data_version) and rows changed through its own
 * (total_changes(): Understudy's single connection writes from several places). A token is returned only when
 * it can be trusted: on MySQL, when the last change lies in an earlier second than the moment the
 * token is read, so any later change must move it. Otherwise null: the caller runs its query again.
 */
import { performance } from 'node:perf_hooks';
import { Database } from './database';

/** Tokens read within this many milliseconds are shared by every caller asking at once. */
const SHARE_MS = 50;

export type ChangeToken = () => Promise<string | null>;

export function changeToken(db: Database, tables: string[]): ChangeToken {
  let last: { at: number; token: Promise<string | null> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > SHARE_MS) last = { at: now, token: readToken(db, tables).catch(() => null) };
    return last.token;
  };
}

async function readToken(db: Database, tables: string[]): Promise<string | null> {
  if (db.dialect === 'sqlite') {
    const version = await db.knex.raw('PRAGMA data_version');
    const own = await db.knex.raw('SELECT total_changes() AS changes');
    return `sqlite:${(version as Array<{ data_version: number }>)[0]?.data_version}:${(own as Array<{ changes: number }>)[0]?.changes}`;
  }
  const [rows] = await db.knex.raw(
    'SELECT TABLE_NAME AS name, UPDATE_TIME AS changed, NOW() AS now FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?)',
    [tables],
  );
  const list = rows as Array<{ name: string; changed: string | null; now: string }>;
  if (list.length !== tables.length || list.some((r) => !r.changed)) return null;
  const now = String(list[0]?.now ?? '');
  // One-second resolution: a change in the current second could be followed by another in the same second.
  if (list.some((r) => String(r.changed) >= now)) return null;
  return list.map((r) => `${r.name}@${r.changed}`).sort().join(',');
}
