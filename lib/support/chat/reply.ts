/**
 * POST /chat/messages (docs/chat.md): the visitor's message is stored (and its thread made, on the
 * first message), then the answer is produced as chat events that the route sends as server-sent
 * events or gathers into one JSON object. The answer is grounded in the docs (./retrieval.ts): with no
 * relevant passage the model is not asked; the visitor is told so and offered a person. The answer,
 * complete or not, is stored as the assistant's message with the sources it cites.
 */
import { WpError } from '../../wp/errors';
import { escUrlRaw } from '../../wp/formatting';
import { Site } from '../../wp/site';
import { hashBearerSecret } from '../bearer-secrets';
import { writeSupport } from '../write';
import { PresentedMessage, presentMessage } from './present';
import { ProviderError, ProviderTurn, completeChat, streamCompletion } from './provider';
import { NumberedSource, retrieveSources } from './retrieval';
import { ChatSettings } from './settings';
import { ChatMessage, ChatSource, ChatThread, MessageState, findThread, holdConversation, insertMessage, insertThreadWithMessage } from './store';
import { mintChatToken, threadNotFound, tokenOpens } from './tokens';

/** Earlier messages given to the model with the question (the newest ones). */
const HISTORY_MESSAGES = 10;

export interface VisitorMessage {
  thread: string;
  token?: string;
  message: string;
  pageUrl?: string;
  pageTitle?: string;
  /** The browser origin it was sent from, when any. */
  origin?: string;
  /** The doc collections the answer may come from (a connected site's); null for any. */
  collections: Set<string> | null;
}

/** A stored visitor message, ready to be answered. */
export interface AcceptedMessage {
  thread: ChatThread;
  /** The token minted for a new thread that came without one: shown this once. */
  mintedToken: string | null;
  message: ChatMessage;
  /** The conversation before this message. */
  history: ChatMessage[];
  collections: Set<string> | null;
}

export type ChatEvent =
  | { type: 'start'; thread: string; token?: string; message: PresentedMessage }
  | { type: 'sources'; sources: Array<{ n: number; title: string; url: string }> }
  | { type: 'delta'; text: string }
  | { type: 'done'; reply: PresentedMessage; handoff_offered: boolean }
  | { type: 'error'; code: string; message: string; status: number; reply: PresentedMessage };

export function handedOff(): WpError {
  return new WpError('svc_chat_handed_off', 'This conversation was handed to a person; replies come by email.', 409);
}

/**
 * Who sends a message to the thread `uuid` names (the principal of POST /chat/messages): the holder
 * of its token, or anyone for a thread not made yet. `refusal` is the answer to a stranger (404, a
 * wrong token) or to a thread handed to a person (409), given when the message is accepted: after the
 * visitor's address and the site have counted the message, and without counting it against the
 * conversation (a stranger cannot use up another's).
 */
export interface ChatSender {
  thread: ChatThread | null;
  refusal: WpError | null;
}

export async function chatSender(site: Site, uuid: string, token: string | undefined): Promise<ChatSender> {
  const thread = await findThread(site.db, uuid);
  return { thread, refusal: openRefusal(thread, token) };
}

/**
 * Opens the thread for a message from `sender`: the existing one when the token is its token (404
 * otherwise, 409 once handed off), else a new one bound to the token sent or minted. The thread,
 * when new, and the message are written in one transaction.
 */
export async function acceptMessage(site: Site, sender: ChatSender, input: VisitorMessage): Promise<AcceptedMessage> {
  if (sender.refusal) throw sender.refusal;
  const mintedToken = sender.thread === null && input.token === undefined ? mintChatToken() : null;
  const token = input.token ?? mintedToken ?? '';
  // Kept as WordPress keeps a `format: uri` field: through esc_url_raw() (no quotes or angle brackets).
  const pageUrl = escUrlRaw(input.pageUrl ?? '');
  return writeSupport(site, {}, async (ctx) => {
    // Read again under the write: two first messages of one new thread make it once.
    const held = await holdConversation(ctx.trx, site.db, input.thread);
    const refusal = openRefusal(held?.thread ?? null, token);
    if (refusal) throw refusal;
    const visitor = { role: 'visitor', content: input.message, state: 'complete' } as const;
    if (held) {
      const message = await insertMessage(ctx, held.thread.postId, visitor);
      return { thread: held.thread, mintedToken: null, message, history: held.messages, collections: input.collections };
    }
    const tokenHash = hashBearerSecret(token);
    const { threadId, message } = await insertThreadWithMessage(ctx, {
      uuid: input.thread, tokenHash, title: [...input.message].slice(0, 80).join(''), pageUrl, pageTitle: input.pageTitle, origin: input.origin,
    }, visitor);
    const thread = { postId: threadId, uuid: input.thread, tokenHash, createdAt: ctx.dates.gmt, ticketId: null, pageUrl, pageTitle: input.pageTitle ?? '' };
    return { thread, mintedToken, message, history: [], collections: input.collections };
  });
}

/** Why a message may not go to `thread` with `token` (404 a stranger, 409 handed off), or null. */
function openRefusal(thread: ChatThread | null, token: string | undefined): WpError | null {
  if (!thread) return null;
  if (!tokenOpens(thread, token)) return threadNotFound();
  return thread.ticketId !== null ? handedOff() : null;
}

/** How the answer is produced: `stream`, piece by piece as the provider sends it (else in one piece); `signal` stops it. */
export interface AnswerMode {
  stream: boolean;
  signal?: AbortSignal;
}

/** Takes the answer's events as they are ready: those of one batch go to the visitor in one write. */
export type ChatSink = (events: ChatEvent[]) => void;

/**
 * The answer as events sent to `send`: `start`, `sources` (the passages the model was given),
 * `delta`s (the pieces of text the provider sent at once, in one batch), then `done` or `error`;
 * resolves once the answer is stored. `signal` aborts the provider's request (the visitor left); the
 * part already received is stored as an interrupted answer.
 */
export async function answerMessage(site: Site, settings: ChatSettings, accepted: AcceptedMessage, { stream, signal }: AnswerMode, send: ChatSink): Promise<void> {
  send([{ type: 'start', thread: accepted.thread.uuid, ...(accepted.mintedToken ? { token: accepted.mintedToken } : {}), message: presentMessage(accepted.message) }]);
  const sources = await retrieveSources(site, accepted.message.content, accepted.collections);
  if (!sources.length) {
    const reply = await storeReply(site, accepted.thread, settings.wording.noAnswer, 'no_answer', []);
    send([{ type: 'delta', text: reply.content }, { type: 'done', reply, handoff_offered: settings.handoff }]);
    return;
  }
  send([{ type: 'sources', sources: sources.map(({ n, title, url }) => ({ n, title, url })) }]);
  const turns = promptFor(settings, sources, accepted.history, accepted.message.content);
  let text = '';
  try {
    if (stream) {
      await streamCompletion(settings.provider, turns, (pieces) => {
        text += pieces.join('');
        send(pieces.map((piece): ChatEvent => ({ type: 'delta', text: piece })));
      }, signal);
    } else {
      text = (await completeChat(settings.provider, turns, signal)).text;
      send([{ type: 'delta', text }]);
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    const reply = await storeReply(site, accepted.thread, text, text ? 'interrupted' : 'failed', citedSources(text, sources));
    if (err.kind === 'aborted') return;
    const failure = providerFailure(err);
    send([{ type: 'error', code: failure.code, message: failure.message, status: failure.status, reply }]);
    return;
  }
  const reply = await storeReply(site, accepted.thread, text, 'complete', citedSources(text, sources));
  send([{ type: 'done', reply, handoff_offered: false }]);
}

async function storeReply(site: Site, thread: ChatThread, content: string, state: MessageState, sources: ChatSource[]): Promise<PresentedMessage> {
  const stored = await writeSupport(site, {}, (ctx) => insertMessage(ctx, thread.postId, { role: 'assistant', content, state, sources }));
  return presentMessage(stored);
}

/** The provider's failure as the visitor's answer says it (the provider's own words go to the log only). */
export function providerFailure(err: ProviderError): { code: string; message: string; status: number } {
  if (err.kind === 'timeout') return { code: 'svc_chat_provider_timeout', message: 'The assistant took too long to answer. Try again, or talk to a person.', status: 504 };
  return { code: 'svc_chat_provider_error', message: 'The assistant could not answer just now. Try again, or talk to a person.', status: 502 };
}

/** The sources the answer cites as `[n]`, once each, in the order first cited. */
export function citedSources(text: string, sources: readonly NumberedSource[]): ChatSource[] {
  const cited: ChatSource[] = [];
  for (const match of text.matchAll(/\[(\d{1,2})\]/g)) {
    const source = sources.find((s) => s.n === Number(match[1]));
    if (source && !cited.some((c) => c.url === source.url)) cited.push({ title: source.title, url: source.url });
  }
  return cited;
}

/** The system prompt with the numbered passages, the conversation so far, and the question. */
function promptFor(settings: ChatSettings, sources: readonly NumberedSource[], history: readonly ChatMessage[], question: string): ProviderTurn[] {
  const numbered = sources.map((s) => `[${s.n}] ${s.title}\n${s.text}`).join('\n\n');
  const system = [
    `You are ${settings.branding.name}, the support assistant of this website. Answer the visitor's question using only the numbered sources below.`,
    'Cite the sources you use as [1], [2] and so on, right after the sentence they support.',
    "If the sources do not answer the question, say that you don't know and suggest talking to a person. Never invent facts, links or prices.",
    'Answer in plain text, briefly, in the language of the question.',
    '',
    'Sources:',
    numbered,
  ].join('\n');
  const earlier = history.filter((m) => m.content && m.state !== 'failed').slice(-HISTORY_MESSAGES)
    .map((m): ProviderTurn => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content }));
  return [{ role: 'system', content: system }, ...earlier, { role: 'user', content: question }];
}
