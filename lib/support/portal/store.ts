/**
 * The portal's rows (storage map: {p}svc_portal_codes, {p}svc_portal_sessions): a pending sign-in
 * code per site and address, and sessions by the hash of their token. What the rows mean is decided
 * in ./codes.ts and ./sessions.ts; only the SQL is here.
 */
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { isDuplicateKeyError, isRetryableTransactionError } from '../../wp/db/errors';
import { WriteContext } from '../write';

/** A pending code's row: its HMAC, the wrong tries against it, when it was sent and when it expires (Unix seconds). */
export interface PortalCodeRow {
  id: number;
  codeHash: string;
  failures: number;
  sentAt: number;
  expiresAt: number;
}

export type PortalCodeValues = Omit<PortalCodeRow, 'id'>;

export interface PortalSessionRow {
  id: number;
  tokenHash: string;
  siteId: string;
  email: string;
  createdAt: number;
  expiresAt: number;
}

function codes(ctx: WriteContext): Knex.QueryBuilder {
  return ctx.trx(ctx.tables.plugin('svc', 'portal_codes'));
}

/** The address's pending code, locked until the write commits (FOR UPDATE): a concurrent send or sign-in waits. */
export async function lockPortalCode(ctx: WriteContext, siteId: string, email: string): Promise<PortalCodeRow | null> {
  const row = await codes(ctx).where({ site_id: siteId, email }).forUpdate().first();
  if (!row) return null;
  return { id: Number(row.id), codeHash: String(row.code_hash), failures: Number(row.failures), sentAt: Number(row.sent_at), expiresAt: Number(row.expires_at) };
}

function codeColumns(values: PortalCodeValues): Record<string, unknown> {
  return { code_hash: values.codeHash, failures: values.failures, sent_at: values.sentAt, expires_at: values.expiresAt };
}

export async function updatePortalCode(ctx: WriteContext, id: number, values: PortalCodeValues): Promise<void> {
  await codes(ctx).where({ id }).update(codeColumns(values));
}

/**
 * Inserts the address's first pending code; false when a concurrent first request for the address
 * won the unique key (or InnoDB's gap lock) meanwhile.
 */
export async function insertPortalCode(ctx: WriteContext, siteId: string, email: string, values: PortalCodeValues): Promise<boolean> {
  try {
    await codes(ctx).insert({ site_id: siteId, email, ...codeColumns(values) });
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err) || isRetryableTransactionError(err)) return false;
    throw err;
  }
}

export async function countPortalCodeFailure(ctx: WriteContext, code: PortalCodeRow): Promise<void> {
  await codes(ctx).where({ id: code.id }).update({ failures: code.failures + 1 });
}

export async function deletePortalCode(ctx: WriteContext, id: number): Promise<void> {
  await codes(ctx).where({ id }).del();
}

function sessions(db: Database): Knex.QueryBuilder {
  return db.knex(db.tables.plugin('svc', 'portal_sessions'));
}

/** Stores a session; returns its ID. */
export async function insertPortalSession(db: Database, session: Omit<PortalSessionRow, 'id'>): Promise<number> {
  const [id] = await sessions(db).insert({
    token_hash: session.tokenHash, site_id: session.siteId, email: session.email, created_at: session.createdAt, expires_at: session.expiresAt,
  });
  return Number(id);
}

export async function portalSessionByTokenHash(db: Database, tokenHash: string): Promise<PortalSessionRow | null> {
  const row = await sessions(db).where({ token_hash: tokenHash }).first();
  if (!row) return null;
  return { id: Number(row.id), tokenHash, siteId: String(row.site_id), email: String(row.email), createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) };
}

export async function deletePortalSession(db: Database, id: number): Promise<void> {
  await sessions(db).where({ id }).del();
}

/**
 * Deletes the codes and sessions expired at `nowSeconds`, at each sign-in: they open nothing (their
 * checks compare `expires_at`), and an expired code's 60-second resend wait has long passed (a code
 * lives 10 minutes). Any process may sweep; deleting a row twice is harmless.
 */
export async function deleteExpiredPortalRows(db: Database, nowSeconds: number): Promise<void> {
  for (const table of ['portal_codes', 'portal_sessions']) {
    await db.knex(db.tables.plugin('svc', table)).where('expires_at', '<=', nowSeconds).del();
  }
}
