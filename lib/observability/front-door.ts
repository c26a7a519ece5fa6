/**
 * The front door of a `serve` or `proxy` process, before Understudy's app or the proxy: it resolves
 * the visitor (TRUSTED_PROXIES), gives the request its id (X-Request-Id, honoured or made, and
 * returned), answers health and the token-protected metrics, answers 503 while the site opens, and
 * once each answer is sent logs it and counts it.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readableRoute } from '../wp/rest/readable-route';
import { clientIp, trustProxies } from '../wp/http/request-info';
import { notesOf } from '../wp/http/request-notes';
import type { TrustedProxies } from '../wp/http/trusted-proxies';
import type { Health } from './health';
import type { Metrics } from './metrics';
import { MetricsSource, sendMetrics } from './metrics-server';
import type { RequestLogger } from './request-log';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export const TOKEN_METRICS_PATH = '/-/metrics';

export interface FrontDoorOptions {
  trustedProxies: TrustedProxies;
  health: Health;
  metrics?: Metrics;
  /** METRICS_TOKEN: when set, GET /-/metrics with `Authorization: Bearer <token>` answers the metrics. */
  metricsToken?: string;
  /** What the token answer holds: this process's metrics unless set (a cluster worker asks its primary). */
  metricsSource?: MetricsSource;
  log?: RequestLogger;
}

/** A request id from a client or proxy is kept when it is a short token; anything else is replaced. */
const REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

export function frontDoor(options: FrontDoorOptions, inner: () => RequestHandler | null): RequestHandler {
  const tokenHash = options.metricsToken ? sha256(options.metricsToken) : null;
  return (req, res) => {
    const started = performance.now();
    trustProxies(req, options.trustedProxies);
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    notesOf(res).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    // Shutting down: each answer closes its connection, so no client keeps one to a stopping process.
    if (options.health.isStopping) res.setHeader('Connection', 'close');
    let whileStarting = false;
    // As received: a network's site sees its URL without the site's path (lib/network-app.ts).
    const path = (req.url ?? '/').split('?')[0] as string;
    whenDone(res, () => record(options, req, res, { requestId, path, started, whileStarting }));

    if (options.health.answer(req, res, path)) return;
    if (tokenHash && path === TOKEN_METRICS_PATH) return void answerMetricsWithToken(req, res, tokenHash, options.metricsSource ?? options.metrics?.registry);
    const handler = inner();
    if (!handler) {
      whileStarting = true;
      return starting(res);
    }
    handler(req, res);
  };
}

interface Arrival {
  requestId: string;
  path: string;
  started: number;
  whileStarting: boolean;
}

function record(options: FrontDoorOptions, req: IncomingMessage, res: ServerResponse, { requestId, path, started, whileStarting }: Arrival): void {
  const seconds = (performance.now() - started) / 1000;
  const notes = notesOf(res);
  const route = routeLabel(req, notes.route);
  const method = req.method ?? 'GET';
  options.metrics?.observe(route, method, res.statusCode, seconds, notes.blogId);
  options.log?.({
    request_id: requestId, method, route, path, ...(notes.blogId !== undefined ? { blog_id: notes.blogId } : {}), status: res.statusCode,
    duration_ms: Math.round(seconds * 10_000) / 10, user_id: notes.userId ?? 0, ip: clientIp(req),
    ...(res.writableFinished ? {} : { aborted: true as const }),
    ...(whileStarting ? { starting: true as const } : {}),
  });
}

/**
 * The route pattern a request is counted under: the REST route that matched
 * (`/support/v1/tickets/{id}`) or the registered admin-ajax action (`admin-ajax:<action>`), else a
 * small fixed set of labels, so that no caller can invent labels.
 */
function routeLabel(req: IncomingMessage, matched: string | undefined): string {
  if (matched) return routeLabelOf(matched);
  const [path = '/', query = ''] = (req.url ?? '/').split('?');
  if (path.startsWith('/-/')) return path.startsWith('/-/health/') || path === TOKEN_METRICS_PATH ? path : 'other';
  if (path === '/wp-admin/admin-ajax.php') return 'admin-ajax';
  if (/^\/(index\.php\/)?wp-json(\/|$)/.test(path) || /(^|&)rest_route=/.test(query)) return 'rest';
  if (path === '/') return '/';
  return 'other';
}

/** Each declared route's label, worked out once (the routes are the registry's, a fixed set). */
const routeLabels = new Map<string, string>();

function routeLabelOf(route: string): string {
  let label = routeLabels.get(route);
  if (label === undefined) {
    label = readableRoute(route);
    routeLabels.set(route, label);
  }
  return label;
}

function whenDone(res: ServerResponse, done: () => void): void {
  let once = false;
  const fire = () => {
    if (once) return;
    once = true;
    done();
  };
  res.once('finish', fire);
  res.once('close', fire);
}

/** WordPress-shaped, as every other answer of the API: the site is not open yet. */
function starting(res: ServerResponse): void {
  res.writeHead(503, { 'Content-Type': 'application/json; charset=UTF-8', 'Retry-After': '1', 'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private' });
  res.end(JSON.stringify({ code: 'understudy_starting', message: 'Understudy is starting. Try again in a moment.', data: { status: 503 } }));
}

async function answerMetricsWithToken(req: IncomingMessage, res: ServerResponse, tokenHash: Buffer, metrics: MetricsSource | undefined): Promise<void> {
  const auth = req.headers.authorization ?? '';
  const given = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  if (!given || !timingSafeEqual(sha256(given), tokenHash) || !metrics) {
    res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer', 'Cache-Control': 'no-store' }).end('Unauthorized\n');
    return;
  }
  await sendMetrics(res, metrics);
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
