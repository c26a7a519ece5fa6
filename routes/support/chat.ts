/**
 * support/v1 visitor chat (contract sections 2 "Chat", 4 "Chat", 8; docs/chat.md):
 * - GET /chat/config: whether chat and handoff are on, wording and branding.
 * - POST /chat/messages: a question; the answer as one JSON object, or as server-sent events (`stream`).
 * - GET /chat/threads/<uuid>: the conversation, for the holder of its token (`X-Chat-Token`).
 * - POST /chat/handoff: the conversation becomes a ticket.
 * All four answer browsers only on this site's pages and the connected sites' listed addresses,
 * without cookies; a request without Origin counts as this site's. Their limits are declared buckets
 * whose sizes are settings (chatLimit(), lib/support/chat/settings.ts).
 */
import { handOff } from '../../lib/support/chat/handoff';
import { chatOrigins, collectionsForOrigin } from '../../lib/support/chat/origins';
import { AnswerDone, AnswerStart, presentChatAnswer, presentChatConfig, presentHandoff, presentThread } from '../../lib/support/chat/present';
import { ChatEvent, ChatSender, ChatSink, acceptMessage, answerMessage, chatSender } from '../../lib/support/chat/reply';
import { ChatLimits, chatLimit, readChatSettings } from '../../lib/support/chat/settings';
import { ChatThread, findThread, threadMessages } from '../../lib/support/chat/store';
import { resolveChatThread, threadHolder } from '../../lib/support/chat/tokens';
import { WpError } from '../../lib/wp/errors';
import { visitorBucket } from '../../lib/wp/http/address-key';
import { Site } from '../../lib/wp/site';
import { ArgsParams, operations, routeSchema } from '../../lib/wp/rest/item-schema';
import { RateLimitSpec, RequestHead, RestRequest, RestResponse, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { SendEvents, StreamResponse } from '../../lib/wp/rest/stream';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { chatOperations } from '../../schema/support/chat-args';
import { chatAnswerSchema } from '../../schema/support/chat-answer';
import { chatConfigSchema } from '../../schema/support/chat-config';
import { chatHandoffSchema } from '../../schema/support/chat-handoff';
import { chatThreadSchema } from '../../schema/support/chat-thread';
import { supportRoute } from './kit';

/** A question is at most 4,000 characters; with the page's address and title, well within this. */
const CHAT_MAX_BODY_BYTES = 32 * 1024;

/** The args of each chat operation (schema/support/chat-args.ts). */
export const chatArgs = operations(chatOperations, SUPPORT_SCHEMAS, ['uuid']);

/** What every visitor endpoint shares: this site's and the connected sites' origins, no cookies, the token header, small bodies. */
const visitorEndpoint = {
  origins: (head: RequestHead) => chatOrigins(head.site),
  corsCredentials: false,
  corsHeaders: ['X-Chat-Token'],
  maxBodyBytes: CHAT_MAX_BODY_BYTES,
} as const;

export const chatConfig = supportRoute({
  route: '/chat/config',
  schema: routeSchema(chatConfigSchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ ...visitorEndpoint, methods: ['GET'], args: chatArgs.none, permission: allowAnyone, handler: config })],
});

export const chatMessages = supportRoute({
  route: '/chat/messages',
  schema: routeSchema(chatAnswerSchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({
      ...visitorEndpoint, methods: ['POST'], args: chatArgs.message, handler: sendMessage,
      principal: messageSender,
      permission: chatOn,
      rateLimit: [
        // Batched (lib/wp/rate-limit.ts): every question's own transaction on one shared row held the
        // questions back at hundreds a second (docs/performance.md, "Chat at scale"); a process is at most
        // 250 ms late to see another's count. The conversation's bucket stays exact.
        { ...chatBucket('chat.messages.address', 'address', (req) => visitorBucket(req.ip)), counting: 'batched' },
        { ...chatBucket('chat.messages.site', 'site', () => 'all'), counting: 'batched' },
        // Counted once the sender's token opened the thread (or it is new): a stranger, refused by the handler, is not.
        { ...chatBucket('chat.messages.thread', 'thread', (req: ChatRequest<'message', ChatSender>) => req.params.thread), exempt: (req) => req.principal.refusal !== null },
      ],
    }),
  ],
});

export const chatThread = supportRoute({
  route: '/chat/threads/(?P<uuid>[0-9a-fA-F-]{36})',
  // An unknown thread is answered at the principal stage, as a wrong token is: the same 404.
  subject: (head: RequestHead) => findThread(head.site.db, head.urlParams.uuid ?? ''),
  schema: routeSchema(chatThreadSchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ ...visitorEndpoint, methods: ['GET'], args: chatArgs.thread, principal: threadOfToken, handler: readThread })],
});

export const chatHandoff = supportRoute({
  route: '/chat/handoff',
  schema: routeSchema(chatHandoffSchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({
      ...visitorEndpoint, methods: ['POST'], args: chatArgs.handoff, permission: handoffOn, handler: handOffThread,
      rateLimit: chatBucket('chat.handoff.address', 'handoff', (req) => visitorBucket(req.ip)),
    }),
  ],
});

type ChatRequest<O extends keyof typeof chatArgs, P = unknown, S = unknown> = RestRequest<P, ArgsParams<(typeof chatArgs)[O]>, S>;

/** A bucket of the chat limits, sized by the settings on every request. */
function chatBucket<A extends object, P>(name: string, bucket: keyof ChatLimits, key: (req: RestRequest<P, A>) => string): RateLimitSpec<A, P> {
  return {
    name,
    limit: async (req) => (await chatLimit(req.site.options, bucket)).limit,
    windowSeconds: async (req) => (await chatLimit(req.site.options, bucket)).window,
    key,
  };
}

/** Messages are taken while chat is on and has a provider key (403 otherwise), before any limit counts them. */
async function chatOn(req: RestRequest): Promise<true | WpError> {
  return (await readChatSettings(req.site.options)).enabled || new WpError('svc_chat_disabled', 'Chat is not available at the moment.', 403);
}

async function handoffOn(req: RestRequest): Promise<true | WpError> {
  return (await readChatSettings(req.site.options)).handoff || new WpError('svc_chat_handoff_disabled', 'Talking to a person is not offered at the moment.', 403);
}

/** Who sends a message: the holder of the thread's token, or anyone to a new thread (a refusal waits for the limits). */
function messageSender(req: ChatRequest<'message'>): Promise<ChatSender> {
  return chatSender(req.site, req.params.thread, req.params.token);
}

/** The caller of a conversation's route: the holder of its token (`X-Chat-Token`). */
async function threadOfToken(req: RequestHead<ChatThread | null>): Promise<ChatThread | WpError> {
  return threadHolder(req.subject, req.header('x-chat-token')?.trim());
}

async function config(req: ChatRequest<'none'>): Promise<Record<string, unknown>> {
  return presentChatConfig(await readChatSettings(req.site.options));
}

async function sendMessage(req: ChatRequest<'message', ChatSender>): Promise<RestResponse | StreamResponse> {
  const settings = await readChatSettings(req.site.options);
  const p = req.params;
  const origin = req.header('origin');
  const accepted = await acceptMessage(req.site, req.principal, {
    thread: p.thread, token: p.token, message: p.message.trim(), pageUrl: p.page_url, pageTitle: p.page_title?.trim(),
    origin, collections: await collectionsForOrigin(req.site, origin),
  });
  if (p.stream) {
    return new StreamResponse(
      (signal, send) => sendAsServerSentEvents(req.site, signal, send, (emit) => answerMessage(req.site, settings, accepted, { stream: true, signal }, emit)),
      {}, 200, settings.heartbeatSeconds * 1000,
    );
  }
  return asJson((emit) => answerMessage(req.site, settings, accepted, { stream: false }, emit));
}

async function readThread(req: ChatRequest<'thread', ChatThread, ChatThread | null>): Promise<unknown> {
  return presentThread(req.principal, await threadMessages(req.site.db, req.principal.postId));
}

async function handOffThread(req: ChatRequest<'handoff'>): Promise<RestResponse> {
  const p = req.params;
  const thread = await resolveChatThread(req.site, p.thread, p.token);
  if (thread instanceof WpError) throw thread;
  const handoff = await handOff(req.site, thread, { email: p.email.trim(), name: p.name?.trim(), note: p.note?.trim() });
  return new RestResponse(presentHandoff(thread, handoff), handoff.created ? 201 : 200);
}

/**
 * Each chat event as an SSE event named by its type, numbered from 1, a batch in one write. An
 * unexpected failure once the stream has begun (its status is sent) ends it with an `error` event;
 * the details go to the log.
 */
async function sendAsServerSentEvents(site: Site, signal: AbortSignal, send: SendEvents, answer: (emit: ChatSink) => Promise<void>): Promise<void> {
  let id = 0;
  try {
    await answer((events) => send(events.map(({ type, ...data }) => ({ event: type, id: String(++id), data }))));
  } catch (err) {
    if (signal.aborted) throw err;
    site.logger.error('chat stream failed', { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    send({ event: 'error', id: String(++id), data: { code: 'internal_server_error', message: 'There has been a critical error on this website.', status: 500 } });
  }
}

/** The same events gathered into one answer; an `error` event is the error answer (the partial reply in its data). */
async function asJson(answer: (emit: ChatSink) => Promise<void>): Promise<RestResponse> {
  let start: AnswerStart | undefined;
  let done: AnswerDone | undefined;
  let error: Extract<ChatEvent, { type: 'error' }> | undefined;
  await answer((events) => {
    for (const event of events) {
      if (event.type === 'start') start = event;
      if (event.type === 'done') done = event;
      if (event.type === 'error') error = event;
    }
  });
  if (error) throw new WpError(error.code, error.message, error.status, { thread: start?.thread, reply: error.reply });
  return new RestResponse(presentChatAnswer(start as AnswerStart, done as AnswerDone), 201);
}
