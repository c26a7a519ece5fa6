/**
 * What `serve` and `proxy` share for running in production (docs/deploy.md): the trusted proxies,
 * where metrics are served, how long a shutdown may take, and how request logs are written. Each is a
 * flag or an environment variable; the flag wins.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import v8 from 'node:v8';
import { Logger } from '../logger';
import { SiteConfig } from '../wp/config';
import { TrustedProxies, parseTrustedProxies, wpConfigTrustsForwardedProto } from '../wp/http/trusted-proxies';
import { CliError, FlagSpec, ParsedArgs, stringFlag } from './args';
import { CliContext } from './context';

export interface RuntimeOptions {
  trustedProxies: TrustedProxies;
  /** METRICS_PORT: a separate port for GET /metrics (on METRICS_HOST, loopback by default). */
  metricsPort?: number;
  metricsHost: string;
  /** METRICS_TOKEN: GET /-/metrics on the main port with `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** SHUTDOWN_TIMEOUT_MS: how long requests in flight (then running jobs) get at shutdown. */
  shutdownTimeoutMs: number;
  /** LOG_FORMAT: `json` (one line per request) or `pretty` (a readable line, for a terminal). */
  logFormat: 'json' | 'pretty';
  /** A worker of `serve --workers`: the primary serves the metrics port, aggregated. */
  clusterWorker: boolean;
  /** HEAP_GROWTH_PERCENT: how far the heap may grow past what the last full collection kept (0: V8's own rule). */
  heapGrowthPercent: number;
}

export const RUNTIME_FLAGS: FlagSpec = { 'trusted-proxies': 'string', 'metrics-port': 'string', 'shutdown-timeout': 'string' };

export const RUNTIME_HELP = `Production (docs/deploy.md):
  --trusted-proxies=<list>  addresses and CIDR ranges of the reverse proxies in front (TRUSTED_PROXIES);
                            only their X-Forwarded-For / X-Forwarded-Proto / Forwarded are believed
  --metrics-port=<port>     Prometheus metrics at http://METRICS_HOST:<port>/metrics (METRICS_PORT;
                            METRICS_HOST defaults to 127.0.0.1). Or METRICS_TOKEN: GET /-/metrics on
                            the main port with Authorization: Bearer <token>. Neither: no metrics.
  --shutdown-timeout=<ms>   on SIGTERM, how long requests in flight, then running jobs, may take
                            (SHUTDOWN_TIMEOUT_MS, default 10000)
  Health: GET /-/health/live and /-/health/ready. Request logs: one JSON line each on stderr
  (LOG_FORMAT=json|pretty; pretty by default on a terminal). Memory: HEAP_GROWTH_PERCENT (default 20;
  0 keeps V8's own, roomier rule).
`;

const DEFAULT_SHUTDOWN_MS = 10_000;

/**
 * V8 lets the heap grow up to four times past what the last full collection kept alive when a process
 * allocates quickly: under load a server held 200-290 MB of RSS for a live heap of about 60 MB
 * (docs/performance.md "Memory"). Growing by a fifth keeps it near what it uses, for some more time
 * spent collecting. It is not a limit: the heap still grows as far as the data needs.
 */
const DEFAULT_HEAP_GROWTH_PERCENT = 20;

export function loadRuntimeOptions(ctx: CliContext, args: ParsedArgs): RuntimeOptions {
  let trustedProxies: TrustedProxies;
  try {
    trustedProxies = parseTrustedProxies(stringFlag(args, 'trusted-proxies') ?? ctx.env.TRUSTED_PROXIES);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const metricsPortText = stringFlag(args, 'metrics-port') ?? ctx.env.METRICS_PORT;
  const metricsToken = ctx.env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) throw new CliError('METRICS_TOKEN must be at least 16 characters long');
  const logFormat = ctx.env.LOG_FORMAT ?? ((ctx.stderr as { isTTY?: boolean }).isTTY ? 'pretty' : 'json');
  if (logFormat !== 'json' && logFormat !== 'pretty') throw new CliError(`LOG_FORMAT must be json or pretty, got "${logFormat}"`);
  return {
    trustedProxies,
    metricsPort: metricsPortText === undefined || metricsPortText === '' ? undefined : wholeNumber('--metrics-port (METRICS_PORT)', metricsPortText, 0, 65535),
    metricsHost: ctx.env.METRICS_HOST || '127.0.0.1',
    metricsToken,
    shutdownTimeoutMs: wholeNumber('--shutdown-timeout (SHUTDOWN_TIMEOUT_MS)', stringFlag(args, 'shutdown-timeout') ?? ctx.env.SHUTDOWN_TIMEOUT_MS ?? String(DEFAULT_SHUTDOWN_MS), 0, 3_600_000),
    logFormat,
    clusterWorker: cluster.isWorker,
    heapGrowthPercent: wholeNumber('HEAP_GROWTH_PERCENT', ctx.env.HEAP_GROWTH_PERCENT ?? String(DEFAULT_HEAP_GROWTH_PERCENT), 0, 1000),
  };
}

/** Applies HEAP_GROWTH_PERCENT, unless Node was started with its own --heap-growing-percent. */
export function applyHeapGrowth(options: RuntimeOptions, env: NodeJS.ProcessEnv): void {
  const given = [...process.execArgv, env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('--heap-growing-percent'));
  // V8 reads the flag at every full collection, so setting it after start-up takes effect.
  if (!given && options.heapGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${options.heapGrowthPercent}`);
}

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) throw new CliError(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

/**
 * WordPress's docs tell admins behind a TLS-terminating proxy to set $_SERVER['HTTPS'] from
 * X-Forwarded-Proto in wp-config.php. Understudy never runs that line: without TRUSTED_PROXIES it sees
 * plain HTTP, and application passwords are refused in production.
 */
export function warnAboutForwardedProto(ctx: CliContext, config: SiteConfig, options: RuntimeOptions, logger: Logger): void {
  const file = ctx.env.WP_CONFIG_PATH;
  if (config.source !== 'wp-config' || !file || options.trustedProxies.entries.length) return;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return;
  }
  if (wpConfigTrustsForwardedProto(text)) {
    logger.warn(`${file} sets $_SERVER['HTTPS'] from X-Forwarded-Proto, which Understudy does not run: set TRUSTED_PROXIES (or --trusted-proxies) to the address of your reverse proxy, or Understudy will take every request for plain HTTP (docs/deploy.md)`);
  }
}
