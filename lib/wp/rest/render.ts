/**
 * WP: how WP_REST_Server sends an answer: the Allow header, `_fields`, pagination links, `_envelope`,
 * `_jsonp`, the headers every answer carries, CORS, no-cache for signed-in callers, and JSON encoded
 * as PHP's json_encode() writes it.
 */
import type { Request, Response } from 'express';
import { WpError } from '../errors';
import { PhpQueryValue } from '../http/php-query';
import { Site } from '../site';
import { phpJsonEncode } from './php-json';
import { RouteMatch } from './registry';
import { RawResponse, RestRequest, RestResponse } from './route';
import { filterFields } from './fields';

export interface RenderContext {
  site: Site;
  req: Request;
  res: Response;
  query: Record<string, PhpQueryValue>;
  method: string;
  path: string;
  requestId: string;
  loggedIn: boolean;
  forceNoCache: boolean;
  freshNonce?: string;
  match?: RouteMatch;
  request?: RestRequest;
}

const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };
const CORS_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';

export async function renderError(ctx: RenderContext, error: WpError): Promise<void> {
  return renderResult(ctx, new RestResponse(error.toResponseBody(), error.status), true);
}

export async function renderResult(ctx: RenderContext, response: RestResponse, isError = false): Promise<void> {
  const headers: Record<string, string> = { ...response.headers };
  if (ctx.match && ctx.request) headers.Allow = await allowedMethods(ctx.match, ctx.request);
  if (!isError) Object.assign(headers, await paginationLinks(ctx, headers));
  let data = isError || ctx.query._fields === undefined ? response.data : filterFields(response.data, String(ctx.query._fields));
  let status = response.status;
  let sent = headers;
  if (ctx.query._envelope !== undefined) {
    data = { body: data, status, headers: Object.keys(headers).length ? headers : [] };
    status = 200;
    sent = {};
  }
  await send(ctx, status, data, sent);
}

/** An attachment or other non-JSON body: the route's own headers, nothing filtered. */
export async function sendRaw(ctx: RenderContext, response: RawResponse): Promise<void> {
  await writeCommonHeaders(ctx);
  const { res } = ctx;
  res.removeHeader('Content-Type');
  applyNoCache(ctx);
  for (const [name, value] of Object.entries({ ...routeHeaders(ctx), ...response.headers })) res.setHeader(name, value);
  res.status(response.status);
  res.end(ctx.req.method === 'HEAD' ? undefined : response.body);
}

async function send(ctx: RenderContext, status: number, data: unknown, headers: Record<string, string>): Promise<void> {
  const { res, req } = ctx;
  const jsonp = typeof ctx.query._jsonp === 'string' ? ctx.query._jsonp : undefined;
  if (jsonp !== undefined && !/^[\w.]+$/.test(jsonp)) {
    return send({ ...ctx, query: { ...ctx.query, _jsonp: undefined as unknown as string } }, 400, { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.', data: { status: 400 } }, {});
  }
  await writeCommonHeaders(ctx, jsonp !== undefined);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (!req.headers.origin && req.method === 'GET' && !ctx.loggedIn) res.setHeader('Vary', 'Origin');
  applyNoCache(ctx);
  for (const [name, value] of Object.entries(routeHeaders(ctx))) res.setHeader(name, value);
  res.status(status);
  // WP: a 204, or a null result, has no body.
  if (req.method === 'HEAD' || status === 204 || data === null) return void res.end();
  const json = phpJsonEncode(data, { pretty: ctx.query._pretty !== undefined });
  res.end(jsonp !== undefined ? `/**/${jsonp}(${json})` : json);
}

async function writeCommonHeaders(ctx: RenderContext, jsonp = false): Promise<void> {
  const { res, req, site } = ctx;
  const charset = await site.charset();
  res.setHeader('Content-Type', `${jsonp ? 'application/javascript' : 'application/json'}; charset=${charset}`);
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Link', `<${await site.restUrl('/')}>; rel="https://api.w.org/"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type');
  const origin = req.headers.origin;
  if (origin !== undefined) {
    // WP: rest_send_cors_headers() echoes whatever Origin was sent; credentials still need a nonce.
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Vary', 'Origin');
  }
  if (ctx.freshNonce) res.setHeader('X-WP-Nonce', ctx.freshNonce);
}

function applyNoCache(ctx: RenderContext): void {
  if (!ctx.loggedIn && !ctx.forceNoCache) return;
  for (const [name, value] of Object.entries(NO_CACHE)) ctx.res.setHeader(name, value);
}

/** Headers a route declares for every answer (they win over the generic no-cache headers). */
function routeHeaders(ctx: RenderContext): Record<string, string> {
  return ctx.match?.route.declaration.headers ?? {};
}

/** WP: rest_send_allow_header(): methods of the matched route whose permission check returns exactly true. */
async function allowedMethods(match: RouteMatch, request: RestRequest): Promise<string> {
  const methods: string[] = [];
  for (const endpoint of match.route.endpoints) {
    let allowed: unknown = false;
    try {
      allowed = await endpoint.permission(request);
    } catch {
      allowed = false;
    }
    if (allowed === true) for (const m of endpoint.methods) if (!methods.includes(m)) methods.push(m);
  }
  return methods.join(', ');
}

/** WP: collection controllers link the previous and next pages; this Link replaces the api.w.org one. */
async function paginationLinks(ctx: RenderContext, headers: Record<string, string>): Promise<Record<string, string>> {
  const totalPages = Number(headers['X-WP-TotalPages']);
  if (!ctx.request || !Number.isFinite(totalPages)) return {};
  const page = Number(ctx.request.params.page ?? 1);
  const query = Object.entries(ctx.query).filter(([k]) => k !== 'page' && k !== 'rest_route' && typeof ctx.query[k] === 'string');
  const base = await ctx.site.restUrl(ctx.path);
  const link = (n: number) => {
    const params = new URLSearchParams([...query.map(([k, v]) => [k, String(v)] as [string, string]), ['page', String(n)]]);
    return `${base}${base.includes('?') ? '&' : '?'}${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${link(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  return links.length ? { Link: links.join(', ') } : {};
}
