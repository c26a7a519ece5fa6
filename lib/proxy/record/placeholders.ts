/**
 * Secrets out of recordings: every credential an exchange carries is replaced by a stable placeholder
 * naming the identity (`<basic:agent1>`, `<cookie:user agent1>`, `<nonce:3>`), the same secret always
 * by the same placeholder for the life of the recorder, so a recording keeps who did what and replay
 * can map each identity to a credential of the target (`identity` credentials,
 * lib/replay/credentials.ts). Credentials are known by where they stand (headers, nonce and
 * password-like names) and by their shape (secret-shapes.ts); whole bodies of routes that carry
 * secrets are replaced (secret-routes.ts); a request body the recorder cannot read is not kept
 * (request-body.ts). A last pass replaces any remaining copy of a secret anywhere in the exchange (an
 * answer echoing a header), also percent-encoded, JSON-escaped or base64.
 */
import type { HeaderList } from '../../replay/capture';
import { FieldRedactor, readRequestBody, redactForm } from './request-body';
import { secretSides } from './secret-routes';
import { isDigitCode, isNonceName, isSecretName, looksLikePassword, looksLikeToken, replaceInText } from './secret-shapes';

/** Headers whose whole value is a credential of a known kind. */
const TOKEN_HEADERS: Record<string, string> = {
  'x-wp-nonce': 'nonce', 'x-svc-token': 'mailbox', 'x-svc-key': 'site-key', 'x-svc-portal': 'portal', 'x-chat-token': 'chat',
  'x-svc-signature': 'signature',
};

/** Headers holding a URL, whose query may carry credentials (`?access_token=`, a sign-in link's password). */
const URL_HEADERS = new Set(['referer', 'location', 'content-location']);

/**
 * A `"name": "value"` pair of JSON (in a JSON answer, a server-sent event's data); the value raw, as
 * escaped in the text.
 */
const JSON_PAIR = /"((?:[^"\\\n]|\\.){1,100})"(\s*:\s*)"((?:[^"\\\n]|\\.)*)"/g;
/** An HTML attribute `value="…"` (a key shown once in a settings page's input). */
const VALUE_ATTRIBUTE = /(\bvalue=)(["'])([^"'<>\s]{24,})\2/gi;

export const REDACTED_BODY = '<redacted: this route carries secrets>';

/** Secrets shorter than this are replaced where they stand only: replacing `dark` everywhere would garble answers. */
const MIN_ECHOED = 8;

export interface RecordedMessage {
  url: string;
  headers: HeaderList;
  body: string | null;
}

export interface RecordedRequest {
  url: string;
  headers: HeaderList;
  /** The bytes as sent (a string is taken as UTF-8). */
  body: Buffer | string | null;
  /** The body went past the recording's cap: what is here is its start. */
  cut?: boolean;
}

export interface RedactedRequest extends RecordedMessage {
  /** Why the request as written down is not the one sent (a body or file not recorded), for replay. */
  notRecorded?: string;
}

export class Identities {
  private readonly known = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  /**
   * The placeholder of `secret`, named `label` when the identity is known. A secret keeps the
   * placeholder it got first, of whatever kind, wherever it appears later (a chat token minted in an
   * answer and then sent in X-Chat-Token).
   */
  of(kind: string, secret: string, label?: string): string {
    const found = this.known.get(secret);
    if (found) return found;
    const placeholder = `<${kind}:${label ?? this.count(kind)}>`;
    this.known.set(secret, placeholder);
    return placeholder;
  }

  count(kind: string): number {
    const next = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, next);
    return next;
  }

  /**
   * The request and answer as they may be written down, and what was replaced. `route` is the
   * exchange's route key, for the body rules.
   */
  redact(route: string, request: RecordedRequest, response: { headers: HeaderList; body: string | null }): { request: RedactedRequest; response: { headers: HeaderList; body: string | null } } {
    const x = new ExchangeRedaction(this);
    const contentType = request.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    const bytes = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
    const read = bytes === null ? null : readRequestBody(bytes, contentType, request.cut ?? false);
    const secret = secretSides(route, request.url, read && read.kind !== 'opaque' ? read.fields : []);
    const headers = request.headers.map(([name, value]) => [name, x.requestHeader(name.toLowerCase(), value)] as [string, string]);
    const url = x.url(request.url);
    let body: string | null = null;
    let notRecorded: string | undefined;
    if (read && secret.request) body = REDACTED_BODY;
    else if (read?.kind === 'opaque') [body, notRecorded] = [`<${read.reason}>`, `request body ${read.reason}`];
    else if (read) [body, notRecorded] = [replaceInText(read.write(x.requestField), x.found), read.files ? 'request files not recorded' : undefined];
    const responseHeaders = response.headers.map(([name, value]) => [name, x.responseHeader(name.toLowerCase(), value)] as [string, string]);
    const responseType = response.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    const responseBody = response.body === null ? null : secret.response ? REDACTED_BODY : x.responseText(response.body, responseType);
    const scrub = x.scrubber();
    return {
      request: { url: scrub(url), headers: scrubHeaders(headers, scrub), body: body === null ? null : scrub(body), ...(notRecorded ? { notRecorded } : {}) },
      response: { headers: scrubHeaders(responseHeaders, scrub), body: responseBody === null ? null : scrub(responseBody) },
    };
  }
}

/** One exchange's redaction: the secrets taken out so far, for the last pass. */
class ExchangeRedaction {
  private readonly swaps: Array<[string, string]> = [];

  constructor(private readonly ids: Identities) {}

  /** `secret` of kind `kind` replaced by its placeholder, remembered for the last pass. */
  swap(secret: string, kind: string, label?: string): string {
    return this.also(secret, this.ids.of(kind, secret, label));
  }

  /** Another form of a secret (a decoded cookie, Basic's password) for the last pass, when long enough to be one. */
  private also(form: string, placeholder: string): string {
    if (form.length >= MIN_ECHOED) this.swaps.push([form, placeholder]);
    return placeholder;
  }

  /** A credential found by its shape inside text. */
  readonly found = (secret: string): string => this.swap(secret, secret.startsWith('eyJ') ? 'jwt' : 'credential');

  /** A request's form, multipart or JSON field, or query parameter. */
  readonly requestField: FieldRedactor = (name, value) => {
    if (isNonceName(name)) return this.swap(value, 'nonce');
    if (isSecretName(name) || isDigitCode(name, value) || name.toLowerCase() === 'code') return this.swap(value, 'secret');
    if (looksLikeToken(value) || looksLikePassword(value)) return this.swap(value, 'secret');
    return value;
  };

  /**
   * An answer's field: by name only when the value could be a credential (no spaces: `signature` is
   * also an agent's email signature), nonces kept (they are useless without the session cookie, and
   * replay compares them by shape), `code` only when it is a sign-in code (it is also an error's code).
   */
  private readonly responseField: FieldRedactor = (name, value) => {
    if (!value || isNonceName(name)) return value;
    if ((isSecretName(name) && !/\s/.test(value)) || isDigitCode(name, value) || looksLikeToken(value)) return this.swap(value, 'secret');
    return value;
  };

  url(url: string): string {
    const q = url.indexOf('?');
    return q < 0 ? url : url.slice(0, q + 1) + redactForm(url.slice(q + 1), this.requestField);
  }

  requestHeader(name: string, value: string): string {
    if (!value) return value;
    if (name === 'authorization') return this.authorization(value);
    if (name === 'cookie') return value.split(/;\s*/).map((pair) => this.cookie(pair)).join('; ');
    if (URL_HEADERS.has(name)) return this.url(value);
    const kind = TOKEN_HEADERS[name];
    if (kind) return this.swap(value, kind);
    return isSecretName(name) || looksLikeToken(value) ? this.swap(value, 'secret') : value;
  }

  responseHeader(name: string, value: string): string {
    if (!value || name === 'x-wp-nonce') return value;
    if (name === 'set-cookie') return this.setCookie(value);
    if (URL_HEADERS.has(name)) return this.url(value);
    const kind = TOKEN_HEADERS[name];
    if (kind) return this.swap(value, kind);
    return isSecretName(name) || looksLikeToken(value) ? this.swap(value, 'secret') : value;
  }

  /**
   * An answer's text: the fields of a JSON answer or of server-sent events' data (read as JSON, which
   * is quick, and rewritten only when they hold a secret), a form-encoded answer's fields,
   * `value="…"` attributes of a page, and credentials with their scheme inside any text.
   */
  responseText(text: string, contentType: string): string {
    let out = text;
    if (/^application\/x-www-form-urlencoded/i.test(contentType)) out = redactForm(text, this.responseField);
    else if (dataOf(text, contentType).some((data) => this.holdsSecret(data, ''))) out = text.replace(JSON_PAIR, (pair, rawName: string, colon: string, rawValue: string) => {
      const value = jsonString(rawValue);
      const written = value === null ? value : this.responseField(jsonString(rawName) ?? rawName, value);
      return written === null || written === value ? pair : `"${rawName}"${colon}"${JSON.stringify(written).slice(1, -1)}"`;
    });
    out = out.replace(VALUE_ATTRIBUTE, (whole, start: string, quote: string, value: string) => (looksLikeToken(value) ? `${start}${quote}${this.swap(value, 'secret')}${quote}` : whole));
    return replaceInText(out, this.found);
  }

  /** Whether any string in the data is an answer's secret (each one found is also set aside for the last pass). */
  private holdsSecret(value: unknown, name: string): boolean {
    if (typeof value === 'string') return this.responseField(name, value) !== value;
    if (!value || typeof value !== 'object') return false;
    let found = false;
    if (Array.isArray(value)) for (const item of value) found = this.holdsSecret(item, name) || found;
    else for (const key in value) found = this.holdsSecret((value as Record<string, unknown>)[key], key) || found;
    return found;
  }

  /** Each secret taken out replaced wherever else it appears, longest first so a whole value goes before a part of it. */
  scrubber(): (text: string) => string {
    const placeholders = new Map<string, string>();
    for (const [secret, placeholder] of this.swaps) for (const form of encodings(secret)) if (!placeholders.has(form)) placeholders.set(form, placeholder);
    const forms = [...placeholders].sort((a, b) => b[0].length - a[0].length);
    return (text) => forms.reduce((out, [form, placeholder]) => (out.includes(form) ? out.split(form).join(placeholder) : out), text);
  }

  private authorization(value: string): string {
    const basic = /^Basic\s+(\S+)$/i.exec(value.trim());
    if (basic) {
      const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
      const login = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
      const placeholder = this.swap(decoded, 'basic', login ? safeLabel(login) : undefined);
      this.also(decoded.slice(decoded.indexOf(':') + 1), placeholder);
      return this.also(basic[1] as string, placeholder);
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(value.trim());
    if (bearer) return `Bearer ${this.swap(bearer[1] as string, 'bearer')}`;
    return this.swap(value, 'authorization');
  }

  /** WordPress's auth cookies hold `login|expiration|token|hmac`: the placeholder names the login. */
  private cookie(pair: string): string {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!value) return pair;
    const decoded = safeDecode(value);
    const login = /^wordpress_/i.test(name) && decoded.includes('|') ? decoded.split('|')[0] : undefined;
    const placeholder = this.swap(value, 'cookie', login ? `user ${safeLabel(login)}` : `${safeLabel(name)} ${this.ids.count('cookie-name')}`);
    this.also(decoded, placeholder);
    // The session token and the HMAC, which a page may show alone.
    for (const part of decoded.split('|').slice(2)) this.also(part, placeholder);
    return `${name}=${placeholder}`;
  }

  /** A Set-Cookie's value replaced by a placeholder, its attributes kept (they are what a site sets). */
  private setCookie(value: string): string {
    const semi = value.indexOf(';');
    const pair = semi < 0 ? value : value.slice(0, semi);
    const eq = pair.indexOf('=');
    if (eq < 0 || eq === pair.length - 1) return value;
    return `${pair.slice(0, eq + 1)}${this.swap(pair.slice(eq + 1), 'set-cookie')}${semi < 0 ? '' : value.slice(semi)}`;
  }
}

function scrubHeaders(list: HeaderList, scrub: (text: string) => string): HeaderList {
  return list.map(([name, value]) => [name, scrub(value)]);
}

/** A secret as a file could hold it: raw, percent-encoded (`%20` or PHP's `+`), JSON-escaped (PHP's `\/` too), base64. */
function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [...new Set([
    secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), json, json.replace(/\//g, '\\/'), Buffer.from(secret, 'utf8').toString('base64'),
  ])];
}

/** The JSON a text carries: the whole of a JSON answer, each `data:` line of server-sent events. */
function dataOf(text: string, contentType: string): unknown[] {
  const candidates = /^text\/event-stream/i.test(contentType)
    ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5))
    : /^\s*[[{]/.test(text) ? [text] : [];
  return candidates.flatMap((candidate) => {
    try {
      return [JSON.parse(candidate)];
    } catch {
      return [];
    }
  });
}

/** The text of a JSON string literal's inside, or null when it is not one. */
function jsonString(raw: string): string | null {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}

/** Labels go inside `<…>`: no angle brackets, spaces kept, short. */
function safeLabel(text: string): string {
  return text.replace(/[<>\s]+/g, '_').slice(0, 60);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
