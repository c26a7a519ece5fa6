/**
 * The opt-in submission limit (`frm_settings`: `submit_limit` per `submit_limit_window` minutes), for
 * sites that cache their pages and so cannot use the nonce. Counted per form and per address in the
 * site's database rate limiter, so every process over the database shares the count.
 */
import { addressKey } from '../wp/http/address-key';
import type { RateDecision } from '../wp/rate-limit';
import type { Site } from '../wp/site';
import type { GlobalSettings } from './settings';

/**
 * Counts one submission of `formId` from `ipAddress`; null when the site sets no limit. The count
 * includes refused submissions, as the site's other rate limits do: a client that keeps sending
 * stays refused until the window ends.
 */
export async function countSubmission(site: Site, settings: GlobalSettings, formId: number, ipAddress: string): Promise<RateDecision | null> {
  if (settings.submit_limit <= 0) return null;
  return site.rateLimiter.hit(`frm_submit:${formId}:${addressKey(ipAddress)}`, settings.submit_limit, settings.submit_limit_window * 60);
}
