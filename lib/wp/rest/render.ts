/**
 * WP: how WP_REST_Server sends an answer: the Allow header, `_fields`, pagination links, `_envelope`,
 * `_jsonp`, the headers every answer carries, CORS, no-cache for signed-in callers, and JSON encoded
 * as PHP's json_encode() writes it.
 */
import type { Request, Response } from 'express';
import { WpError } from '../errors';
import { BoundedMemo } from '../bounded-memo';
import { PhpQueryValue, addQueryArgs } from '../http/php-query';
import { queryString } from '../http/request-info';
import { setStatus } from '../http/status';
import { Site } from '../site';
import { PhpJsonEncodeError, phpJsonEncode } from '../php/json';
import { RouteMatch } from './registry';
import { Availability, RawResponse, RestRequest, RestResponse } from './route';
import { filterFields } from './fields';
import { EVENT_STREAM_HEADERS, StreamResponse, pipeEvents } from './stream';

export interface RenderContext {
  site: Site;
  req: Request;
  res: Response;
  query: Record<string, PhpQueryValue>;
  /** The method WordPress serves (after `_method` / X-HTTP-Method-Override). */
  method: string;
  /** The method came from X-HTTP-Method-Override (a 4xx answer then gets no-cache headers). */
  methodOverridden: boolean;
  path: string;
  requestId: string;
  loggedIn: boolean;
  forceNoCache: boolean;
  freshNonce?: string;
  /** Every parameter of the request (JSON, body, query) before a route is matched, for `_pretty`/`_fields`. */
  params?: Record<string, unknown>;
  match?: RouteMatch;
  /** What the URL names, as the route's subject resolver found it (once per request). */
  subject?: unknown;
  request?: RestRequest;
  /** The matched route's dependency, consulted when the request fails. */
  availability?: Availability;
  /**
   * CORS of a route that lists browser origins: the only origins an answer may name, and whether it
   * allows credentials (else WordPress's rule: any origin, with credentials).
   */
  cors?: { origins: string[]; credentials: boolean; headers?: readonly string[] };
}

const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };
const CORS_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';

export async function renderError(ctx: RenderContext, error: WpError): Promise<void> {
  return renderResult(ctx, new RestResponse(error.toResponseBody(), error.status));
}

/** WP: rest_post_dispatch (Allow, _fields), the envelope, then serve_request()'s sending. */
export async function renderResult(ctx: RenderContext, response: RestResponse): Promise<void> {
  const headers: Record<string, string> = { ...response.headers };
  Object.assign(headers, await paginationLinks(ctx, headers));
  if (ctx.match && ctx.request) {
    const allow = await allowedMethods(ctx.match, ctx.request);
    if (allow) headers.Allow = allow;
  }
  // WP: a handler that returns nothing answers null (no body).
  let data: unknown = response.data === undefined ? null : response.data;
  const fields = requestParams(ctx)._fields;
  // WP_HTTP_Response::is_error(): any status of 400 or more, not only WP_Error answers.
  if (response.status < 400 && fields !== undefined && fields !== null) data = filterFields(data, fields);
  let status = response.status;
  let sent = headers;
  if (ctx.query._envelope !== undefined) {
    data = { body: data, status, headers: Object.keys(headers).length ? headers : [] };
    status = 200;
    sent = {};
  }
  await send(ctx, status, data, sent);
}

/**
 * An attachment or other non-JSON body: the route's own headers, nothing filtered. (CORS for an
 * Origin and no-cache as before; the anonymous Vary is left to the route.)
 */
export async function sendRaw(ctx: RenderContext, response: RawResponse): Promise<void> {
  await writeServerHeaders(ctx, false);
  const { res } = ctx;
  res.removeHeader('Content-Type');
  if (ctx.freshNonce) res.setHeader('X-WP-Nonce', ctx.freshNonce);
  setStatus(res, response.status);
  writeCors(ctx, false);
  applyNoCache(ctx, response.status);
  for (const [name, value] of Object.entries({ ...routeHeaders(ctx), ...response.headers })) res.setHeader(name, value);
  res.end(ctx.method === 'HEAD' ? undefined : response.body);
}

/** An event stream: the server's headers, CORS and the route's headers, then each event as it comes. */
export async function sendStream(ctx: RenderContext, response: StreamResponse): Promise<void> {
  await writeServerHeaders(ctx, false);
  const { res } = ctx;
  if (ctx.freshNonce) res.setHeader('X-WP-Nonce', ctx.freshNonce);
  setStatus(res, response.status);
  writeCors(ctx, false);
  for (const [name, value] of Object.entries({ ...routeHeaders(ctx), ...EVENT_STREAM_HEADERS, ...response.headers })) res.setHeader(name, value);
  if (ctx.method === 'HEAD') return void res.end();
  await pipeEvents(res, response.produce, response.heartbeatMs);
}

/**
 * WP: serve_request() refuses an invalid `_jsonp` callback before it authenticates or dispatches:
 * 400 with only `{code, message}`, sent as JavaScript, without CORS or no-cache headers.
 */
export async function refuseJsonp(ctx: RenderContext): Promise<void> {
  await writeServerHeaders(ctx, true);
  setStatus(ctx.res, 400);
  ctx.res.end(phpJsonEncode({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' }));
}

/** WP: `$_GET['_jsonp']` is a callback only when PHP finds it truthy; an array is never a valid one. */
export function jsonpCallback(query: Record<string, PhpQueryValue>): { callback: string | null; invalid: boolean } {
  const value = query._jsonp;
  if (value === undefined || value === '' || value === '0') return { callback: null, invalid: false };
  // WP: wp_check_jsonp_callback(): only word characters and dots.
  if (typeof value !== 'string' || !/^[\w.]+$/.test(value)) return { callback: null, invalid: true };
  return { callback: value, invalid: false };
}

async function send(ctx: RenderContext, status: number, data: unknown, headers: Record<string, string>): Promise<void> {
  const { res } = ctx;
  const jsonp = jsonpCallback(ctx.query).callback;
  await writeServerHeaders(ctx, jsonp !== null);
  if (ctx.freshNonce) res.setHeader('X-WP-Nonce', ctx.freshNonce);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  setStatus(res, status);
  writeCors(ctx);
  applyNoCache(ctx, status);
  for (const [name, value] of Object.entries(routeHeaders(ctx))) res.setHeader(name, value);
  // WP: HEAD gets the headers only; a 204, or a null result, has no body.
  if (ctx.method === 'HEAD' || status === 204 || data === null) return void res.end();
  const json = encode(ctx, data);
  res.end(jsonp !== null ? `/**/${jsonp}(${json})` : json);
}

/** WP: wp_json_encode() (pretty with `_pretty` in any parameter source); an unencodable value is rest_encode_error 500. */
function encode(ctx: RenderContext, data: unknown): string {
  const pretty = Object.prototype.hasOwnProperty.call(requestParams(ctx), '_pretty');
  try {
    return phpJsonEncode(data, { pretty });
  } catch (err) {
    if (!(err instanceof PhpJsonEncodeError)) throw err;
    setStatus(ctx.res, 500);
    return phpJsonEncode(new WpError('rest_encode_error', err.message, 500).toResponseBody(), { pretty });
  }
}

/** WP: the request headers rest_send_cors_headers() allows. */
const ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';

/** The headers serve_request() sends before it authenticates. */
async function writeServerHeaders(ctx: RenderContext, jsonp: boolean): Promise<void> {
  const { res, site } = ctx;
  const charset = await site.charset();
  res.setHeader('Content-Type', `${jsonp ? 'application/javascript' : 'application/json'}; charset=${charset}`);
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Link', `<${await site.restUrl('/')}>; rel="https://api.w.org/"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link');
  res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
}

/**
 * WP: rest_send_cors_headers(): a non-empty Origin is echoed whatever it is (credentials still need a
 * nonce); without one, an anonymous GET (the real method) varies on Origin all the same.
 */
function writeCors(ctx: RenderContext, varyAnonymous = true): void {
  const { req, res } = ctx;
  const origin = req.headers.origin;
  if (ctx.cors) return writeListedCors(ctx, ctx.cors);
  if (origin && origin !== '0') {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Vary', 'Origin');
  } else if (varyAnonymous && req.method === 'GET' && !ctx.loggedIn) {
    res.setHeader('Vary', 'Origin');
  }
}

/**
 * CORS for a route with listed origins: exactly the request's origin when listed, credentials only
 * when the endpoint allows them, and Vary: Origin on every answer (with an Origin or without).
 */
function writeListedCors(ctx: RenderContext, cors: NonNullable<RenderContext['cors']>): void {
  const { req, res } = ctx;
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  if (!origin || !cors.origins.includes(origin)) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
  if (cors.credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
  if (cors.headers?.length) res.setHeader('Access-Control-Allow-Headers', [ALLOW_HEADERS, ...cors.headers].join(', '));
}

/** WP: no-cache for a signed-in caller, a failed nonce, or a 4xx reached through X-HTTP-Method-Override. */
function applyNoCache(ctx: RenderContext, status: number): void {
  const overriddenClientError = ctx.methodOverridden && status >= 400 && status < 500;
  if (!ctx.loggedIn && !ctx.forceNoCache && !overriddenClientError) return;
  for (const [name, value] of Object.entries(NO_CACHE)) ctx.res.setHeader(name, value);
}

/** Headers a route declares for every answer (they win over the generic no-cache headers). */
function routeHeaders(ctx: RenderContext): Record<string, string> {
  return ctx.match?.route.declaration.headers ?? {};
}

/** The request's parameters: validated once a route matched, else every source merged. */
function requestParams(ctx: RenderContext): Record<string, unknown> {
  return ctx.request?.params ?? ctx.params ?? ctx.query;
}

/**
 * WP: rest_send_allow_header(): methods of the matched route whose permission check returns exactly
 * true; no Allow header at all when there are none.
 */
async function allowedMethods(match: RouteMatch, request: RestRequest): Promise<string> {
  const allowed = new Map<string, boolean>();
  for (const endpoint of match.route.endpoints) {
    let permission: unknown = false;
    try {
      // An endpoint whose caller was never identified (refused before, or another endpoint's) allows nothing.
      const identified = !endpoint.principal || request.principal !== undefined;
      permission = identified ? await endpoint.permission(request) : false;
    } catch {
      permission = false;
    }
    // A later endpoint listing the same method decides for it, as the later array key does in PHP.
    for (const m of endpoint.methods) allowed.set(m, permission === true);
  }
  return [...allowed].filter(([, ok]) => ok).map(([m]) => m).join(', ');
}

/**
 * WP: collection controllers link the previous and next pages; this Link replaces the api.w.org one.
 * The links are add_query_arg( urlencode_deep( $_GET ), collection URL ) with `page` set, so every
 * query parameter (even `rest_route`) is kept, PHP-encoded, in the order the client sent it.
 */
async function paginationLinks(ctx: RenderContext, headers: Record<string, string>): Promise<Record<string, string>> {
  const totalPages = Number(headers['X-WP-TotalPages']);
  if (!ctx.request || headers['X-WP-TotalPages'] === undefined || !Number.isFinite(totalPages)) return {};
  const page = Number(ctx.request.params.page ?? 1);
  const collection = await ctx.site.restUrl(ctx.path);
  // The links follow from these alone (the query is parsed from the query string), and clients page
  // through the same few lists: each header is worked out once.
  const key = `${collection}\n${queryString(ctx.req.originalUrl)}\n${page}\n${totalPages}`;
  const link = keptLinks.get(key, () => linkHeader(addQueryArgs(collection, Object.entries(ctx.query)), page, totalPages));
  return link ? { Link: link } : {};
}

/** Link headers worked out, by collection URL, query string, page and page count. */
const keptLinks = new BoundedMemo<string, string>(1000);

/** The previous and next pages' links (empty when there are neither). */
function linkHeader(base: string, page: number, totalPages: number): string {
  const link = (n: number) => addQueryArgs(base, [['page', n]]);
  const links: string[] = [];
  if (page > 1) links.push(`<${link(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (totalPages > page) links.push(`<${link(page + 1)}>; rel="next"`);
  return links.join(', ');
}
