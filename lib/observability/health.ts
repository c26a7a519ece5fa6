/**
 * Liveness and readiness for load balancers and orchestrators (docs/deploy.md), at paths no
 * WordPress plugin can own (`/-/` is no REST namespace, page or PHP file):
 * - GET /-/health/live: 200 while the process answers at all (also while starting and stopping).
 * - GET /-/health/ready: 200 when the database answers, the storage checks pass and the job queue is
 *   not stuck; 503 otherwise, and while starting or shutting down (so a balancer stops sending).
 *   Ready but `degraded` (still 200, with a reason code each) when the site is served with a known
 *   shortfall, such as a persistent object cache that Understudy cannot keep coherent.
 * Readiness is computed at most once a second however often it is asked, so it is cheap to poll.
 * The answer names each check and whether it passed; the reasons go to the log, never to the caller.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';

export const LIVE_PATH = '/-/health/live';
export const READY_PATH = '/-/health/ready';

/** A named readiness check: null when it passes, otherwise why not (logged, not shown). */
export type HealthCheck = () => Promise<string | null>;

/** A named shortfall that leaves the process serving: null when absent, else a reason code (shown). */
export type Degradation = () => string | null;

type Phase = 'starting' | 'ready' | 'stopping';

const CACHE_MS = 1000;
const CHECK_TIMEOUT_MS = 2000;

export class Health {
  private phase: Phase = 'starting';
  private checks: Record<string, HealthCheck> = {};
  private degradations: Record<string, Degradation> = {};
  private last: { at: number; result: Promise<Record<string, boolean>> } | null = null;
  private readonly failing = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** The site is open and answering: readiness now runs `checks` and reports `degradations`. */
  ready(checks: Record<string, HealthCheck>, degradations: Record<string, Degradation> = {}): void {
    this.checks = checks;
    this.degradations = degradations;
    this.phase = 'ready';
  }

  stopping(): void {
    this.phase = 'stopping';
  }

  get isStopping(): boolean {
    return this.phase === 'stopping';
  }

  /** Answers a health path; false when `req` is not for one. */
  answer(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (path !== LIVE_PATH && path !== READY_PATH) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, { status: 'method_not_allowed' }, { Allow: 'GET, HEAD' });
      return true;
    }
    if (path === LIVE_PATH) {
      send(res, 200, { status: 'live' });
      return true;
    }
    if (this.phase !== 'ready') {
      send(res, 503, { status: this.phase }, { 'Retry-After': '1' });
      return true;
    }
    this.results().then((checks) => {
      const ok = Object.values(checks).every(Boolean);
      const degraded = this.degraded();
      const status = !ok ? 'not_ready' : degraded ? 'degraded' : 'ready';
      send(res, ok ? 200 : 503, {
        status, checks: Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v ? 'ok' : 'failed'])), ...(degraded ? { degraded } : {}),
      });
    }, () => send(res, 503, { status: 'not_ready' }));
    return true;
  }

  /** The degradations present now, by name, or null. */
  private degraded(): Record<string, string> | null {
    const present: Record<string, string> = {};
    for (const [name, reason] of Object.entries(this.degradations)) {
      const code = reason();
      if (code !== null) present[name] = code;
    }
    return Object.keys(present).length ? present : null;
  }

  private results(): Promise<Record<string, boolean>> {
    const now = performance.now();
    if (this.last && now - this.last.at < CACHE_MS) return this.last.result;
    const result = (async () => {
      const entries = await Promise.all(Object.entries(this.checks).map(async ([name, check]) => [name, await this.run(name, check)] as const));
      return Object.fromEntries(entries);
    })();
    this.last = { at: now, result };
    return result;
  }

  private async run(name: string, check: HealthCheck): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
    });
    const problem = await Promise.race([check().catch((err: unknown) => (err instanceof Error ? err.message : String(err))), timeout]);
    clearTimeout(timer);
    // Logged when a check starts or stops failing, not on every poll.
    if (problem && !this.failing.has(name)) this.logger.warn(`readiness: ${name} check failed`, { problem });
    if (!problem && this.failing.has(name)) this.logger.info(`readiness: ${name} check passes again`);
    if (problem) this.failing.add(name);
    else this.failing.delete(name);
    return !problem;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}
