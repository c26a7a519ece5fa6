/**
 * WP: WP_REST_Server::serve_request() and dispatch(), over Express. The stages run in WordPress's
 * order: JSONP check → authentication (cookie nonce) → OPTIONS → route match → JSON → arguments →
 * permission → rate limit → handler → response filters (Allow, _fields, pagination) → envelope →
 * headers (CORS, no-cache) → JSON/JSONP body.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { RestAuthResult } from '../auth/current-user';
import { WpError, isWpError } from '../errors';
import { DEFAULT_MAX_BODY_BYTES, RequestBody, readRequestBody } from '../http/body';
import { ClientAbortedError, PayloadTooLargeError, bodyPending, refuseDeclaredSize } from '../http/read-body';
import { ServerBusyError } from '../http/body-memory';
import { parsePhpQuery } from '../http/php-query';
import { clientIp, isSecure, parseCookieHeader, queryString } from '../http/request-info';
import { noteRoute, noteUser, notesOf } from '../http/request-notes';
import { visitorBucket } from '../http/address-key';
import { Site } from '../site';
import { validateArgs } from './args';
import { RouteMatch, RestRegistry } from './registry';
import { bodyParams, effectiveMethod, mergeParams, normalizeRestPath, parseJsonBody } from './request';
import { RenderContext, jsonpCallback, refuseJsonp, renderError, renderResult, sendRaw, sendStream } from './render';
import { StreamResponse } from './stream';
import { RawResponse, RequestHead, RestRequest, RestResponse, HttpMethod } from './route';
import { optionsData } from './discovery';

/** The body as the request's sources see it: $_POST, the JSON object, and what went wrong reading it. */
interface RequestSources {
  body: RequestBody;
  post: Record<string, unknown> | null;
  json: ReturnType<typeof parseJsonBody>;
  raw: Buffer;
}

export class RestServer {
  constructor(private readonly site: Site, readonly registry: RestRegistry) {}

  /** Serves one REST request whose route (the part after /wp-json) is `routePath`. */
  async serve(req: Request, res: Response, routePath: string): Promise<void> {
    const query = parsePhpQuery(queryString(req.originalUrl));
    const { method, overriddenByHeader } = effectiveMethod(req, query);
    const ctx: RenderContext = {
      site: this.site, req, res, query, method, methodOverridden: overriddenByHeader, path: normalizeRestPath(routePath),
      requestId: notesOf(res).requestId ?? randomUUID(), loggedIn: false, forceNoCache: false,
    };
    try {
      // WP: an invalid JSONP callback is refused before the request is even authenticated.
      if (jsonpCallback(query).invalid) return await refuseJsonp(ctx);
      await this.respond(ctx);
    } catch (err) {
      // A client that hung up mid-body gets no answer, and it is no failure of ours to log.
      if (err instanceof ClientAbortedError) return void res.destroy();
      // The body is left unread: the connection cannot carry another request.
      if (err instanceof PayloadTooLargeError || err instanceof ServerBusyError) res.setHeader('Connection', 'close');
      await this.fail(ctx, err);
    }
  }

  /** WP (6.8+): rest_api_loaded(): a `rest_route` that is not a string (e.g. `rest_route[]=x`) is refused. */
  async refuseRoutePath(req: Request, res: Response): Promise<void> {
    const query = parsePhpQuery(queryString(req.originalUrl));
    const ctx: RenderContext = {
      site: this.site, req, res, query, method: req.method, methodOverridden: false, path: '/', requestId: randomUUID(), loggedIn: false, forceNoCache: false,
    };
    await renderError(ctx, new WpError('rest_path_invalid_type', 'The REST route parameter must be a string.', 400));
  }

  private async respond(ctx: RenderContext): Promise<void> {
    const { req, method, path, query } = ctx;
    const match = this.registry.match(path, method);
    if (match) noteRoute(ctx.res, match.route.fullRoute);
    ctx.availability = match?.route.declaration.availability;
    // A route that lists origins answers CORS by its list from here on: errors before the origin
    // stage (a body too large, a bad argument) vary on Origin and name no other origin either.
    await this.listOrigins(ctx, match);
    const gated = match ? await match.route.declaration.gate?.(this.head(ctx, match.urlParams)) : null;
    if (gated) return renderError(ctx, gated);
    const limit = match?.endpoint.maxBodyBytes;
    const maxBodyBytes = (typeof limit === 'function' ? await limit(this.site, (match as RouteMatch).urlParams, this.head(ctx, (match as RouteMatch).urlParams)) : limit) ?? DEFAULT_MAX_BODY_BYTES;
    // A larger declared body is refused first (no credential can make it fit), then a wrong
    // credential, both before any of the body is read.
    refuseDeclaredSize(req, maxBodyBytes);
    const refused = match ? await match.endpoint.headCredential?.(this.head(ctx, match.urlParams)) : null;
    if (refused) return this.refuseUnread(ctx, refused);
    const sources = await this.readSources(ctx, match?.endpoint.rawBody === true, maxBodyBytes);
    ctx.params = mergeParams(method, sources.json.value, sources.post, query, {});
    const auth = await this.authenticate(req, query, sources.body.form);
    ctx.loggedIn = auth.current.id > 0;
    noteUser(ctx.res, auth.current.id);
    ctx.forceNoCache = auth.forceNoCache;
    ctx.freshNonce = auth.freshNonce;
    if (auth.error) return renderError(ctx, auth.error);
    if (method === 'OPTIONS') return this.options(ctx, auth, sources);
    if (!match) return renderError(ctx, new WpError('rest_no_route', 'No route was found matching the URL and request method.', 404));
    ctx.match = match;
    const unavailable = await ctx.availability?.check(this.site);
    if (unavailable) return renderError(ctx, unavailable);
    const params = mergeParams(method, sources.json.value, sources.post, query, match.urlParams);
    const request = this.buildRequest(ctx, match, auth, params, sources.json.value ?? sources.post, sources.raw, sources.body.files);
    ctx.request = request;
    // WP: has_valid_params(): a broken JSON body first, then the arguments; both before the permission check.
    if (sources.json.error) return renderError(ctx, sources.json.error);
    request.params = validateArgs(match.endpoint.compiled, request.params);
    this.checkOrigin(ctx, match.endpoint);
    await this.identify(match, request);
    await this.authorize(match, request);
    await this.limitRate(match, request);
    const result = await match.endpoint.handler(request);
    // WP: a callback that returns a WP_Error answers with it, as if it had been thrown.
    if (isWpError(result)) throw result;
    if (result instanceof RawResponse) return sendRaw(ctx, result);
    if (result instanceof StreamResponse) return sendStream(ctx, result);
    return renderResult(ctx, result instanceof RestResponse ? result : new RestResponse(result));
  }

  /**
   * Answers a request refused on its head alone, its body unread: the connection closes after the
   * answer, so that the body is neither read (Node would drain it to reuse the connection) nor taken
   * for the next request.
   */
  private refuseUnread(ctx: RenderContext, err: WpError): Promise<void> {
    if (bodyPending(ctx.req)) ctx.res.setHeader('Connection', 'close');
    return renderError(ctx, err);
  }

  /** The body within the route's size limit, decoded into the sources WordPress reads parameters from. */
  private async readSources(ctx: RenderContext, keepRaw: boolean, maxBodyBytes: number): Promise<RequestSources> {
    const { req, res, method } = ctx;
    const body = await readRequestBody(req, { limit: maxBodyBytes, keepRaw });
    res.once('close', () => void body.dispose());
    // PHP would go on with the fields it could read; a REST client is better served by a clear error.
    if (body.malformed) throw new WpError('rest_invalid_multipart', 'The multipart body could not be read.', 400);
    if (keepRaw) return { body, post: null, json: { value: null }, raw: body.raw };
    const contentType = req.headers['content-type'];
    return { body, post: bodyParams(method, body, body.raw, contentType), json: parseJsonBody(body.json), raw: body.raw };
  }

  /**
   * WP: rest_handle_options_request(): the first route (of all) matching the path, described with its
   * schema; the Allow header is that route's, for this caller. An unknown route answers `[]`.
   */
  private async options(ctx: RenderContext, auth: RestAuthResult, sources: RequestSources): Promise<void> {
    const found = this.registry.routesFor(ctx.path, true)[0];
    if (found) {
      ctx.match = { route: found.route, endpoint: found.route.endpoints[0] as RouteMatch['endpoint'], urlParams: found.urlParams };
      const params = mergeParams(ctx.method, sources.json.value, sources.post, ctx.query, found.urlParams);
      ctx.request = this.buildRequest(ctx, ctx.match, auth, params, sources.json.value ?? sources.post, Buffer.alloc(0), []);
    }
    return renderResult(ctx, new RestResponse(await optionsData(this.site, this.registry, ctx.path)));
  }

  /**
   * When the request's route lists browser origins (on any of its endpoints), CORS for every answer
   * follows that list: the matched endpoint's, else (another method, a preflight) the list of the
   * endpoint serving the method asked for, else the route's first. The route is the matched one, or
   * the first whose pattern matches (as OPTIONS describes it).
   */
  private async listOrigins(ctx: RenderContext, match: RouteMatch | null): Promise<void> {
    const found = match ? { route: match.route, urlParams: match.urlParams } : this.registry.routesFor(ctx.path, ctx.method === 'OPTIONS')[0];
    if (!found) return;
    const gated = found.route.endpoints.filter((e) => e.origins);
    if (!gated.length) return;
    const asked = ctx.method === 'OPTIONS' ? String(ctx.req.headers['access-control-request-method'] ?? '').toUpperCase() : ctx.method;
    const preferred = match?.endpoint ?? found.route.endpoints.find((e) => e.methods.includes(asked as HttpMethod));
    const endpoint = preferred?.origins ? preferred : (gated[0] as RouteMatch['endpoint']);
    // Until the list is read (and if reading it fails), no origin is named.
    ctx.cors = { origins: [], credentials: endpoint.corsCredentials !== false, headers: endpoint.corsHeaders ?? [] };
    ctx.cors.origins = await (endpoint.origins as NonNullable<typeof endpoint.origins>)(this.head(ctx, found.urlParams));
  }

  private async authenticate(req: Request, query: Record<string, unknown>, form: Record<string, unknown> | null): Promise<RestAuthResult> {
    // WP: the nonce is $_REQUEST['_wpnonce'] ($_POST over $_GET, never JSON), else X-WP-Nonce. PHP
    // casts a non-string to "Array", which no nonce equals.
    const fromRequest = form?._wpnonce ?? query._wpnonce;
    const header = req.headers['x-wp-nonce'];
    const nonce = fromRequest !== undefined ? (typeof fromRequest === 'string' ? fromRequest : 'Array') : typeof header === 'string' ? header : undefined;
    return this.site.auth.forRest({
      method: req.method,
      cookies: parseCookieHeader(req.headers.cookie),
      authorization: req.headers.authorization,
      ip: clientIp(req),
      secure: isSecure(req),
    }, nonce);
  }

  /**
   * An endpoint that lists the browser origins allowed to call it answers CORS for exactly those,
   * and refuses a request sent from any other origin.
   */
  private checkOrigin(ctx: RenderContext, endpoint: RouteMatch['endpoint']): void {
    if (!endpoint.origins) return;
    const origin = ctx.req.headers.origin;
    if (origin && !(ctx.cors?.origins ?? []).includes(origin)) {
      throw new WpError('rest_origin_not_allowed', 'Requests from this address are not allowed.', 403);
    }
  }

  /** The caller that is not a WordPress user, identified by the endpoint's own credential check. */
  private async identify(match: RouteMatch, request: RestRequest): Promise<void> {
    if (!match.endpoint.principal) return;
    const principal = await match.endpoint.principal(request);
    if (isWpError(principal)) throw principal;
    request.principal = principal;
  }

  /** WP: a permission callback's false becomes rest_forbidden: 401 signed out, 403 signed in. */
  private async authorize(match: RouteMatch, request: RestRequest): Promise<void> {
    const allowed = await match.endpoint.permission(request);
    if (isWpError(allowed)) throw allowed;
    if (allowed !== true) {
      throw new WpError('rest_forbidden', 'Sorry, you are not allowed to do that.', request.user.id > 0 ? 403 : 401);
    }
  }

  /** Each of the endpoint's buckets counts the request; the first one that is full refuses it. */
  private async limitRate(match: RouteMatch, request: RestRequest): Promise<void> {
    const limits = match.endpoint.rateLimit;
    for (const spec of Array.isArray(limits) ? limits : limits ? [limits] : []) {
      if (spec.exempt && (await spec.exempt(request))) continue;
      const who = spec.key ? spec.key(request) : request.user.id > 0 ? `user:${request.user.id}` : visitorBucket(request.ip);
      const bucket = `${spec.name}:${who}`;
      const limiter = this.site.rateLimiter;
      const decision = spec.counting === 'batched'
        ? limiter.hitBatched(bucket, spec.limit, spec.windowSeconds)
        : await limiter.hit(bucket, spec.limit, spec.windowSeconds);
      if (!decision.allowed) {
        throw new WpError('rest_too_many_requests', `Too many requests. Try again in ${decision.retryAfter} seconds.`, 429, {
          retry_after: decision.retryAfter,
        });
      }
    }
  }

  private buildRequest(
    ctx: RenderContext, match: RouteMatch, auth: RestAuthResult, params: Record<string, unknown>,
    body: Record<string, unknown> | null, raw: Buffer, files: RestRequest['files'],
  ): RestRequest {
    return {
      ...this.head(ctx, match.urlParams),
      params,
      body,
      rawBody: match.endpoint.rawBody ? raw : null,
      files,
      user: auth.current,
      principal: undefined,
    };
  }

  /** What is known of the request before its body is read. */
  private head(ctx: RenderContext, urlParams: Record<string, string>): RequestHead {
    const { req } = ctx;
    return {
      method: ctx.method as HttpMethod,
      path: ctx.path,
      urlParams,
      query: ctx.query,
      ip: clientIp(req),
      secure: isSecure(req),
      site: this.site,
      header: (name) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      once: <T>(key: string, make: () => Promise<T>): Promise<T> => {
        ctx.shared ??= new Map();
        if (!ctx.shared.has(key)) ctx.shared.set(key, make());
        return ctx.shared.get(key) as Promise<T>;
      },
    };
  }

  private async fail(ctx: RenderContext, err: unknown): Promise<void> {
    const dependency = isWpError(err) ? null : ctx.availability?.onFailure(err);
    if (dependency) return renderError(ctx, dependency);
    if (isWpError(err)) {
      if ((err.status === 429 || err.status === 503) && typeof err.data.retry_after === 'number') ctx.res.setHeader('Retry-After', String(err.data.retry_after));
      return renderError(ctx, err);
    }
    // Unexpected: the details go to the log under a request id; the caller gets the id and nothing
    // else, with the no-cache headers WordPress's fatal-error page (wp_die) sends.
    this.site.logger.error('REST request failed', { request_id: ctx.requestId, path: ctx.path, method: ctx.method, error: errorText(err) });
    ctx.forceNoCache = true;
    return renderError(ctx, new WpError('internal_server_error', 'There has been a critical error on this website.', 500, { request_id: ctx.requestId }));
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err);
}
