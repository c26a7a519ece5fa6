/**
 * WP: WordPress's authentication cookies (wp_generate_auth_cookie / wp_validate_auth_cookie) and the
 * session tokens they point at (WP_User_Meta_Session_Tokens). Cookie value: `login|expiration|token|hmac`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Clock, unixSeconds } from '../clock';
import { Salts } from '../salts';
import { hashEquals, passFrag } from '../passwords';
import { UserStore, WpUser, userMeta } from '../users';

export type CookieScheme = 'auth' | 'secure_auth' | 'logged_in';

export interface CookieNames {
  auth: string;
  secureAuth: string;
  loggedIn: string;
}

/**
 * WP: wp_cookie_constants(): COOKIEHASH is the md5 of get_site_option('siteurl'), or empty when that
 * option is. On a single site that is get_option('siteurl'): WP_SITEURL or the option, untrailingslashed
 * (singleSiteUrl(), cookie-constants.ts); on a network it is the network's (`{prefix}sitemeta`), stored
 * with a trailing slash and hashed with it, so every site of a network shares one cookie name.
 */
export function cookieHash(siteUrlOption: string | null): string {
  return siteUrlOption ? createHash('md5').update(siteUrlOption).digest('hex') : '';
}

/** The cookie names, which end with COOKIEHASH. */
export function cookieNames(hash: string): CookieNames {
  return { auth: `wordpress_${hash}`, secureAuth: `wordpress_sec_${hash}`, loggedIn: `wordpress_logged_in_${hash}` };
}

export interface ParsedAuthCookie {
  login: string;
  expiration: number;
  token: string;
  hmac: string;
}

/** WP: wp_parse_auth_cookie(): exactly four `|`-separated parts, or nothing. */
export function parseAuthCookie(value: string | undefined): ParsedAuthCookie | null {
  if (!value) return null;
  const parts = value.split('|');
  if (parts.length !== 4) return null;
  const [login, expiration, token, hmac] = parts as [string, string, string, string];
  return { login, expiration: Number(expiration), token, hmac };
}

/** The HMAC a cookie must carry for this user, expiration and token. */
export async function cookieHmac(salts: Salts, scheme: CookieScheme, login: string, userPass: string, expiration: number, token: string): Promise<string> {
  const key = await salts.hash(`${login}|${passFrag(userPass)}|${expiration}|${token}`, scheme);
  return createHmac('sha256', key).update(`${login}|${expiration}|${token}`).digest('hex');
}

/** WP: wp_generate_auth_cookie(). */
export async function generateAuthCookie(salts: Salts, user: WpUser, expiration: number, token: string, scheme: CookieScheme): Promise<string> {
  const hmac = await cookieHmac(salts, scheme, user.user_login, user.user_pass, expiration, token);
  return `${user.user_login}|${expiration}|${token}|${hmac}`;
}

export interface CookieCheckContext {
  salts: Salts;
  users: UserStore;
  clock: Clock;
  /** POST and admin-ajax requests get an hour's grace past the expiration, as in WordPress. */
  withGrace: boolean;
}

/**
 * WP: wp_validate_auth_cookie(): the user the cookie signs in, or null when it has expired, names
 * no user, carries a wrong HMAC (compared in constant time) or points at a session that no longer exists.
 */
export async function validateAuthCookie(value: string | undefined, scheme: CookieScheme, ctx: CookieCheckContext): Promise<WpUser | null> {
  const cookie = parseAuthCookie(value);
  if (!cookie || !Number.isFinite(cookie.expiration)) return null;
  const now = unixSeconds(ctx.clock);
  const grace = ctx.withGrace ? 3600 : 0;
  if (cookie.expiration + grace < now) return null;
  const user = await ctx.users.byLogin(cookie.login);
  if (!user) return null;
  // The HMAC is recomputed with the login as the cookie spells it, as WordPress does.
  const expected = await cookieHmac(ctx.salts, scheme, cookie.login, user.user_pass, cookie.expiration, cookie.token);
  if (!hashEquals(expected, cookie.hmac)) return null;
  if (sessionIsValid(user, cookie.token, now)) return user;
  // A cookie signed with the salts for a session the cached user lacks: PHP may have just signed them in
  // (wp-login.php, then at once a request here). The user is read again before the session counts as gone.
  const fresh = await ctx.users.reload(user.ID);
  return fresh && fresh.user_pass === user.user_pass && sessionIsValid(fresh, cookie.token, now) ? fresh : null;
}

/** WP: WP_Session_Tokens::verify(): the sha256 of the token is a key of `session_tokens` and has not expired. */
export function sessionIsValid(user: WpUser, token: string, now: number): boolean {
  const sessions = userMeta(user, 'session_tokens');
  if (!sessions || typeof sessions !== 'object') return false;
  const verifier = createHash('sha256').update(token).digest('hex');
  const session = (sessions as Record<string, { expiration?: unknown }>)[verifier];
  return Boolean(session) && Number(session?.expiration) >= now;
}

/** WP: WP_Session_Tokens::create(): stores a new session and returns its token (43 alphanumerics). */
export async function createSession(users: UserStore, user: WpUser, expiration: number, now: number, info: { ip?: string; ua?: string } = {}): Promise<string> {
  const token = randomToken(43);
  const verifier = createHash('sha256').update(token).digest('hex');
  const current = userMeta(user, 'session_tokens');
  const sessions: Record<string, unknown> = {};
  // Expired sessions are dropped on every write, as WordPress does.
  for (const [key, session] of Object.entries((current as Record<string, any>) ?? {})) {
    if (Number(session?.expiration) >= now) sessions[key] = session;
  }
  sessions[verifier] = { expiration, ip: info.ip ?? '', ua: info.ua ?? '', login: now };
  await users.updateMeta(user.ID, 'session_tokens', sessions);
  return token;
}

function randomToken(length: number): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) if (byte < 248 && out.length < length) out += chars[byte % 62];
  }
  return out;
}
