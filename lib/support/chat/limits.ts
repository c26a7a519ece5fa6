/**
 * The sizes of the chat routes' rate limits (contract section 8; docs/chat.md, "Limits"): settings
 * (`chat_rate_limits`, the counterpart of the plugin's `svc_chat_rate_limit` filter), read for each
 * request. The routes declare the buckets; the REST server counts them in the database, so every
 * process shares them.
 */
import { Site } from '../../wp/site';
import { ChatLimit, ChatLimits, readChatSettings } from './settings';

/** A chat bucket: `thread`, `address`, `site` (messages) or `handoff`. */
export type ChatBucket = keyof ChatLimits;

/** The bucket's size as the settings say now. */
export async function chatLimit(site: Site, bucket: ChatBucket): Promise<ChatLimit> {
  return (await readChatSettings(site.options)).limits[bucket];
}
