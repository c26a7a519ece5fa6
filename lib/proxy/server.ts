/**
 * `understudy proxy`: one HTTP front for the site. Each request is routed (routing.ts) to Understudy
 * in-process (`serve`), to the PHP site (`pass`), or to the PHP site with Understudy compared in the
 * background (`shadow`). In front of a network, the request's site is found first and routing reads
 * the URL within it (understudy-front.ts). GET /_understudy/shadow, asked from the proxy's own
 * machine, answers the shadow counters as JSON.
 */
import { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Surface } from '../app';
import type { Logger } from '../logger';
import { RequestTarget, routeKeyOf, targetOf } from '../replay/route-key';
import type { ReplayRules } from '../replay/rules';
import { addressKey } from '../wp/http/address-key';
import { BodyMemoryHold, bodyMemory } from '../wp/http/body-memory';
import { clientIp, queryString, trustProxies } from '../wp/http/request-info';
import { notesOf } from '../wp/http/request-notes';
import { bodyMayNameRestRoute, phpReadsForm } from '../wp/http/rest-route';
import { NO_TRUSTED_PROXIES, TrustedProxies } from '../wp/http/trusted-proxies';
import { bufferedRequest } from './inject';
import { PassObserver, createUpstream, passThrough } from './pass-through';
import type { Mode, Routing } from './routing';
import { shadowPass } from './shadow';
import { ShadowDifference, ShadowQueue } from './shadow-queue';
import { Counter, ShadowStats } from './stats';
import { UnderstudyFront, singleSiteFront } from './understudy-front';

export const STATUS_PATH = '/_understudy/shadow';

export interface ProxyOptions {
  /** The PHP site's address, e.g. http://127.0.0.1:8081. */
  upstream: string;
  /** Understudy's own request listener (createApp), or a network's sites found per request (understudy-front.ts). */
  understudy: RequestListener | UnderstudyFront;
  surface: Surface;
  routing: Routing;
  rules: ReplayRules;
  logger: Logger;
  /** Send the client's Host to the upstream (default) rather than the upstream's own name. */
  preserveHost?: boolean;
  /** Largest admin-ajax body read to learn its action; larger ones pass to the upstream. */
  maxAjaxBodyBytes?: number;
  /** TRUSTED_PROXIES: the proxies (nginx) in front of this one that may name the visitor. */
  trustedProxies?: TrustedProxies;
  /** Longest silence of the upstream before the client gets a 504 (default 30 s). */
  upstreamTimeoutMs?: number;
  /** Where shadow counts and differences are also kept (the shadow store, in the database). */
  evidence?: ShadowEvidence;
  /** Records exchanges the upstream answers (passed and shadowed): `--record`. */
  recorder?: { observe(req: IncomingMessage, route: string, marked: boolean, onlyMarked: boolean, blogId?: number): PassObserver | undefined };
}

export interface ShadowEvidence {
  /** `blogId`: on a network, the site the exchange was for. */
  count(route: string, counter: Counter, blogId?: number): void;
  difference(difference: ShadowDifference): void;
}

export interface Proxy {
  handler: RequestListener;
  stats: ShadowStats;
  queue: ShadowQueue;
  /** Lets queued comparisons finish (up to `graceMs`), then frees upstream connections. */
  close(graceMs?: number): Promise<void>;
}

export function createProxy(options: ProxyOptions): Proxy {
  const upstream = createUpstream(options.upstream, options.preserveHost ?? true, options.upstreamTimeoutMs);
  const evidence = options.evidence;
  const stats = new ShadowStats(evidence && ((route, counter, blogId) => evidence.count(route, counter, blogId)));
  const settings = options.routing.shadow;
  const queue = new ShadowQueue({
    rules: options.rules, stats, logger: options.logger,
    concurrency: settings.concurrency, queueLimit: settings.queueLimit, timeoutMs: settings.timeoutMs,
    onDifference: evidence && ((difference) => evidence.difference(difference)),
  });
  const maxBody = options.maxAjaxBodyBytes ?? options.surface.ajax.largestBody;
  const front = typeof options.understudy === 'function' ? singleSiteFront(options.understudy) : options.understudy;

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === STATUS_PATH && isLoopback(req)) return sendStatus(res, stats, queue);
    const site = await front.find(req);
    // CASE: an address naming no site of the network: PHP answers it (its redirect, or its error), unchanged.
    if (!site) return passThrough(req, res, upstream, null, options.recorder?.observe(req, routeKeyOf(targetOf(req.url ?? '/')), false, Boolean(options.routing.records)));
    if (site.blogId !== undefined) notesOf(res).blogId = site.blogId;
    const decide = (target: RequestTarget) => options.routing.decide(target, routeKeyOf(target, options.surface.rest));
    const { target, consumed, complete } = await classify(req, res, site.url, maxBody, decide);
    const key = routeKeyOf(target, options.surface.rest);
    // CASE: a body too large to read whole cannot be handed to Understudy: the upstream gets it.
    const mode = complete ? decide(target) : 'pass';
    const recording = mode === 'serve' ? undefined : options.recorder?.observe(req, key, mode === 'record', Boolean(options.routing.records), site.blogId);
    // CASE: `record` without --record (a reload may add it) passes, unrecorded.
    if (mode === 'pass' || mode === 'record') return passThrough(req, res, upstream, consumed, recording);
    if (mode === 'shadow') return shadowPass(req, res, { upstream, understudy: site.answer, blogId: site.blogId, queue, stats, settings }, key, consumed, recording);
    return serve(site.answer, req, res, consumed, target);
  };

  return {
    stats,
    queue,
    handler: (req, res) => {
      trustProxies(req, options.trustedProxies ?? NO_TRUSTED_PROXIES);
      route(req, res).catch((err) => {
        options.logger.error('proxy: request failed', { url: req.url, error: err instanceof Error ? err.stack : String(err) });
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad gateway\n');
        else res.destroy();
      });
    },
    async close(graceMs = 5_000) {
      await Promise.race([queue.idle(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      upstream.agent.destroy();
    },
  };
}

/**
 * What the request is for. A form POST body is read (bounded) where it can name what WordPress does:
 * admin-ajax's action, and rest_route on the front controller, which $_POST gives before the pretty
 * path (only when the URL alone would not reach Understudy: a body cannot take a request from it).
 * Every other body stays unread and streams on. The bytes read are held in the body memory until the
 * answer is done or the connection goes (whichever path the body took on). `url` is the request's as
 * its site reads it (without a network site's path).
 */
async function classify(req: IncomingMessage, res: ServerResponse, url: string, limit: number, decide: (target: RequestTarget) => Mode): Promise<Classified> {
  const target = targetOf(url);
  const unread = { target, consumed: null, complete: true };
  if (!phpReadsForm(req.method, req.headers['content-type']) || !hasBody(req)) return unread;
  const path = url.split('?')[0] as string;
  const bodyMatters = target.kind === 'ajax' || (decide(target) !== 'serve' && bodyMayNameRestRoute(path, queryString(url)));
  if (!bodyMatters) return unread;
  const hold = bodyMemory.open(addressKey(clientIp(req)));
  res.once('close', hold.release);
  const { data, complete } = await readBounded(req, limit, hold);
  // CASE: a body larger than PHP's post_max_size leaves $_POST empty: the URL decides (docs/deploy.md).
  // So does one the body memory has no room for: it streams on as it is.
  if (!complete) return { target, consumed: data, complete };
  return { target: targetOf(url, 'POST', data.toString('utf8'), req.headers['content-type']), consumed: data, complete };
}

function serve(understudy: RequestListener, req: IncomingMessage, res: ServerResponse, consumed: Buffer | null, target: RequestTarget): void {
  if (consumed === null) return void understudy(req, res);
  // The body named the REST route: Understudy is told, as it reads no body before routing.
  if (target.kind === 'rest') notesOf(res).restRoute = target.invalid ? { kind: 'invalid' } : { kind: 'route', route: target.path };
  const replayed = bufferedRequest({
    method: req.method ?? 'GET', url: req.url ?? '/', rawHeaders: req.rawHeaders, body: consumed,
    remoteAddress: req.socket.remoteAddress, remotePort: req.socket.remotePort, encrypted: Boolean((req.socket as { encrypted?: boolean }).encrypted),
  });
  understudy(replayed, res);
}

interface Classified {
  target: RequestTarget;
  consumed: Buffer | null;
  complete: boolean;
}

function sendStatus(res: ServerResponse, stats: ShadowStats, queue: ShadowQueue): void {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`${JSON.stringify(stats.snapshot(queue.pending), null, 2)}\n`);
}

function isLoopback(req: IncomingMessage): boolean {
  const ip = clientIp(req);
  return ip === '::1' || ip.startsWith('127.');
}

function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads up to `limit` bytes, each chunk taken from `hold`; past the limit, or when the body memory has
 * no room for a chunk, stops (leaving the rest in the stream) and says so.
 */
function readBounded(req: IncomingMessage, limit: number, hold: BodyMemoryHold): Promise<{ data: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (complete: boolean) => {
      req.off('data', onData).off('end', onEnd).off('error', reject);
      resolve({ data: Buffer.concat(chunks), complete });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // A chunk the budget has no room for ends the reading; it is handed on first, with the rest.
      if (!hold.take(chunk.length) || size > limit) {
        req.pause();
        stop(false);
      }
    };
    const onEnd = () => stop(true);
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}
