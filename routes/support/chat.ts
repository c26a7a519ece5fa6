/**
 * support/v1 visitor chat (contract sections 2 "Chat", 4 "Chat", 8; docs/chat.md):
 * - GET /chat/config: whether chat and handoff are on, wording and branding.
 * - POST /chat/messages: a question; the answer as one JSON object, or as server-sent events (`stream`).
 * - GET /chat/threads/<uuid>: the conversation, for the holder of its token (`X-Chat-Token`).
 * - POST /chat/handoff: the conversation becomes a ticket.
 * All four answer browsers only on this site's pages and the connected sites' listed addresses,
 * without cookies; a request without Origin counts as this site's. Limits are settings (lib/support/chat/limits.ts).
 */
import { countHandoff, countThreadMessage, countVisitorMessage } from '../../lib/support/chat/limits';
import { handOff } from '../../lib/support/chat/handoff';
import { chatOrigins, collectionsForOrigin } from '../../lib/support/chat/origins';
import { presentThread } from '../../lib/support/chat/present';
import { ChatEvent, acceptMessage, answerMessage } from '../../lib/support/chat/reply';
import { readChatSettings } from '../../lib/support/chat/settings';
import { ChatThread, findThread, threadMessages } from '../../lib/support/chat/threads';
import { resolveChatThread, threadHolder } from '../../lib/support/chat/tokens';
import { storageAvailability } from '../../lib/support/storage-check';
import { WpError } from '../../lib/wp/errors';
import { Site } from '../../lib/wp/site';
import { TypedArgs } from '../../lib/wp/rest/args';
import { ParamsOf, argsForOperation } from '../../lib/wp/rest/item-schema';
import { RequestHead, RestResponse, RouteDeclaration, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { ServerSentEvent, StreamResponse } from '../../lib/wp/rest/stream';
import { commonSchema } from '../../schema/support/common';
import { chatOperations } from '../../schema/support/chat-args';
import { NAMESPACE } from './common';

/** A question is at most 4,000 characters; with the page's address and title, well within this. */
const CHAT_MAX_BODY_BYTES = 32 * 1024;

const CHAT_SCHEMAS = [commonSchema] as const;
type NoParams = ParamsOf<typeof chatOperations.none, typeof CHAT_SCHEMAS>;
type MessageParams = ParamsOf<typeof chatOperations.message, typeof CHAT_SCHEMAS>;
type ThreadParams = ParamsOf<typeof chatOperations.thread, typeof CHAT_SCHEMAS, 'uuid'>;
type HandoffParams = ParamsOf<typeof chatOperations.handoff, typeof CHAT_SCHEMAS>;

const noArgs: TypedArgs<NoParams> = argsForOperation(chatOperations.none, CHAT_SCHEMAS, 'create');
const messageArgs: TypedArgs<MessageParams> = argsForOperation(chatOperations.message, CHAT_SCHEMAS, 'create');
const threadArgs: TypedArgs<ThreadParams> = argsForOperation(chatOperations.thread, CHAT_SCHEMAS, 'create');
const handoffArgs: TypedArgs<HandoffParams> = argsForOperation(chatOperations.handoff, CHAT_SCHEMAS, 'create');

export const chatRouteBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'private, no-store' },
  availability: storageAvailability,
};

const chatEndpointBase = {
  origins: (head: RequestHead) => chatOrigins(head.site),
  corsCredentials: false,
  corsHeaders: ['X-Chat-Token'],
  maxBodyBytes: CHAT_MAX_BODY_BYTES,
} as const;

function chatDisabled(): WpError {
  return new WpError('svc_chat_disabled', 'Chat is not available at the moment.', 403);
}

export const chatConfig: RouteDeclaration = {
  ...chatRouteBase,
  route: '/chat/config',
  endpoints: [
    endpoint<NoParams>({
      ...chatEndpointBase,
      methods: ['GET'],
      args: noArgs,
      permission: allowAnyone,
      async handler(req) {
        const s = await readChatSettings(req.site.options);
        return {
          enabled: s.enabled, handoff: s.handoff,
          name: s.branding.name, color: s.branding.color, avatar_url: s.branding.avatarUrl,
          greeting: s.wording.greeting, placeholder: s.wording.placeholder, handoff_offer: s.wording.handoffOffer,
        };
      },
    }),
  ],
};

export const chatMessages: RouteDeclaration = {
  ...chatRouteBase,
  route: '/chat/messages',
  endpoints: [
    endpoint<MessageParams>({
      ...chatEndpointBase,
      methods: ['POST'],
      args: messageArgs,
      permission: allowAnyone,
      async handler(req) {
        const settings = await readChatSettings(req.site.options);
        if (!settings.enabled) throw chatDisabled();
        await countVisitorMessage(req.site, settings.limits, req.ip);
        const p = req.params;
        const origin = req.header('origin');
        const accepted = await acceptMessage(req.site, {
          thread: p.thread, token: p.token, message: p.message.trim(), pageUrl: p.page_url, pageTitle: p.page_title?.trim(),
          origin, collections: await collectionsForOrigin(req.site, origin),
        }, () => countThreadMessage(req.site, settings.limits, p.thread));
        if (p.stream) {
          return new StreamResponse((signal) => asServerSentEvents(req.site, answerMessage(req.site, settings, accepted, true, signal), signal), {}, 200, settings.heartbeatSeconds * 1000);
        }
        return asJson(answerMessage(req.site, settings, accepted, false));
      },
    }),
  ],
};

/**
 * Each chat event as an SSE event named by its type, numbered from 1. An unexpected failure once the
 * stream has begun (its status is sent) ends it with an `error` event; the details go to the log.
 */
async function* asServerSentEvents(site: Site, events: AsyncIterable<ChatEvent>, signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
  let id = 0;
  try {
    for await (const { type, ...data } of events) yield { event: type, id: String(++id), data };
  } catch (err) {
    if (signal.aborted) throw err;
    site.logger.error('chat stream failed', { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    yield { event: 'error', id: String(++id), data: { code: 'internal_server_error', message: 'There has been a critical error on this website.', status: 500 } };
  }
}

/** The same events gathered into one answer; an `error` event is the error answer (the partial reply in its data). */
async function asJson(events: AsyncIterable<ChatEvent>): Promise<RestResponse> {
  const answer: Record<string, unknown> = {};
  for await (const event of events) {
    if (event.type === 'start') Object.assign(answer, { thread: event.thread, ...(event.token ? { token: event.token } : {}), message: event.message });
    if (event.type === 'done') Object.assign(answer, { reply: event.reply, handoff_offered: event.handoff_offered });
    if (event.type === 'error') throw new WpError(event.code, event.message, event.status, { thread: answer.thread, reply: event.reply });
  }
  return new RestResponse(answer, 201);
}

export const chatThread: RouteDeclaration<ChatThread | null> = {
  ...chatRouteBase,
  route: '/chat/threads/(?P<uuid>[0-9a-fA-F-]{36})',
  // An unknown thread is answered at the principal stage, as a wrong token is: the same 404.
  subject: (head) => findThread(head.site.db, head.urlParams.uuid ?? ''),
  endpoints: [
    endpoint<ThreadParams, ChatThread, ChatThread | null>({
      ...chatEndpointBase,
      methods: ['GET'],
      args: threadArgs,
      principal: async (req) => threadHolder(req.subject, req.header('x-chat-token')?.trim()),
      async handler(req) {
        return presentThread(req.principal, await threadMessages(req.site.db, req.principal.postId));
      },
    }),
  ],
};

export const chatHandoff: RouteDeclaration = {
  ...chatRouteBase,
  route: '/chat/handoff',
  endpoints: [
    endpoint<HandoffParams>({
      ...chatEndpointBase,
      methods: ['POST'],
      args: handoffArgs,
      permission: allowAnyone,
      async handler(req) {
        const settings = await readChatSettings(req.site.options);
        if (!settings.handoff) throw new WpError('svc_chat_handoff_disabled', 'Talking to a person is not offered at the moment.', 403);
        await countHandoff(req.site, settings.limits, req.ip);
        const p = req.params;
        const thread = await resolveChatThread(req.site, p.thread, p.token);
        if (thread instanceof WpError) throw thread;
        const handoff = await handOff(req.site, thread, { email: p.email.trim(), name: p.name?.trim(), note: p.note?.trim() });
        return new RestResponse({ thread: thread.uuid, handed_off: true, ticket_id: handoff.ticketId, created: handoff.created }, handoff.created ? 201 : 200);
      },
    }),
  ],
};
