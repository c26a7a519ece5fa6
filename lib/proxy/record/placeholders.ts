/**
 * Secrets out of recordings: every credential a recorded request carries is replaced by a stable
 * placeholder naming the identity (`<basic:agent1>`, `<cookie:user agent1>`, `<nonce:3>`), the same
 * secret always by the same placeholder for the life of the recorder, so a recording keeps who did
 * what and replay can map each identity to a credential of the target (`identity` credentials,
 * lib/replay/credentials.ts). Values of password-like form and JSON fields, and whole bodies of routes
 * that carry secrets, are replaced by rule. A last pass replaces any remaining copy of a request's
 * secrets anywhere in the exchange (an answer echoing a header).
 */
import type { HeaderList } from '../../replay/capture';
import { routeGlob } from '../../replay/route-key';

/** Headers whose whole value is a credential of a known kind. */
const TOKEN_HEADERS: Record<string, string> = {
  'x-wp-nonce': 'nonce', 'x-svc-token': 'mailbox', 'x-svc-key': 'site-key', 'x-svc-portal': 'portal', 'x-chat-token': 'chat',
  'x-svc-signature': 'signature',
};

/** Query and form parameters that carry nonces in WordPress. */
const NONCE_PARAMS = new Set(['_wpnonce', '_ajax_nonce', 'security', 'nonce']);

/** Form and JSON fields whose values are secrets whatever the route. */
const SECRET_FIELD = /^(pwd|pass|password|pass1|pass2|new_password|user_pass|code|token|secret|relay_secret|key|site_key|api_key|app_password|signature)$/i;

/** Routes whose request or answer bodies carry secrets: the body is replaced whole. */
export const SECRET_BODY_ROUTES: ReadonlyArray<{ glob: string; side: 'request' | 'response' | 'both' }> = [
  { glob: 'page:/wp-login.php', side: 'request' },
  { glob: '/support/v1/portal/**', side: 'both' },
  { glob: '/support/v1/sites/**', side: 'response' },
  { glob: '/support/v1/sites', side: 'response' },
  { glob: '/support/v1/mailboxes/**', side: 'response' },
  { glob: '/support/v1/mailboxes', side: 'response' },
  { glob: '/support/v1/inbound/**', side: 'request' },
  { glob: '/support/v1/relay/**', side: 'request' },
  { glob: '/support/v1/chat/threads', side: 'response' },
  { glob: '/wp/v2/users/*/application-passwords', side: 'response' },
  { glob: '/wp/v2/users/*/application-passwords/**', side: 'response' },
];

const SECRET_ROUTES = SECRET_BODY_ROUTES.map((r) => ({ pattern: routeGlob(r.glob), side: r.side }));

export const REDACTED_BODY = '<redacted: this route carries secrets>';

export interface RecordedMessage {
  url: string;
  headers: HeaderList;
  body: string | null;
}

export class Identities {
  private readonly known = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  /** The placeholder of `secret` of kind `kind`, named `label` when the identity is known. */
  of(kind: string, secret: string, label?: string): string {
    const key = `${kind}\u0000${secret}`;
    const found = this.known.get(key);
    if (found) return found;
    const next = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, next);
    const placeholder = `<${kind}:${label ?? next}>`;
    this.known.set(key, placeholder);
    return placeholder;
  }

  /**
   * The request and answer as they may be written down, and what was replaced. `route` is the
   * exchange's route key, for the body rules.
   */
  redact(route: string, request: RecordedMessage, response: { headers: HeaderList; body: string | null }): { request: RecordedMessage; response: { headers: HeaderList; body: string | null } } {
    const swaps: Array<[string, string]> = [];
    const swap = (secret: string, placeholder: string) => {
      // Shorter values (a `theme=dark` cookie) are replaced where they stand, not everywhere in the exchange.
      if (secret.length >= 8) swaps.push([secret, placeholder]);
      return placeholder;
    };
    const headers = request.headers.map(([name, value]) => [name, this.header(name.toLowerCase(), value, swap)] as [string, string]);
    const url = this.params(request.url, swap);
    const secretSide = SECRET_ROUTES.find((r) => r.pattern.test(route))?.side;
    const contentType = request.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    let body = request.body;
    if (body !== null && (secretSide === 'request' || secretSide === 'both')) body = REDACTED_BODY;
    else if (body !== null) body = this.body(body, contentType, swap);
    let responseBody = response.body;
    if (responseBody !== null && (secretSide === 'response' || secretSide === 'both')) responseBody = REDACTED_BODY;
    const responseHeaders = response.headers.map(([name, value]) => [name, name.toLowerCase() === 'set-cookie' ? setCookieValue(value, swap, this) : value] as [string, string]);
    // Longest first, so a whole value goes before a part of it.
    swaps.sort((a, b) => b[0].length - a[0].length);
    const scrub = (text: string) => swaps.reduce((out, [secret, placeholder]) => out.split(secret).join(placeholder), text);
    const scrubHeaders = (list: HeaderList) => list.map(([n, v]) => [n, scrub(v)] as [string, string]);
    return {
      request: { url: scrub(url), headers: scrubHeaders(headers), body: body === null ? null : scrub(body) },
      response: { headers: scrubHeaders(responseHeaders), body: responseBody === null ? null : scrub(responseBody) },
    };
  }

  private header(name: string, value: string, swap: (secret: string, placeholder: string) => string): string {
    if (name === 'authorization') return this.authorization(value, swap);
    if (name === 'cookie') return value.split(/;\s*/).map((pair) => this.cookie(pair, swap)).join('; ');
    const kind = TOKEN_HEADERS[name];
    if (!kind || !value) return value;
    return swap(value, this.of(kind, value));
  }

  private authorization(value: string, swap: (secret: string, placeholder: string) => string): string {
    const basic = /^Basic\s+(\S+)$/i.exec(value.trim());
    if (basic) {
      const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
      const login = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
      const placeholder = this.of('basic', decoded, login ? safeLabel(login) : undefined);
      swap(decoded, placeholder);
      swap(decoded.slice(decoded.indexOf(':') + 1), placeholder);
      swap(basic[1] as string, placeholder);
      return swap(value, placeholder);
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(value.trim());
    if (bearer) return `Bearer ${swap(bearer[1] as string, this.of('bearer', bearer[1] as string))}`;
    return swap(value, this.of('authorization', value));
  }

  /** WordPress's auth cookies hold `login|expiration|token|hmac`: the placeholder names the login. */
  private cookie(pair: string, swap: (secret: string, placeholder: string) => string): string {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!value) return pair;
    const decoded = safeDecode(value);
    const login = /^wordpress_/i.test(name) && decoded.includes('|') ? decoded.split('|')[0] : undefined;
    const placeholder = this.of('cookie', value, login ? `user ${safeLabel(login)}` : `${safeLabel(name)} ${this.count('cookie-name')}`);
    swap(decoded, placeholder);
    return `${name}=${swap(value, placeholder)}`;
  }

  private count(kind: string): number {
    const next = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, next);
    return next;
  }

  /** Nonce and secret-named parameters of a URL's query. */
  private params(url: string, swap: (secret: string, placeholder: string) => string): string {
    const q = url.indexOf('?');
    return q < 0 ? url : url.slice(0, q + 1) + this.form(url.slice(q + 1), swap);
  }

  private form(query: string, swap: (secret: string, placeholder: string) => string): string {
    return query.split('&').map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = safeDecode(pair.slice(0, eq));
      const raw = pair.slice(eq + 1);
      const value = safeDecode(raw.replace(/\+/g, ' '));
      if (!value) return pair;
      if (NONCE_PARAMS.has(name)) return `${pair.slice(0, eq + 1)}${swap(raw, swap(value, this.of('nonce', value)))}`;
      if (SECRET_FIELD.test(name)) return `${pair.slice(0, eq + 1)}${swap(raw, swap(value, this.of('secret', value)))}`;
      return pair;
    }).join('&');
  }

  private body(body: string, contentType: string, swap: (secret: string, placeholder: string) => string): string {
    if (/^application\/x-www-form-urlencoded/i.test(contentType)) return this.form(body, swap);
    if (!/json/i.test(contentType)) return body;
    try {
      return JSON.stringify(this.json(JSON.parse(body), swap));
    } catch {
      return body;
    }
  }

  private json(value: unknown, swap: (secret: string, placeholder: string) => string): unknown {
    if (Array.isArray(value)) return value.map((v) => this.json(v, swap));
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => {
      if (typeof v === 'string' && v && (SECRET_FIELD.test(k) || NONCE_PARAMS.has(k))) return [k, swap(v, this.of(NONCE_PARAMS.has(k) ? 'nonce' : 'secret', v))];
      return [k, this.json(v, swap)];
    }));
  }
}

/** A Set-Cookie's value replaced by a placeholder, its attributes kept (they are what a site sets). */
function setCookieValue(value: string, swap: (secret: string, placeholder: string) => string, ids: Identities): string {
  const semi = value.indexOf(';');
  const pair = semi < 0 ? value : value.slice(0, semi);
  const eq = pair.indexOf('=');
  if (eq < 0 || eq === pair.length - 1) return value;
  const secret = pair.slice(eq + 1);
  return `${pair.slice(0, eq + 1)}${swap(secret, ids.of('set-cookie', secret))}${semi < 0 ? '' : value.slice(semi)}`;
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
