/**
 * `request_key`: a client may repeat a create with the same key and get what was stored the first
 * time, even when both requests arrive at once. The key is claimed by inserting a row under a unique
 * index inside the creating transaction: a concurrent repeat waits for that transaction, then finds
 * the key taken and reads the result. The same key with a different request is refused.
 */
import { createHash } from 'node:crypto';
import { Knex } from 'knex';
import { Database } from '../wp/db/database';
import { insertUnlessTaken } from '../wp/db/transaction';
import { WpError } from '../wp/errors';

export interface RequestKey {
  userId: number;
  scope: string;
  key: string;
  /** What the request asked for; a repeat must ask for the same. */
  request: unknown;
}

/** A stable hash of the request's content. */
export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

/** Claims the key in `trx`; returns false when another request holds it already. */
export async function claimRequestKey(trx: Knex.Transaction, db: Database, rk: RequestKey, nowSeconds: number): Promise<boolean> {
  const row = { user_id: rk.userId, scope: rk.scope, request_key: rk.key, request_hash: requestHash(rk.request), resource_id: null, created_at: nowSeconds };
  return insertUnlessTaken(trx, db.tables.plugin('svc', 'request_keys'), row, ['user_id', 'scope', 'request_key']);
}

export async function recordRequestResult(trx: Knex.Transaction, db: Database, rk: RequestKey, resourceId: number): Promise<void> {
  await trx(db.tables.plugin('svc', 'request_keys')).where({ user_id: rk.userId, scope: rk.scope, request_key: rk.key }).update({ resource_id: resourceId });
}

/**
 * Whether the key's first request has stored its result: a request repeating the key can then only
 * replay that result (or be refused as a different request), never create anything.
 */
export async function isRequestKeyStored(db: Database, rk: Omit<RequestKey, 'request'>): Promise<boolean> {
  const row = await db.knex(db.tables.plugin('svc', 'request_keys'))
    .where({ user_id: rk.userId, scope: rk.scope, request_key: rk.key }).whereNotNull('resource_id').first('resource_id');
  return row !== undefined;
}

/** The resource the key's first request stored; refuses a key reused for a different request. */
export async function storedResult(db: Database, rk: RequestKey): Promise<number> {
  const row = await db.knex(db.tables.plugin('svc', 'request_keys'))
    .where({ user_id: rk.userId, scope: rk.scope, request_key: rk.key }).first('request_hash', 'resource_id');
  if (!row || row.resource_id === null) {
    throw new WpError('svc_request_in_progress', 'A request with this request_key is still being processed. Retry shortly.', 409);
  }
  if (row.request_hash !== requestHash(rk.request)) {
    throw new WpError('svc_request_key_reused', 'This request_key was already used for a different request.', 422);
  }
  return Number(row.resource_id);
}
