/**
 * Sign-in codes (docs/portal.md): one pending code per site and address, stored as an HMAC, emailed
 * by an `portal_code_email` job queued in the same transaction. Every address takes the same path,
 * whether or not anyone has it, so the answer says nothing about accounts.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { enqueueJob } from '../jobs/enqueue';
import { unixSeconds } from '../../wp/clock';
import { isDuplicateKeyError, isRetryableTransactionError } from '../../wp/db/errors';
import { WpError } from '../../wp/errors';
import { tooManyRequests } from '../../wp/rate-limit';
import { Site } from '../../wp/site';
import { ConnectedSite } from '../sites/store';
import { PORTAL_LIMITS, portalEmail } from './limits';
import { codeHash, sealCode } from './secret';

/** Six digits, uniformly from a CSPRNG, leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Sends a new code, replacing the pending one. A pending code that has not expired keeps its count of
 * wrong tries; 60 s must pass between sends (429 with `retry_after`).
 */
export async function sendPortalCode(site: Site, portal: ConnectedSite, rawEmail: string): Promise<void> {
  const email = portalEmail(rawEmail);
  const now = unixSeconds(site.clock);
  const table = site.db.tables.svc('portal_codes');
  const code = newCode();
  const hash = await codeHash(site, portal.siteId, email, code);
  const sealed = await sealCode(site, portal.siteId, code);
  await site.db.knex.transaction(async (trx) => {
    const row = await trx(table).where({ site_id: portal.siteId, email }).forUpdate().first();
    const wait = row ? Number(row.sent_at) + PORTAL_LIMITS.resendSeconds - now : 0;
    if (wait > 0) throw tooManyRequests(wait);
    const failures = row && Number(row.expires_at) > now ? Number(row.failures) : 0;
    const values = { code_hash: hash, failures, sent_at: now, expires_at: now + PORTAL_LIMITS.codeTtlSeconds };
    if (row) await trx(table).where({ id: row.id }).update(values);
    else {
      // A concurrent first request for the address won the unique key (or InnoDB's gap lock): this one
      // is a resend too soon.
      await trx(table).insert({ site_id: portal.siteId, email, ...values }).catch((err: unknown) => {
        throw isDuplicateKeyError(err) || isRetryableTransactionError(err) ? tooManyRequests(PORTAL_LIMITS.resendSeconds) : err;
      });
    }
    await enqueueJob(trx, site.db.tables, 'portal_code_email', { site_id: portal.siteId, email, sealed }, now);
  });
}

export function invalidCode(): WpError {
  return new WpError('svc_portal_invalid_code', 'The code is not valid. Ask for a new code.', 400);
}

/**
 * Spends the pending code of the address when `code` is it: true once, then the code is gone. A wrong
 * code counts against the challenge; after 5 wrong ones, or 10 minutes, no code opens it.
 */
export async function consumePortalCode(site: Site, siteId: string, rawEmail: string, code: string): Promise<boolean> {
  const email = portalEmail(rawEmail);
  const now = unixSeconds(site.clock);
  const table = site.db.tables.svc('portal_codes');
  const given = Buffer.from(await codeHash(site, siteId, email, code), 'hex');
  return site.db.knex.transaction(async (trx) => {
    const row = await trx(table).where({ site_id: siteId, email }).forUpdate().first();
    if (!row || Number(row.expires_at) <= now || Number(row.failures) >= PORTAL_LIMITS.codeFailures) return false;
    const stored = Buffer.from(String(row.code_hash), 'hex');
    if (stored.length === given.length && timingSafeEqual(stored, given)) {
      await trx(table).where({ id: row.id }).del();
      return true;
    }
    await trx(table).where({ id: row.id }).update({ failures: Number(row.failures) + 1 });
    return false;
  });
}
