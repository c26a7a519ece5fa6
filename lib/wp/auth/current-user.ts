/**
 * WP: determine_current_user and rest_cookie_check_errors. Who is calling, decided exactly as
 * WordPress decides it: the auth cookie, then the logged-in cookie, then (REST only) an application
 * password; a cookie counts for REST only with a valid `wp_rest` nonce.
 */
import { CapabilityResolver, NO_CAPABILITIES, UserCapabilities } from '../capabilities';
import { Clock } from '../clock';
import { WpError } from '../errors';
import { Salts } from '../salts';
import { UserStore, WpUser } from '../users';
import { ApplicationPasswords, parseBasicAuthorization } from './app-passwords';
import { CookieNames, parseAuthCookie, validateAuthCookie } from './cookies';
import { createNonce, verifyNonce } from './nonces';

/** The parts of an HTTP request that authentication reads. */
export interface AuthRequest {
  method: string;
  cookies: Record<string, string>;
  authorization?: string;
  ip: string;
  secure: boolean;
}

export interface CurrentUser {
  /** 0 when anonymous. */
  id: number;
  user: WpUser | null;
  caps: UserCapabilities;
  via: 'cookie' | 'application-password' | null;
  /** The logged-in cookie's token, read without validation (it keys nonces, as wp_get_session_token() does). */
  sessionToken: string;
  can(capability: string): boolean;
}

/** What the REST cookie check decided. */
export interface RestAuthResult {
  current: CurrentUser;
  /** 403 rest_cookie_invalid_nonce, when a nonce was sent and is wrong. */
  error?: WpError;
  /** The refreshed nonce for the X-WP-Nonce response header. */
  freshNonce?: string;
  /** A failed nonce check sends no-cache headers even to anonymous callers. */
  forceNoCache: boolean;
}

export interface AuthenticatorDeps {
  users: UserStore;
  capabilities: CapabilityResolver;
  salts: Salts;
  clock: Clock;
  appPasswords: ApplicationPasswords;
  cookieNames: () => Promise<CookieNames>;
}

export class Authenticator {
  constructor(private readonly deps: AuthenticatorDeps) {}

  /** A request that nobody signed: user 0 with no capabilities. */
  anonymous(sessionToken = ''): CurrentUser {
    return { id: 0, user: null, caps: NO_CAPABILITIES, via: null, sessionToken, can: () => false };
  }

  /** WP: the REST request's user, after rest_cookie_check_errors(). `nonce` is `_wpnonce` or X-WP-Nonce. */
  async forRest(req: AuthRequest, nonce: string | undefined): Promise<RestAuthResult> {
    const names = await this.deps.cookieNames();
    const token = parseAuthCookie(req.cookies[names.loggedIn])?.token ?? '';
    const fromCookie = await this.cookieUser(req, names, false);
    if (!fromCookie) {
      const appUser = await this.deps.appPasswords.authenticate(parseBasicAuthorization(req.authorization), req);
      // Signed in by something other than a cookie: no nonce is needed, and none is checked.
      if (appUser) return { current: await this.signedIn(appUser, 'application-password', token), forceNoCache: false };
    }
    if (nonce === undefined) return { current: this.anonymous(token), forceNoCache: false };
    const current = fromCookie ? await this.signedIn(fromCookie, 'cookie', token) : this.anonymous(token);
    const nonceCtx = { salts: this.deps.salts, clock: this.deps.clock };
    if (!(await verifyNonce(nonceCtx, nonce, 'wp_rest', current.id, token))) {
      return { current, error: new WpError('rest_cookie_invalid_nonce', 'Cookie check failed', 403), forceNoCache: true };
    }
    return { current, freshNonce: await createNonce(nonceCtx, 'wp_rest', current.id, token), forceNoCache: false };
  }

  /** WP: the admin-ajax.php user: cookies only (application passwords are for API requests). */
  async forAjax(req: AuthRequest): Promise<CurrentUser> {
    const names = await this.deps.cookieNames();
    const token = parseAuthCookie(req.cookies[names.loggedIn])?.token ?? '';
    const user = await this.cookieUser(req, names, true);
    return user ? this.signedIn(user, 'cookie', token) : this.anonymous(token);
  }

  /** A nonce for `action`, made for this caller as wp_create_nonce() would. */
  createNonce(current: CurrentUser, action: string | number): Promise<string> {
    return createNonce({ salts: this.deps.salts, clock: this.deps.clock }, action, current.id, current.sessionToken);
  }

  /** WP: wp_verify_nonce() for this caller. */
  verifyNonce(current: CurrentUser, nonce: unknown, action: string | number): Promise<1 | 2 | false> {
    return verifyNonce({ salts: this.deps.salts, clock: this.deps.clock }, nonce, action, current.id, current.sessionToken);
  }

  /** The user of a signed-in session, with their capabilities on this site. */
  async signedIn(user: WpUser, via: CurrentUser['via'], sessionToken: string): Promise<CurrentUser> {
    const caps = await this.deps.capabilities.forUser(user);
    return { id: user.ID, user, caps, via, sessionToken, can: (capability) => caps.can(capability) };
  }

  /** WP: wp_validate_auth_cookie() (the secure cookie over HTTPS), then wp_validate_logged_in_cookie(). */
  private async cookieUser(req: AuthRequest, names: CookieNames, ajax: boolean): Promise<WpUser | null> {
    const ctx = { salts: this.deps.salts, users: this.deps.users, clock: this.deps.clock, withGrace: ajax || req.method === 'POST' };
    const authCookie = req.secure ? req.cookies[names.secureAuth] : req.cookies[names.auth];
    const fromAuth = authCookie ? await validateAuthCookie(authCookie, req.secure ? 'secure_auth' : 'auth', ctx) : null;
    if (fromAuth) return fromAuth;
    const loggedIn = req.cookies[names.loggedIn];
    return loggedIn ? validateAuthCookie(loggedIn, 'logged_in', ctx) : null;
  }
}
