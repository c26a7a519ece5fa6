/**
 * Sign-in codes (docs/portal.md): one pending code per site and address, stored as an HMAC, emailed
 * by an `portal_code_email` job queued in the same transaction. Every address takes the same path,
 * whether or not anyone has it, so the answer says nothing about accounts.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { enqueueJob } from '../enqueue';
import { WpError } from '../../wp/errors';
import { tooManyRequests } from '../../wp/rate-limit';
import { Site } from '../../wp/site';
import { ConnectedSite } from '../sites/store';
import { writeSupport } from '../write';
import { PORTAL_LIMITS, portalEmail } from './limits';
import { codeHash, sealCode } from './secret';
import { countPortalCodeFailure, deletePortalCode, insertPortalCode, lockPortalCode, updatePortalCode } from './store';

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
  const code = newCode();
  const hash = await codeHash(site, portal.siteId, email, code);
  const sealed = await sealCode(site, portal.siteId, code);
  await writeSupport(site, {}, async (ctx) => {
    const now = ctx.nowSeconds;
    const pending = await lockPortalCode(ctx, portal.siteId, email);
    const wait = pending ? pending.sentAt + PORTAL_LIMITS.resendSeconds - now : 0;
    if (wait > 0) throw tooManyRequests(wait);
    const failures = pending && pending.expiresAt > now ? pending.failures : 0;
    const values = { codeHash: hash, failures, sentAt: now, expiresAt: now + PORTAL_LIMITS.codeTtlSeconds };
    if (pending) await updatePortalCode(ctx, pending.id, values);
    // A concurrent first request for the address won: this one is a resend too soon.
    else if (!(await insertPortalCode(ctx, portal.siteId, email, values))) throw tooManyRequests(PORTAL_LIMITS.resendSeconds);
    await enqueueJob(ctx.trx, ctx.tables, 'portal_code_email', { site_id: portal.siteId, email, sealed }, now);
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
  const given = Buffer.from(await codeHash(site, siteId, email, code), 'hex');
  return writeSupport(site, {}, async (ctx) => {
    const pending = await lockPortalCode(ctx, siteId, email);
    if (!pending || pending.expiresAt <= ctx.nowSeconds || pending.failures >= PORTAL_LIMITS.codeFailures) return false;
    const stored = Buffer.from(pending.codeHash, 'hex');
    if (stored.length === given.length && timingSafeEqual(stored, given)) {
      await deletePortalCode(ctx, pending.id);
      return true;
    }
    await countPortalCodeFailure(ctx, pending);
    return false;
  });
}
