/**
 * `understudy proxy --upstream=<url>`: one HTTP front for the site, or for a whole network. Understudy
 * answers the routes it is told to serve, the PHP site answers everything else, and shadowed routes
 * are answered by the PHP site and compared with Understudy in the background. On shutdown the shadow
 * counters are printed.
 */
import path from 'node:path';
import { buildSurface } from '../app';
import { Logger, serverLogger } from '../logger';
import { Proxy, createProxy } from '../proxy/server';
import { LiveRouting } from '../proxy/live-routing';
import { RecordOptions, Recorder } from '../proxy/record/recorder';
import { Routing, loadRouting } from '../proxy/routing';
import { loadRules } from '../replay/rules';
import { ServerConfig, SiteConfig, loadServerConfig, loadSiteConfig } from '../wp/config';
import { Site } from '../wp/site';
import { CliError, ParsedArgs, parseCommandArgs, stringFlag } from './args';
import { CliContext } from './context';
import { HttpLimits, PROXY_HTTP_LIMITS, loadHttpLimits } from './http-server';
import { nginxCommand } from './nginx';
import { RUNTIME_FLAGS, RUNTIME_HELP, RuntimeOptions, applyHeapGrowth, loadRuntimeOptions, warnAboutForwardedProto } from './runtime-options';
import { checkAtStartup, closeServer, exitPromptly, stopRequested } from './lifecycle';
import { degradations, observe, readinessChecks } from './observe';
import { proxiedNetwork, proxiedSite } from './proxied';
import { servesNetwork } from './serve-network';
import { shadowStatusLines } from './shadow';

export const PROXY_HELP = `usage: understudy proxy --upstream=<url> [--port=<port>] [--host=<host>] [--routes=<file>]
                        [--rules=<file>] [--no-preserve-host] [--upstream-timeout=<seconds>]
                        [--shadow-keep-days=30] [--shadow-keep-differences=50]
                        [--record=<dir> [--record-sample=1] [--record-routes=<glob,...>] [--record-max-body=1048576]
                         [--record-file-mb=64] [--record-file-entries=10000] [--record-files=20]]

Listens like 'understudy serve' and stands in front of the PHP site at --upstream. Understudy answers
the REST namespaces and admin-ajax actions of the plugins it replaces; everything else (WordPress
itself, pages, assets) passes through to the upstream unchanged. --routes chooses serve, pass,
shadow or record per namespace, route or action; --rules sets what shadow comparisons ignore. Both formats are
described in docs/replay-and-proxy.md.

  --no-preserve-host   send the upstream its own host name instead of the client's Host header
  --upstream-timeout   seconds the upstream may stay silent before the client gets a 504 (default 30;
                       also 500ms, 2m)

  --record=<dir>       write the exchanges the upstream answers (passed and shadowed) as HAR 1.2
                       files for 'understudy replay <dir>', credentials replaced by identity
                       placeholders (<basic:agent1>); --record-sample records that share of them,
                       --record-routes only routes matching those globs; bodies over
                       --record-max-body bytes are cut and marked not comparable; a file is closed
                       after --record-file-mb MiB or --record-file-entries entries, and only the
                       latest --record-files files are kept. Never slows a client: when the writer
                       falls behind, exchanges are dropped and counted. Progress on stderr.

On a network (MULTISITE on, no WP_BLOG_ID) one proxy stands in front of every site: each request's
site is found from its Host and path as WordPress finds it, its routes are read within the site
(/two/wp-json/... is /wp-json/... of the site at /two/), and an address that names no site passes to
PHP unchanged. An archived, spammed or deleted site's served routes get WordPress's wp_die() answer;
its other addresses pass. Shadow counts are kept per site, and each site's evidence goes to its own
tables ('WP_BLOG_ID=<id> understudy shadow report').

The --routes file is read again on SIGHUP and whenever it changes: a route moved from shadow to
serve (or back) takes effect at once. A file with a mistake keeps the routes in force and logs why.

The HTTP_* limits are those of 'understudy serve', with longer defaults for passing uploads and slow
pages through: HTTP_REQUEST_TIMEOUT_MS 600000 and HTTP_IDLE_TIMEOUT_MS 300000 (see README.md).

Shadow counters: 'understudy shadow status', or GET /_understudy/shadow from this machine; they are
also printed at shutdown. They are also added (every 5 s and at shutdown) to the site's database with
the latest --shadow-keep-differences differing exchanges per route (redacted), kept
--shadow-keep-days days and summed over every proxy on the database: 'understudy shadow report'.

'understudy proxy nginx' prints an nginx configuration from the same --routes file (see
'understudy help nginx').

${RUNTIME_HELP}`;

export interface ProxySettings {
  upstream: string;
  routesFile?: string;
  rulesFile?: string;
  preserveHost: boolean;
  upstreamTimeoutMs?: number;
  /** Shadow evidence in the database: days kept, latest differences kept per route. */
  keepDays?: number;
  keepDifferences?: number;
  /** --record: where and how exchanges passed to the upstream are recorded. */
  record?: RecordOptions;
}

export interface RunningProxy {
  url: string;
  site: Site;
  proxy: Proxy;
  /** Stops listening, lets queued comparisons finish, closes the database. */
  close(): Promise<void>;
}

export async function proxyCommand(ctx: CliContext, argv: string[]): Promise<number> {
  if (argv[0] === 'nginx') return nginxCommand(ctx, argv.slice(1));
  const args = parseCommandArgs(argv, {
    upstream: 'string', port: 'string', host: 'string', routes: 'string', rules: 'string', 'preserve-host': 'boolean', 'upstream-timeout': 'string',
    'shadow-keep-days': 'string', 'shadow-keep-differences': 'string', record: 'string', 'record-sample': 'string', 'record-routes': 'string',
    'record-max-body': 'string', 'record-file-mb': 'string', 'record-file-entries': 'string', 'record-files': 'string', ...RUNTIME_FLAGS,
  });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy proxy --upstream=<url> (see understudy help proxy)');
  const upstream = stringFlag(args, 'upstream');
  if (!upstream || !/^https?:\/\/[^/]/.test(upstream)) throw new CliError('--upstream must be the URL of the PHP site, e.g. --upstream=http://127.0.0.1:8081');
  const config = loadSiteConfig(ctx.env, ctx.cwd);
  const server = loadServerConfig({ ...ctx.env, PORT: stringFlag(args, 'port') ?? ctx.env.PORT, HOST: stringFlag(args, 'host') ?? ctx.env.HOST });
  const limits = loadHttpLimits(ctx.env, PROXY_HTTP_LIMITS);
  const runtime = loadRuntimeOptions(ctx, args);
  const logger = serverLogger(ctx.stderr as NodeJS.WritableStream, runtime.logFormat);
  applyHeapGrowth(runtime, ctx.env);
  warnAboutForwardedProto(ctx, config, runtime, logger);
  const settings = {
    upstream, routesFile: resolve(ctx, stringFlag(args, 'routes')), rulesFile: resolve(ctx, stringFlag(args, 'rules')),
    preserveHost: args.flags['preserve-host'] !== false, upstreamTimeoutMs: durationMs(stringFlag(args, 'upstream-timeout'), '--upstream-timeout'),
    keepDays: positive(stringFlag(args, 'shadow-keep-days', '30') as string, '--shadow-keep-days'),
    keepDifferences: positive(stringFlag(args, 'shadow-keep-differences', '50') as string, '--shadow-keep-differences'),
    record: recordSettings(ctx, args),
  };
  const running = await startProxy(ctx, config, server, limits, settings, logger, runtime);
  logger.info(`Understudy proxy for ${upstream} is serving ${config.description} at ${running.url}`);
  const reason = await stopRequested(ctx);
  logger.info(`${reason}: shutting down`);
  await running.close();
  const shadow = running.proxy.stats.snapshot(running.proxy.queue.pending);
  if (runtime.logFormat === 'json') logger.info('shadow traffic since the start', { shadow });
  else for (const text of shadowStatusLines(shadow)) ctx.stderr.write(`${text}\n`);
  exitPromptly(ctx);
  return 0;
}

/** Reads the routing and rules (mistakes stop it before anything listens), binds, opens the site (or network), answers. */
export async function startProxy(
  ctx: CliContext, config: SiteConfig, server: ServerConfig, limits: HttpLimits, settings: ProxySettings, logger: Logger, runtime: RuntimeOptions,
): Promise<RunningProxy> {
  const surface = buildSurface({ languages: config.languages });
  const live = settings.routesFile ? new LiveRouting({ file: settings.routesFile, surface, logger }) : null;
  const routing: Routing = live ?? loadRouting(undefined, surface);
  const rules = loadRules(settings.rulesFile);
  if (routing.records && !settings.record) logger.warn('the routing file names routes in record mode, but there is no --record=<dir>: they pass unrecorded');
  if (routing.shadow.writes) {
    logger.warn('shadow.writes is on: shadowed writes also reach Understudy\'s database (stated to be a copy); its job worker stays off so the copy sends no mail');
  }
  let started: Proxy | null = null;
  const seen = await observe(ctx, runtime, logger, { shadow: () => (started as Proxy | null)?.stats.snapshot(0) ?? null });
  // CASE: not over a shadow-writes copy, whose jobs the PHP site has already done for real.
  const jobs = !routing.shadow.writes;
  const opened = servesNetwork(config, ctx)
    ? await proxiedNetwork(ctx, config, server, limits, logger, seen.door, runtime, settings, surface, jobs)
    : await proxiedSite(ctx, config, server, limits, logger, seen.door, runtime, settings, surface);
  const { site, url } = opened;
  seen.setSite(site);
  const recorder = settings.record ? new Recorder({ ...settings.record, progress: progressOut(ctx, runtime, logger) }) : null;
  const proxy = createProxy({
    upstream: settings.upstream, understudy: opened.understudy, surface, routing, rules, logger,
    preserveHost: settings.preserveHost, trustedProxies: runtime.trustedProxies, upstreamTimeoutMs: settings.upstreamTimeoutMs,
    evidence: opened.evidence, recorder: recorder ?? undefined,
  });
  opened.evidence.start();
  live?.watch();
  const reread = () => {
    if (live) live.reload('SIGHUP');
    else logger.info('proxy: SIGHUP, but there is no --routes file to read again');
  };
  process.on('SIGHUP', reread);
  started = proxy;
  opened.answerWith(proxy.handler);
  await checkAtStartup(site, logger);
  // As under `serve`, job workers run the jobs Understudy's served routes queue (docs/outbound.md).
  if (jobs) opened.startJobs();
  seen.health.ready(readinessChecks(site), degradations(site));
  return {
    url,
    site,
    proxy,
    async close() {
      seen.health.stopping();
      process.off('SIGHUP', reread);
      live?.close();
      await opened.drain(runtime.shutdownTimeoutMs);
      await proxy.close();
      await opened.evidence.close();
      await recorder?.close();
      if (seen.metricsServer) await closeServer(seen.metricsServer);
      await opened.close();
      await seen.door.log?.flush();
    },
  };
}

/** `30` (seconds), `30s`, `500ms` or `2m`, as milliseconds; undefined when not given. */
function durationMs(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? 's'] as number) : NaN;
  if (!(ms >= 1)) throw new CliError(`${flag} must be a duration such as 30 (seconds), 500ms or 2m, got "${value}"`);
  return Math.round(ms);
}

function recordSettings(ctx: CliContext, args: ParsedArgs): RecordOptions | undefined {
  const dir = stringFlag(args, 'record');
  const used = ['record-sample', 'record-routes', 'record-max-body', 'record-file-mb', 'record-file-entries', 'record-files'].filter((f) => args.flags[f] !== undefined);
  if (!dir) {
    if (used.length) throw new CliError(`--${used[0]} needs --record=<dir>`);
    return undefined;
  }
  const sample = Number(stringFlag(args, 'record-sample', '1'));
  if (!(sample > 0 && sample <= 1)) throw new CliError(`--record-sample must be a share above 0 and at most 1, such as 0.1; got "${stringFlag(args, 'record-sample')}"`);
  const routes = (stringFlag(args, 'record-routes') ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  return {
    dir: path.resolve(ctx.cwd, dir), sample, routes,
    maxBodyBytes: positive(stringFlag(args, 'record-max-body', '1048576') as string, '--record-max-body'),
    maxFileBytes: positive(stringFlag(args, 'record-file-mb', '64') as string, '--record-file-mb') * 1024 * 1024,
    maxEntries: positive(stringFlag(args, 'record-file-entries', '10000') as string, '--record-file-entries'),
    maxFiles: positive(stringFlag(args, 'record-files', '20') as string, '--record-files'),
  };
}

function positive(value: string, flag: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new CliError(`${flag} must be a whole number of 1 or more, got "${value}"`);
  return Number(value);
}

function resolve(ctx: CliContext, file: string | undefined): string | undefined {
  return file === undefined ? undefined : path.resolve(ctx.cwd, file);
}

/** Where the recorder's progress lines go: stderr as they are, or one JSON log line each in LOG_FORMAT=json. */
function progressOut(ctx: CliContext, runtime: RuntimeOptions, logger: Logger): RecordOptions['progress'] {
  if (runtime.logFormat !== 'json') return ctx.stderr as RecordOptions['progress'];
  return { write: (text: string) => { if (text.trim()) logger.info(text.trim()); } };
}
