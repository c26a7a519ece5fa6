/**
 * Conversation tokens (docs/chat.md, "Threads and tokens"): whoever holds a thread's token holds the
 * thread. The first message of a new thread binds the token it sends (or one minted for it, shown
 * once), kept only as its SHA-256; later requests must send the same token. A wrong token and an
 * unknown thread get the same 404, so a token holder learns nothing of other threads.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { bearerSecretMatches, newBearerSecret } from '../bearer-secrets';
import { ChatThread, findThread } from './store';

export function threadNotFound(): WpError {
  return new WpError('svc_chat_thread_not_found', 'No conversation has this thread and token.', 404);
}

/** A new token for a thread whose first message came without one. */
export function mintChatToken(): string {
  return newBearerSecret('base64url');
}

/** Whether `token` is the thread's (compared as hashes, in constant time). */
export function tokenOpens(thread: ChatThread, token: string | undefined): boolean {
  return token !== undefined && bearerSecretMatches(token, thread.tokenHash);
}

/**
 * The caller of a conversation's route (the principal of GET /chat/threads/<uuid>; `found`: the
 * thread its URL names): the thread when `token` is its token; 404 otherwise, an unknown thread alike.
 */
export function threadHolder(found: ChatThread | null, token: string | undefined): ChatThread | WpError {
  return found && tokenOpens(found, token) ? found : threadNotFound();
}

/** The thread `uuid` names when `token` is its token; 404 otherwise (a handoff names its thread in the body). */
export async function resolveChatThread(site: Site, uuid: string, token: string | undefined): Promise<ChatThread | WpError> {
  return threadHolder(await findThread(site.db, uuid), token);
}
