/**
 * WP: wp-admin/admin-ajax.php. The action comes from the request (the body wins over the query);
 * signed-in callers (by cookie alone) reach `wp_ajax_<action>` handlers, everyone else
 * `wp_ajax_nopriv_<action>`; no handler answers `0` with 400.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { CurrentUser } from '../auth/current-user';
import { isWpError } from '../errors';
import { DEFAULT_MAX_BODY_BYTES, readRequestBody } from '../http/body';
import type { UploadedFile } from '../http/multipart';
import { ClientAbortedError, PayloadTooLargeError } from '../http/read-body';
import { BUSY_RETRY_AFTER_SECONDS, ServerBusyError } from '../http/body-memory';
import { noteRoute, noteUser } from '../http/request-notes';
import { PhpQueryValue, parsePhpQuery } from '../http/php-query';
import { clientIp, isSecure, parseCookieHeader, queryString } from '../http/request-info';
import { setStatus } from '../http/status';
import { Site } from '../site';
import { AjaxResponse, wpDie } from './response';

export interface AjaxRequest {
  action: string;
  /** $_REQUEST: the query merged with the body, the body winning. Values are not slashed. */
  params: Record<string, PhpQueryValue>;
  query: Record<string, PhpQueryValue>;
  body: Record<string, PhpQueryValue>;
  files: UploadedFile[];
  /** The multipart body broke off: `body` holds only the fields before the break (PHP goes on with them). */
  bodyMalformed: boolean;
  user: CurrentUser;
  ip: string;
  site: Site;
  header(name: string): string | undefined;
}

export type AjaxHandler = (req: AjaxRequest) => AjaxResponse | Promise<AjaxResponse>;

export interface AjaxAction {
  action: string;
  /** `wp_ajax_<action>`: for signed-in users. */
  priv?: AjaxHandler;
  /** `wp_ajax_nopriv_<action>`: for everyone else. */
  nopriv?: AjaxHandler;
  maxBodyBytes?: number;
  /**
   * WP: admin-ajax.php registers its core GET actions (`rest-nonce`, `logged-in`, …) only when
   * `$_GET['action']` names them, so the same action sent in a POST body finds no handler.
   */
  onlyFromQuery?: boolean;
}

const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };
/** WP: admin_init's send_frame_options_header() and the admin referrer policy. */
const ADMIN_HEADERS = { 'Referrer-Policy': 'strict-origin-when-cross-origin', 'X-Frame-Options': 'SAMEORIGIN' };

export class AjaxRegistry {
  private readonly actions = new Map<string, AjaxAction>();

  register(action: AjaxAction): void {
    if (this.actions.has(action.action)) throw new Error(`admin-ajax action "${action.action}" is registered twice`);
    this.actions.set(action.action, action);
  }

  get(action: string): AjaxAction | undefined {
    return this.actions.get(action);
  }

  /** The registered action names, in registration order. */
  get actionNames(): string[] {
    return [...this.actions.keys()];
  }

  get largestBody(): number {
    return Math.max(DEFAULT_MAX_BODY_BYTES, ...[...this.actions.values()].map((a) => a.maxBodyBytes ?? 0));
  }
}

export async function serveAjax(site: Site, registry: AjaxRegistry, req: Request, res: Response): Promise<void> {
  try {
    const answer = await dispatch(site, registry, req, res);
    if (answer) send(res, req, answer);
  } catch (err) {
    // A client that hung up mid-body gets no answer, and it is no failure of ours to log.
    if (err instanceof ClientAbortedError) return void res.destroy();
    if (err instanceof PayloadTooLargeError) {
      res.setHeader('Connection', 'close');
      return send(res, req, withNoCache(res, wpDie('0', 413)));
    }
    if (err instanceof ServerBusyError) {
      res.setHeader('Connection', 'close');
      res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      return send(res, req, withNoCache(res, wpDie(err.message, 503)));
    }
    if (isWpError(err)) return send(res, req, withNoCache(res, wpDie(err.message, err.status)));
    // WP: a fatal error dies with the critical-error text; the details go to the log under a request id.
    const requestId = randomUUID();
    site.logger.error('admin-ajax request failed', {
      request_id: requestId, action: String(req.query.action ?? ''), error: err instanceof Error ? err.stack : String(err),
    });
    send(res, req, withNoCache(res, wpDie('There has been a critical error on this website.', 500)));
  }
}

async function dispatch(site: Site, registry: AjaxRegistry, req: Request, res: Response): Promise<AjaxResponse | null> {
  if (!(await sendOriginHeaders(site, req, res))) return null;
  res.setHeader('Content-Type', `text/html; charset=${await site.charset()}`);
  res.setHeader('X-Robots-Tag', 'noindex');
  const query = parsePhpQuery(queryString(req.originalUrl));
  const queryAction = query.action;
  const registered = typeof queryAction === 'string' ? registry.get(queryAction) : undefined;
  // PHP goes on with the fields it could read from a broken multipart body; so does admin-ajax.php.
  const decoded = await readRequestBody(req, { limit: registered?.maxBodyBytes ?? registry.largestBody });
  res.once('close', () => void decoded.dispose());
  // WP: $_POST (PHP fills it for form-encoded and multipart POSTs only); $_REQUEST is $_GET with $_POST over it.
  const body = decoded.form ?? {};
  const params = { ...query, ...body };
  const action = params.action;
  // WP: empty( $_REQUEST['action'] ) (so '' and '0') or a non-scalar: 0 with 400, before any admin header.
  if (typeof action !== 'string' || action === '' || action === '0') return withNoCache(res, wpDie('0', 400));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(ADMIN_HEADERS)) res.setHeader(name, value);
  const user = await site.auth.forAjax({
    method: req.method, cookies: parseCookieHeader(req.headers.cookie), ip: clientIp(req), secure: isSecure(req),
  });
  const spec = registry.get(action);
  // Counted and logged by the action when it is one of ours (a bounded set), else as `admin-ajax`.
  if (spec) noteRoute(res, `admin-ajax:${action}`);
  noteUser(res, user.id);
  const available = spec && (!spec.onlyFromQuery || queryAction === action) ? spec : undefined;
  const handler = user.id > 0 ? available?.priv : available?.nopriv;
  if (!handler) return withNoCache(res, wpDie('0', 400));
  const answer = await handler({
    action, params, query, body, files: decoded.files, bodyMalformed: decoded.malformed, user, ip: clientIp(req), site,
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  });
  return withNoCache(res, answer);
}

/**
 * WP: send_origin_headers(): only this site's own origins (scheme and host, without a port, as
 * WordPress compares them) are echoed. Answers a preflight itself; returns false when it did.
 */
async function sendOriginHeaders(site: Site, req: Request, res: Response): Promise<boolean> {
  const origin = req.headers.origin;
  const allowed = origin ? (await allowedOrigins(site)).includes(origin) : false;
  if (allowed) {
    res.setHeader('Access-Control-Allow-Origin', origin as string);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
  }
  if (req.method !== 'OPTIONS') return true;
  // WP exits here with no output; PHP still declares its default content type.
  res.setHeader('Content-Type', 'text/html; charset=UTF-8');
  setStatus(res, allowed ? 200 : 403);
  res.end();
  return false;
}

async function allowedOrigins(site: Site): Promise<string[]> {
  const hosts = new Set<string>();
  for (const url of [await site.siteUrl(), await site.homeUrl()]) {
    try {
      hosts.add(new URL(url).hostname);
    } catch {
      // An unparsable address allows no origin.
    }
  }
  return [...hosts].flatMap((host) => [`http://${host}`, `https://${host}`]);
}

function withNoCache(res: Response, answer: AjaxResponse): AjaxResponse {
  for (const [name, value] of Object.entries(NO_CACHE)) res.setHeader(name, value);
  return answer;
}

function send(res: Response, req: Request, answer: AjaxResponse): void {
  res.setHeader('Content-Type', answer.contentType);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  setStatus(res, answer.status);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

