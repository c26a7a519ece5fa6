/**
 * The chat routes' rate limits (contract section 8; docs/chat.md, "Limits"): counted in the database by
 * the site's rate limiter, so every process shares them. They are checked here rather than by the
 * REST server's `rateLimit` stage because their sizes are settings (`chat_rate_limits`, the
 * counterpart of the plugin's `svc_chat_rate_limit` filter), read for each request.
 */
import { WpError } from '../../wp/errors';
import { visitorBucket } from '../../wp/http/address-key';
import { Site } from '../../wp/site';
import { ChatLimit, ChatLimits } from './settings';

async function hit(site: Site, bucket: string, limit: ChatLimit): Promise<void> {
  const decision = await site.rateLimiter.hit(bucket, limit.limit, limit.window);
  if (!decision.allowed) {
    throw new WpError('rest_too_many_requests', `Too many requests. Try again in ${decision.retryAfter} seconds.`, 429, { retry_after: decision.retryAfter });
  }
}

/** A message counts against its sender's address, then the whole site. */
export async function countVisitorMessage(site: Site, limits: ChatLimits, ip: string): Promise<void> {
  await hit(site, `chat.messages.address:${visitorBucket(ip)}`, limits.address);
  await hit(site, 'chat.messages.site:all', limits.site);
}

/** …and, once its token has opened the thread, against the conversation (a stranger cannot use up another's). */
export async function countThreadMessage(site: Site, limits: ChatLimits, uuid: string): Promise<void> {
  await hit(site, `chat.messages.thread:${uuid}`, limits.thread);
}

export async function countHandoff(site: Site, limits: ChatLimits, ip: string): Promise<void> {
  await hit(site, `chat.handoff.address:${visitorBucket(ip)}`, limits.handoff);
}
