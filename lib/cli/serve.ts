/**
 * `understudy serve`: opens the configured site, serves it over HTTP until SIGINT or SIGTERM, then
 * stops accepting requests, lets the ones in flight finish, and closes the database.
 *
 * The socket is bound before the site is opened, so a site created by this start gets the address it
 * is really served at as its siteurl (even with `--port=0`); requests that arrive while the database
 * opens are answered 503.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { createApp } from '../app';
import { isDemoSeeded } from '../demo/seed';
import { demoSignIns } from '../demo/sign-ins';
import { Logger, serverLogger } from '../logger';
import { FrontDoorOptions, RequestHandler, frontDoor } from '../observability/front-door';
import { warmUpSupportDesk } from '../support/warm-up';
import { ServerConfig, SiteConfig, loadServerConfig, loadSiteConfig } from '../wp/config';
import { Site } from '../wp/site';
import { startJobWorker } from '../worker';
import { CliError, booleanSetting, parseCommandArgs, stringFlag } from './args';
import { runCluster, workerCount } from './cluster';
import { CliContext, displayHost, line, openConfiguredSite } from './context';
import { trackConnections } from './drain';
import { RunningServer, ServeOptions, checkAtStartup, closeServer, exitPromptly, stopRequested, stopWorker } from './lifecycle';
import { degradations, observe, readinessChecks } from './observe';
import { servesNetwork, startNetworkServer } from './serve-network';
import { HttpLimits, SERVE_HTTP_LIMITS, createHttpServer, listen, loadHttpLimits } from './http-server';
import { RUNTIME_FLAGS, RUNTIME_HELP, RuntimeOptions, applyHeapGrowth, loadRuntimeOptions, warnAboutForwardedProto } from './runtime-options';

export const SERVE_HELP = `usage: understudy serve [--port=<port>] [--host=<host>] [--workers=<n>|auto] [--ready-when-warm]
                       [--trusted-proxies=<list>] [--metrics-port=<port>] [--shutdown-timeout=<ms>]

Serves the site's REST API (/wp-json/) and /wp-admin/admin-ajax.php until stopped with
Ctrl-C (SIGINT) or SIGTERM. --port and --host override PORT and HOST (default 127.0.0.1:8080).
HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_IDLE_TIMEOUT_MS,
HTTP_MAX_CONNECTIONS, HTTP_MAX_CONNECTIONS_PER_ADDRESS and HTTP_MAX_BODY_MEMORY_BYTES override the
server's limits (see README.md).

  --workers=<n>|auto   n processes on the one port (Node's cluster; auto: one per CPU core; WORKERS)
  --ready-when-warm    /-/health/ready answers 503 until the ticket list and docs search indexes,
                       loaded at start, are in memory (READY_WHEN_WARM=1; until then, and without it,
                       lists and searches are answered from SQL)

${RUNTIME_HELP}`;

/** Runs `serve`; resolves with the exit status once the server has shut down. */
export async function serveCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { port: 'string', host: 'string', workers: 'string', 'ready-when-warm': 'boolean', ...RUNTIME_FLAGS });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy serve [--port=<port>] [--host=<host>]');
  const config = loadSiteConfig(ctx.env, ctx.cwd);
  const server = loadServerConfig({ ...ctx.env, PORT: stringFlag(args, 'port') ?? ctx.env.PORT, HOST: stringFlag(args, 'host') ?? ctx.env.HOST });
  const limits = loadHttpLimits(ctx.env, SERVE_HTTP_LIMITS);
  const runtime = loadRuntimeOptions(ctx, args);
  applyHeapGrowth(runtime, ctx.env);
  const workers = workerCount(stringFlag(args, 'workers') ?? ctx.env.WORKERS);
  // The logger only ever calls write(), which every Writer has.
  const logger = serverLogger(ctx.stderr as NodeJS.WritableStream, runtime.logFormat);
  warnAboutForwardedProto(ctx, config, runtime, logger);
  if (workers.count > 1 && workers.primary) return runCluster(ctx, config, server, runtime, workers.count, logger);
  const readyWhenWarm = booleanSetting('--ready-when-warm (READY_WHEN_WARM)', args.flags['ready-when-warm'] ?? ctx.env.READY_WHEN_WARM);
  const running = servesNetwork(config, ctx)
    ? await startNetworkServer(ctx, config, server, limits, logger, runtime, { readyWhenWarm })
    : await startServer(ctx, config, server, limits, logger, runtime, { readyWhenWarm });
  logger.info(`Understudy is serving ${config.description} at ${running.url}`);
  if (workers.count === 1 && config.seedDemo && (await isDemoSeeded(running.site))) for (const text of demoSignIns(running.url)) line(ctx, text);
  const reason = await stopRequested(ctx);
  logger.info(`${reason}: shutting down`);
  await running.close();
  exitPromptly(ctx);
  return 0;
}

/**
 * Binds the socket, opens the site (seeding the embedded demo on its first start), starts answering,
 * and starts loading the support desk's large caches in the background.
 */
export async function startServer(
  ctx: CliContext, config: SiteConfig, server: ServerConfig, limits: HttpLimits, logger: Logger, runtime: RuntimeOptions, options: ServeOptions = {},
): Promise<RunningServer> {
  const seen = await observe(ctx, runtime, logger);
  const bound = await bindThenOpen(ctx, config, server, limits, logger, seen.door);
  seen.setSite(bound.site);
  bound.answerWith(createApp(bound.site, undefined, { trustedProxies: runtime.trustedProxies }));
  await checkAtStartup(bound.site, logger);
  // The job worker runs the jobs the routes queue, whichever plugin's (docs/outbound.md).
  const worker = startJobWorker(bound.site, { stopTimeoutMs: runtime.shutdownTimeoutMs });
  // Lists and searches are answered from SQL until these have loaded (docs/deploy.md, "Warm caches").
  warmUpSupportDesk(bound.site);
  seen.health.ready(readinessChecks(bound.site, { warm: options.readyWhenWarm }), degradations(bound.site));
  return {
    url: bound.url,
    site: bound.site,
    async close() {
      seen.health.stopping();
      await bound.drain(runtime.shutdownTimeoutMs);
      await stopWorker(bound.site, worker, logger);
      if (seen.metricsServer) await closeServer(seen.metricsServer);
      await bound.site.close();
      await seen.door.log?.flush();
    },
  };
}

/** A listening server and the site opened at its address; it answers 503 until given its handler. */
export interface BoundSite {
  httpServer: http.Server;
  /** Stops accepting and lets requests in flight finish (drain.ts). */
  drain(ms: number): Promise<void>;
  url: string;
  site: Site;
  answerWith(handler: RequestHandler): void;
}

/**
 * Binds the socket before opening the site, so a site created by this start gets the address it is
 * really served at (even with --port=0); a site that fails to open closes the socket again. The
 * server has `limits` (timeouts and a connection cap) from the start, and answers through the front
 * door (health, request ids, logs, metrics; WordPress-shaped 503 while the site opens).
 */
export async function bindThenOpen(
  ctx: CliContext, config: SiteConfig, server: ServerConfig, limits: HttpLimits, logger: Logger, door: FrontDoorOptions,
): Promise<BoundSite> {
  let handler: RequestHandler | null = null;
  const httpServer = createHttpServer(limits, frontDoor(door, () => handler), logger, door.trustedProxies);
  const { drain } = trackConnections(httpServer);
  const bound = (site: Site, url: string): BoundSite => ({ httpServer, drain, url, site, answerWith: (h) => { handler = h; } });
  // CASE: a worker of `serve --workers` (the primary created the site at its fixed port) opens the
  // site first: the primary hands connections to every listening worker, so it listens once ready.
  if (cluster.isWorker) {
    const url = `http://${displayHost(server.host)}:${server.port}`;
    const { site } = await openConfiguredSite(ctx, config, { logger, siteUrl: url });
    await listen(httpServer, server).catch(async (err) => { await site.close(); throw err; });
    return bound(site, url);
  }
  await listen(httpServer, server);
  const url = `http://${displayHost(server.host)}:${(httpServer.address() as AddressInfo).port}`;
  try {
    const { site } = await openConfiguredSite(ctx, config, { logger, siteUrl: url });
    return bound(site, url);
  } catch (err) {
    await closeServer(httpServer);
    throw err;
  }
}
