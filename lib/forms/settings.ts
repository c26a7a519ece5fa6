/**
 * A form's settings and messages as the hand-written-HTML form plugin family stores them: postmeta
 * `_frm_settings` (a serialized PHP array laid over defaults), postmeta `frm_message_<code>` (plain
 * strings; defaults when absent) and the global option `frm_settings`. Rows written by PHP hold
 * `"1"`/`"0"` strings or ints where we hold booleans, so every flag is read with PHP's truthiness.
 */
import { PhpArray, PhpFloat, PhpValue, PlainValue, maybeUnserialize, phpEntries, phpTruthy, serialize, toPlain } from '../wp/php';

export const FORM_POST_TYPE = 'frm-form';
export const SETTINGS_META_KEY = '_frm_settings';
export const MESSAGE_META_PREFIX = 'frm_message_';
export const GLOBAL_SETTINGS_OPTION = 'frm_settings';

/** A notification action as stored: `type` plus string settings (`email`: to, from, subject, message, headers, content_type). */
export interface FormAction {
  type: string;
  [setting: string]: string;
}

export interface FormSettings {
  save_submissions: boolean;
  hide_after_success: boolean;
  redirect_url: string;
  /** Comma-separated field names. */
  required_fields: string;
  /** Comma-separated field names. */
  email_fields: string;
  actions: FormAction[];
}

export const DEFAULT_SETTINGS: Readonly<FormSettings> = Object.freeze({
  save_submissions: true,
  hide_after_success: false,
  redirect_url: '',
  required_fields: '',
  email_fields: '',
  actions: [],
});

/** The plugin family's own default texts, so an existing site's visitors read what they always read. */
export const DEFAULT_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  success: 'Thank you! We will be in touch soon.',
  invalid_email: 'Sorry, that email address looks invalid.',
  required_field_missing: 'Please fill in the required fields.',
  error: 'Oops. An error occurred.',
});

/** A message code as it may appear in a meta key: `frm_message_<code>`. */
export const MESSAGE_CODE_PATTERN = /^[a-z0-9_]{1,64}$/;

/** Global settings (option `frm_settings`). */
export interface GlobalSettings {
  enable_nonce: boolean;
  /** Submissions one address may send to one form per window; 0 (the default) means no limit. */
  submit_limit: number;
  /** The window of `submit_limit`, in minutes (default 10, at most a day). */
  submit_limit_window: number;
}

/** The default window of the submission limit, in minutes. */
export const DEFAULT_SUBMIT_LIMIT_WINDOW = 10;
/** Bounds of the submission limit: a window of at most a day, at most this many submissions in one. */
export const MAX_SUBMIT_LIMIT_WINDOW = 1440;
export const MAX_SUBMIT_LIMIT = 100_000;

/** Reads `_frm_settings` (serialized or absent) over the defaults; unknown keys are ignored here and kept on write. */
export function parseSettings(raw: string | undefined): FormSettings {
  const stored = settingsArray(raw);
  const get = (key: string) => stored.get(key);
  return {
    save_submissions: stored.has('save_submissions') ? phpTruthy(get('save_submissions')) : DEFAULT_SETTINGS.save_submissions,
    hide_after_success: stored.has('hide_after_success') ? phpTruthy(get('hide_after_success')) : DEFAULT_SETTINGS.hide_after_success,
    redirect_url: phpString(get('redirect_url')),
    required_fields: phpString(get('required_fields')),
    email_fields: phpString(get('email_fields')),
    actions: phpEntries(get('actions')).map(([, action]) => parseAction(action)).filter((a): a is FormAction => a !== null),
  };
}

/**
 * The `_frm_settings` value after applying `patch` to what is stored: the stored array keeps its other
 * keys and their order (another version of the plugin may have written keys we do not know).
 */
export function settingsForStorage(raw: string | undefined, patch: Partial<FormSettings>): string {
  const stored = raw === undefined ? storedDefaults() : settingsArray(raw);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === 'actions') stored.set(key, (value as FormAction[]).map((action) => PhpArray.fromObject({ ...action })));
    else stored.set(key, typeof value === 'boolean' ? Number(value) : String(value));
  }
  return serialize(stored);
}

/** The form's messages: the stored `frm_message_<code>` values laid over the defaults. */
export function messagesFromMeta(meta: ReadonlyMap<string, string>): Record<string, string> {
  const messages: Record<string, string> = { ...DEFAULT_MESSAGES };
  for (const [key, value] of meta) {
    if (key.startsWith(MESSAGE_META_PREFIX)) messages[key.slice(MESSAGE_META_PREFIX.length)] = value;
  }
  return messages;
}

/** The text for an outcome: the form's message for `code`, else `fallback`, else the form's generic `error` message. */
export function messageText(messages: Readonly<Record<string, string>>, code: string, fallback?: string): string {
  return (Object.hasOwn(messages, code) && messages[code]) || fallback || messages.error || (DEFAULT_MESSAGES.error as string);
}

/** `"name, email,"` → `['name', 'email']`. */
export function fieldNames(list: string): string[] {
  return list.split(',').map((name) => name.trim()).filter(Boolean);
}

/**
 * Reads the option `frm_settings` (absent, or an array missing keys, means the defaults: nonce off, no
 * submission limit). Numbers are read as PHP's (int) cast reads them (`"5"`, `5`, `"5 per form"`); a
 * limit that is not a positive number is no limit, a window that is not one is the default.
 */
export function parseGlobalSettings(value: unknown): GlobalSettings {
  const stored = value instanceof PhpArray ? value : new PhpArray();
  const limit = phpInt(stored.get('submit_limit'));
  const windowMinutes = phpInt(stored.get('submit_limit_window'));
  return {
    enable_nonce: phpTruthy(stored.get('enable_nonce')),
    submit_limit: Math.min(Math.max(limit, 0), MAX_SUBMIT_LIMIT),
    submit_limit_window: windowMinutes > 0 ? Math.min(windowMinutes, MAX_SUBMIT_LIMIT_WINDOW) : DEFAULT_SUBMIT_LIMIT_WINDOW,
  };
}

/** PHP's (int) cast, for the values an options screen or WP-CLI leaves: the leading integer of a string, 0 otherwise. */
export function phpInt(value: PhpValue | undefined): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof PhpFloat) return Number.isFinite(value.value) ? Math.trunc(value.value) : 0;
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'string') {
    const match = /^[ \t\n\r\v\f]*([+-]?\d+)/.exec(value);
    return match ? Number(match[1]) : 0;
  }
  return 0;
}

function settingsArray(raw: string | undefined): PhpArray {
  const value = raw === undefined ? undefined : maybeUnserialize(raw);
  if (value instanceof PhpArray) return value;
  if (Array.isArray(value)) return new PhpArray(value.map((item, i) => [i, item] as const));
  return new PhpArray();
}

function storedDefaults(): PhpArray {
  const { actions: _none, ...flat } = DEFAULT_SETTINGS;
  const stored = new PhpArray(Object.entries(flat).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v] as const));
  return stored.set('actions', []);
}

function parseAction(value: PhpValue): FormAction | null {
  const plain = toPlain(value);
  if (!plain || typeof plain !== 'object' || Array.isArray(plain)) return null;
  const action: FormAction = { type: '' };
  for (const [key, item] of Object.entries(plain)) action[key] = plainString(item);
  return action.type ? action : null;
}

function phpString(value: PhpValue | undefined): string {
  return value === undefined || value === null || typeof value === 'object' ? '' : String(value === false ? '' : value === true ? '1' : value);
}

function plainString(value: PlainValue): string {
  return value === null || typeof value === 'object' ? '' : String(value === false ? '' : value === true ? '1' : value);
}
