/**
 * The chat assistant's settings: keys of the support desk's one option, `svc_settings` (storage map),
 * so that a PHP admin screen and `understudy option patch` set them. The five keys the issue fixes
 * (`chat_enabled`, `chat_handoff`, `chat_base_url`, `chat_model`, `chat_api_key`) and the ones added
 * here (wording, branding, limits, timeouts) are listed with their defaults in docs/chat.md.
 */
import { OptionStore } from '../../wp/options';
import { PlainValue, phpFlag } from '../../wp/php';
import { SETTINGS_OPTION, text } from '../settings';

/** One rate-limit bucket: `limit` requests per `window` seconds. */
export interface ChatLimit {
  limit: number;
  window: number;
}

export interface ChatLimits {
  /** POST /chat/messages per conversation. */
  thread: ChatLimit;
  /** POST /chat/messages per visitor address. */
  address: ChatLimit;
  /** POST /chat/messages for the whole site. */
  site: ChatLimit;
  /** POST /chat/handoff per visitor address. */
  handoff: ChatLimit;
}

/** Contract section 8: the defaults that the plugin's `svc_chat_rate_limit` filter may change. */
export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  thread: { limit: 20, window: 60 },
  address: { limit: 60, window: 600 },
  site: { limit: 240, window: 60 },
  handoff: { limit: 5, window: 3600 },
};

export interface ChatSettings {
  enabled: boolean;
  handoff: boolean;
  provider: ProviderSettings;
  wording: { greeting: string; placeholder: string; handoffOffer: string; noAnswer: string };
  branding: { name: string; color: string; avatarUrl: string };
  limits: ChatLimits;
  /** Seconds between heartbeat comments of an event stream. */
  heartbeatSeconds: number;
}

/** Where the answers come from: an OpenAI-compatible chat-completions server. */
export interface ProviderSettings {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (no trailing slash). */
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Milliseconds to the provider's first byte, and for the whole answer. */
  firstByteMs: number;
  totalMs: number;
}

const DEFAULTS = {
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  greeting: 'Hi! Ask me anything about our product. I answer from our documentation.',
  placeholder: 'Ask a question…',
  handoffOffer: 'Talk to a person',
  noAnswer: "I couldn't find anything about that in our documentation.",
  name: 'Help',
  color: '#2271b1',
  firstByteSeconds: 10,
  totalSeconds: 60,
  heartbeatSeconds: 15,
};

export async function readChatSettings(options: OptionStore): Promise<ChatSettings> {
  const raw = await options.getPlain(SETTINGS_OPTION, {});
  const v = (raw && typeof raw === 'object' ? raw : {}) as Record<string, PlainValue | undefined>;
  const apiKey = text(v.chat_api_key).trim();
  return {
    // Contract: new messages work only while chat is on AND the provider has a key.
    enabled: phpFlag(v.chat_enabled, false) && apiKey !== '',
    handoff: phpFlag(v.chat_handoff, false),
    provider: {
      baseUrl: (text(v.chat_base_url).trim() || DEFAULTS.baseUrl).replace(/\/+$/, ''),
      model: text(v.chat_model).trim() || DEFAULTS.model,
      apiKey,
      firstByteMs: seconds(v.chat_first_byte_timeout, DEFAULTS.firstByteSeconds) * 1000,
      totalMs: seconds(v.chat_total_timeout, DEFAULTS.totalSeconds) * 1000,
    },
    wording: {
      greeting: text(v.chat_greeting) || DEFAULTS.greeting,
      placeholder: text(v.chat_placeholder) || DEFAULTS.placeholder,
      handoffOffer: text(v.chat_handoff_offer) || DEFAULTS.handoffOffer,
      noAnswer: text(v.chat_no_answer) || DEFAULTS.noAnswer,
    },
    branding: {
      name: text(v.chat_name) || DEFAULTS.name,
      color: /^#[0-9a-f]{6}$/i.test(text(v.chat_color)) ? text(v.chat_color) : DEFAULTS.color,
      avatarUrl: /^https?:\/\//i.test(text(v.chat_avatar_url)) ? text(v.chat_avatar_url) : '',
    },
    limits: readLimits(v.chat_rate_limits),
    heartbeatSeconds: seconds(v.chat_heartbeat, DEFAULTS.heartbeatSeconds),
  };
}

/**
 * One chat bucket's size as the settings say now (`chat_rate_limits`, the counterpart of the plugin's
 * `svc_chat_rate_limit` filter): the chat routes declare their buckets (docs/chat.md, "Limits") and
 * size them with this on every request.
 */
export async function chatLimit(options: OptionStore, bucket: keyof ChatLimits): Promise<ChatLimit> {
  return (await readChatSettings(options)).limits[bucket];
}

/** `chat_rate_limits`: an array like `{thread: {limit: 20, window: 60}, …}`; a missing or bad entry keeps its default. */
function readLimits(raw: unknown): ChatLimits {
  const stored = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const limits = { ...DEFAULT_CHAT_LIMITS };
  for (const name of Object.keys(limits) as Array<keyof ChatLimits>) {
    const entry = (stored[name] && typeof stored[name] === 'object' ? stored[name] : {}) as Record<string, unknown>;
    const limit = Number(entry.limit);
    const window = Number(entry.window);
    limits[name] = {
      limit: Number.isInteger(limit) && limit >= 1 ? limit : DEFAULT_CHAT_LIMITS[name].limit,
      window: Number.isInteger(window) && window >= 1 ? window : DEFAULT_CHAT_LIMITS[name].window,
    };
  }
  return limits;
}

/** A positive number of seconds (fractions allowed: a local model may warrant more, a test less). */
function seconds(value: unknown, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}
