/**
 * Credentials in captures: replacing the ones captured (a production user's application password,
 * cookie or nonce) by ones valid on the target, and listing every secret a request carries so that
 * reports can redact them.
 */
import type { CapturedRequest, HeaderList } from './capture';
import { safeDecode } from './route-key';

/**
 * One substitution. `basic`: `login:password` as typed (matched against the decoded Basic header);
 * `cookie`: any part of the Cookie header (a whole `name=value` or just the value); `nonce`: the
 * value of X-WP-Nonce and of `_wpnonce`/`_ajax_nonce`-style parameters; `header`: the value of `name`;
 * `identity`: a placeholder of a proxy recording (`<basic:agent1>`, `<cookie:user agent1>`) wherever it
 * stands, by the target's credential (`<basic:…>` as `login:password`, sent encoded).
 */
export interface CredentialSubstitution {
  user?: string;
  type: 'basic' | 'cookie' | 'nonce' | 'header' | 'identity';
  name?: string;
  captured: string;
  replacement: string;
}

/** Headers whose values are credentials whatever they hold. */
export const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-wp-nonce']);

/** Query and form parameters that carry nonces in WordPress. */
const NONCE_PARAMS = new Set(['_wpnonce', '_ajax_nonce', 'security', 'nonce']);

/** The request as it should be sent: captured credentials swapped for their replacements. */
export function substituteCredentials(request: CapturedRequest, subs: readonly CredentialSubstitution[]): CapturedRequest {
  if (!subs.length) return request;
  const identities = subs.filter((s) => s.type === 'identity');
  if (identities.length) request = substituteIdentities(request, identities);
  const headers: HeaderList = request.headers.map(([name, value]) => [name, substituteHeader(name.toLowerCase(), value, subs)]);
  const nonces = new Map(subs.filter((s) => s.type === 'nonce').map((s) => [s.captured, s.replacement]));
  const q = request.url.indexOf('?');
  const url = q < 0 ? request.url : request.url.slice(0, q + 1) + replaceParams(request.url.slice(q + 1), nonces);
  const type = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const isForm = request.body !== null && /^application\/x-www-form-urlencoded/i.test(type);
  return { ...request, url, headers, body: isForm ? replaceParams(request.body as string, nonces) : request.body };
}

/** Placeholders of a recording: in headers, in the URL (raw or percent-encoded) and in the body. */
function substituteIdentities(request: CapturedRequest, subs: readonly CredentialSubstitution[]): CapturedRequest {
  const swap = (text: string, encode: (value: string) => string) => subs.reduce((out, s) => out
    .split(s.captured).join(encode(s.replacement))
    .split(encodeURIComponent(s.captured)).join(encodeURIComponent(s.replacement)), text);
  const headers: HeaderList = request.headers.map(([name, value]) => {
    const basic = subs.find((s) => s.captured === value && s.captured.startsWith('<basic:'));
    if (basic && name.toLowerCase() === 'authorization') return [name, encodeBasic(basic.replacement)];
    return [name, swap(value, (v) => v)];
  });
  const type = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const inBody = /^application\/x-www-form-urlencoded/i.test(type) ? encodeURIComponent : /json/i.test(type) ? (v: string) => JSON.stringify(v).slice(1, -1) : (v: string) => v;
  return { ...request, url: swap(request.url, encodeURIComponent), headers, body: request.body === null ? null : swap(request.body, inBody) };
}

function substituteHeader(name: string, value: string, subs: readonly CredentialSubstitution[]): string {
  let out = value;
  for (const sub of subs) {
    if (sub.type === 'basic' && name === 'authorization' && decodeBasic(out) === sub.captured) out = encodeBasic(sub.replacement);
    if (sub.type === 'cookie' && name === 'cookie') out = out.split(sub.captured).join(sub.replacement);
    if (sub.type === 'nonce' && name === 'x-wp-nonce' && out === sub.captured) out = sub.replacement;
    if (sub.type === 'header' && name === sub.name?.toLowerCase() && out === sub.captured) out = sub.replacement;
  }
  return out;
}

/** Swaps nonce parameter values in a raw query string, leaving every other byte as captured. */
function replaceParams(query: string, nonces: Map<string, string>): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0 || !NONCE_PARAMS.has(safeDecode(pair.slice(0, eq)))) return pair;
      const replacement = nonces.get(safeDecode(pair.slice(eq + 1)));
      return replacement === undefined ? pair : `${pair.slice(0, eq + 1)}${encodeURIComponent(replacement)}`;
    })
    .join('&');
}

/** Every secret a request carries, in every form a report might show it. */
export function secretsOf(request: CapturedRequest): string[] {
  const found: string[] = [];
  for (const [rawName, value] of request.headers) {
    const name = rawName.toLowerCase();
    if (!SECRET_HEADERS.has(name)) continue;
    found.push(value);
    if (name === 'authorization') found.push(...basicParts(value));
    if (name === 'cookie') for (const part of value.split(/;\s*/)) found.push(part, part.slice(part.indexOf('=') + 1), safeDecode(part.slice(part.indexOf('=') + 1)));
  }
  const params = new URL(request.url).searchParams;
  if (request.body && !request.body.trimStart().startsWith('{')) for (const [k, v] of new URLSearchParams(request.body)) params.append(k, v);
  for (const [key, value] of params) if (NONCE_PARAMS.has(key)) found.push(value);
  return found;
}

/** The secrets a list of substitutions names: captured and replacement, raw and encoded. */
export function secretsOfSubstitutions(subs: readonly CredentialSubstitution[]): string[] {
  return subs.flatMap((s) => {
    const values = [s.captured, s.replacement];
    if (s.type === 'basic' || (s.type === 'identity' && s.captured.startsWith('<basic:'))) values.push(encodeBasic(s.captured), encodeBasic(s.replacement), ...[s.captured, s.replacement].map(passwordOf));
    return values;
  });
}

function basicParts(value: string): string[] {
  const decoded = decodeBasic(value);
  return decoded === undefined ? [] : [decoded, passwordOf(decoded), value.replace(/^Basic\s+/i, '')];
}

function decodeBasic(value: string): string | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(value.trim());
  return m ? Buffer.from(m[1] as string, 'base64').toString('utf8') : undefined;
}

function encodeBasic(loginPassword: string): string {
  return `Basic ${Buffer.from(loginPassword, 'utf8').toString('base64')}`;
}

function passwordOf(loginPassword: string): string {
  return loginPassword.slice(loginPassword.indexOf(':') + 1);
}
