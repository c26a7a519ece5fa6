/**
 * WP: WP_REST_Server::serve_request() and dispatch(), over Express. The stages run in WordPress's
 * order: authentication (cookie nonce) → OPTIONS → route match → JSON → arguments → permission →
 * rate limit → handler → response filters (Allow, _fields, pagination) → envelope/JSONP → headers.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { RestAuthResult } from '../auth/current-user';
import { WpError, isWpError } from '../errors';
import { PayloadTooLargeError, decodeBody, readBody } from '../http/body';
import { parsePhpQuery } from '../http/php-query';
import { clientIp, isSecure, parseCookieHeader, queryString } from '../http/request-info';
import { Site } from '../site';
import { validateArgs } from './args';
import { jsonErrorForBody } from './php-json';
import { RouteMatch, RestRegistry } from './registry';
import { effectiveMethod, mergeParams, normalizeRestPath, parseJsonBody } from './request';
import { RenderContext, renderError, renderResult, sendRaw } from './render';
import { RawResponse, RestRequest, RestResponse, DEFAULT_MAX_BODY_BYTES, HttpMethod } from './route';
import { optionsData } from './discovery';

export class RestServer {
  constructor(private readonly site: Site, readonly registry: RestRegistry) {}

  /** Serves one REST request whose route (the part after /wp-json) is `routePath`. */
  async serve(req: Request, res: Response, routePath: string): Promise<void> {
    const requestId = randomUUID();
    const query = parsePhpQuery(queryString(req.originalUrl));
    const method = effectiveMethod(req, query);
    const path = normalizeRestPath(routePath);
    const ctx: RenderContext = { site: this.site, req, res, query, method, path, requestId, loggedIn: false, forceNoCache: false };
    try {
      await this.respond(ctx);
    } catch (err) {
      if (err instanceof PayloadTooLargeError) res.setHeader('Connection', 'close');
      await this.fail(ctx, err);
    }
  }

  /** WP: rest_api_loaded(): a `rest_route` that is not a string (e.g. `rest_route[]=x`) is refused. */
  async refuseRoutePath(req: Request, res: Response): Promise<void> {
    const query = parsePhpQuery(queryString(req.originalUrl));
    const ctx: RenderContext = { site: this.site, req, res, query, method: req.method, path: '/', requestId: randomUUID(), loggedIn: false, forceNoCache: false };
    await renderError(ctx, new WpError('rest_path_invalid_type', 'The REST route parameter must be a string.', 400));
  }

  private async respond(ctx: RenderContext): Promise<void> {
    const { req, method, path, query } = ctx;
    const match = this.registry.match(path, method);
    const raw = await readBody(req, match?.endpoint.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    const body = match?.endpoint.rawBody ? { form: null, jsonText: null, files: [] } : await decodeBody(raw, req.headers['content-type']);
    const auth = await this.authenticate(req, query, body.form);
    ctx.loggedIn = auth.current.id > 0;
    ctx.forceNoCache = auth.forceNoCache;
    ctx.freshNonce = auth.freshNonce;
    if (auth.error) return renderError(ctx, auth.error);
    if (method === 'OPTIONS') return this.options(ctx, auth);
    if (!match) return renderError(ctx, new WpError('rest_no_route', 'No route was found matching the URL and request method.', 404));
    ctx.match = match;
    const json = parseJsonBody(body.jsonText, (text) => jsonErrorForBody(text) ?? { code: 4, message: 'Syntax error' });
    const params = mergeParams(method, json.value, body, query, match.urlParams);
    const request = this.buildRequest(ctx, match, auth, params, json.value ?? body.form, raw, body.files);
    ctx.request = request;
    if (json.error) return renderError(ctx, json.error);
    request.params = validateArgs(match.endpoint.compiled, request.params);
    await this.authorize(match, request);
    await this.limitRate(match, request);
    const result = await match.endpoint.handler(request);
    if (result instanceof RawResponse) return sendRaw(ctx, result);
    return renderResult(ctx, result instanceof RestResponse ? result : new RestResponse(result));
  }

  /** WP: rest_handle_options_request(): the route's description, with the Allow header of its first match. */
  private async options(ctx: RenderContext, auth: RestAuthResult): Promise<void> {
    const found = this.registry.routesFor(ctx.path)[0];
    if (found) {
      ctx.match = { route: found.route, endpoint: found.route.endpoints[0] as RouteMatch['endpoint'], urlParams: found.urlParams };
      ctx.request = this.buildRequest(ctx, ctx.match, auth, { ...ctx.query, ...found.urlParams }, null, Buffer.alloc(0), []);
    }
    return renderResult(ctx, new RestResponse(await optionsData(this.site, this.registry, ctx.path)));
  }

  private async authenticate(req: Request, query: Record<string, unknown>, form: Record<string, unknown> | null): Promise<RestAuthResult> {
    // WP: the nonce is $_REQUEST['_wpnonce'] (query or form body, never JSON), else X-WP-Nonce.
    const fromRequest = form?._wpnonce ?? query._wpnonce;
    const header = req.headers['x-wp-nonce'];
    const nonce = fromRequest !== undefined ? String(fromRequest) : typeof header === 'string' ? header : undefined;
    return this.site.auth.forRest({
      method: req.method,
      cookies: parseCookieHeader(req.headers.cookie),
      authorization: req.headers.authorization,
      ip: clientIp(req),
      secure: isSecure(req),
    }, nonce);
  }

  /** WP: a permission callback's false becomes rest_forbidden: 401 signed out, 403 signed in. */
  private async authorize(match: RouteMatch, request: RestRequest): Promise<void> {
    const allowed = await match.endpoint.permission(request);
    if (isWpError(allowed)) throw allowed;
    if (allowed !== true) {
      throw new WpError('rest_forbidden', 'Sorry, you are not allowed to do that.', request.user.id > 0 ? 403 : 401);
    }
  }

  private async limitRate(match: RouteMatch, request: RestRequest): Promise<void> {
    const spec = match.endpoint.rateLimit;
    if (!spec) return;
    const who = spec.key ? spec.key(request) : request.user.id > 0 ? `user:${request.user.id}` : `ip:${request.ip}`;
    const decision = await this.site.rateLimiter.hit(`${spec.name}:${who}`, spec.limit, spec.windowSeconds);
    if (!decision.allowed) {
      throw new WpError('rest_too_many_requests', `Too many requests. Try again in ${decision.retryAfter} seconds.`, 429, {
        retry_after: decision.retryAfter,
      });
    }
  }

  private buildRequest(
    ctx: RenderContext, match: RouteMatch, auth: RestAuthResult, params: Record<string, unknown>,
    body: Record<string, unknown> | null, raw: Buffer, files: RestRequest['files'],
  ): RestRequest {
    const { req } = ctx;
    return {
      method: ctx.method as HttpMethod,
      path: ctx.path,
      params,
      urlParams: match.urlParams,
      query: ctx.query,
      body,
      rawBody: match.endpoint.rawBody ? raw : null,
      files,
      user: auth.current,
      ip: clientIp(req),
      secure: isSecure(req),
      site: this.site,
      header: (name) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  private async fail(ctx: RenderContext, err: unknown): Promise<void> {
    if (isWpError(err)) {
      if (err.status === 429 && typeof err.data.retry_after === 'number') ctx.res.setHeader('Retry-After', String(err.data.retry_after));
      return renderError(ctx, err);
    }
    this.site.logger.error('REST request failed', { request_id: ctx.requestId, path: ctx.path, method: ctx.method, error: errorText(err) });
    return renderError(ctx, new WpError('internal_server_error', 'There has been a critical error on this website.', 500, { request_id: ctx.requestId }));
  }
}


function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err);
}
