/**
 * `understudy serve`: opens the configured site, serves it over HTTP until SIGINT or SIGTERM, then
 * stops accepting requests, lets the ones in flight finish, and closes the database.
 *
 * The socket is bound before the site is opened, so a site created by this start gets the address it
 * is really served at as its siteurl (even with `--port=0`); requests that arrive while the database
 * opens are answered 503.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { createApp } from '../app';
import { isDemoSeeded } from '../demo/seed';
import { demoSignIns } from '../demo/sign-ins';
import { Logger, consoleLogger } from '../logger';
import { checkSupportDeskAtStartup } from '../support/startup';
import { ServerConfig, SiteConfig, loadServerConfig, loadSiteConfig } from '../wp/config';
import { Site } from '../wp/site';
import { startJobWorker } from '../worker';
import { CliError, parseCommandArgs, stringFlag } from './args';
import { CliContext, displayHost, line, openConfiguredSite } from './context';
import { HttpLimits, SERVE_HTTP_LIMITS, createHttpServer, loadHttpLimits } from './http-server';

export const SERVE_HELP = `usage: understudy serve [--port=<port>] [--host=<host>]

Serves the site's REST API (/wp-json/) and /wp-admin/admin-ajax.php until stopped with
Ctrl-C (SIGINT) or SIGTERM. --port and --host override PORT and HOST (default 127.0.0.1:8080).
HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_IDLE_TIMEOUT_MS
and HTTP_MAX_CONNECTIONS override the server's limits (see README.md).
`;

/** How long in-flight requests get to finish at shutdown before their connections are cut. */
const DRAIN_MS = 5000;

export interface RunningServer {
  /** Where the server answers, e.g. `http://127.0.0.1:8080`. */
  url: string;
  site: Site;
  /** Stops the server, then closes the database. */
  close(): Promise<void>;
}

/** Runs `serve`; resolves with the exit status once the server has shut down. */
export async function serveCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { port: 'string', host: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy serve [--port=<port>] [--host=<host>]');
  const config = loadSiteConfig(ctx.env, ctx.cwd);
  const server = loadServerConfig({ ...ctx.env, PORT: stringFlag(args, 'port') ?? ctx.env.PORT, HOST: stringFlag(args, 'host') ?? ctx.env.HOST });
  const limits = loadHttpLimits(ctx.env, SERVE_HTTP_LIMITS);
  // consoleLogger only ever calls write(), which every Writer has.
  const logger = consoleLogger(ctx.stderr as NodeJS.WritableStream);
  const running = await startServer(ctx, config, server, limits, logger);
  logger.info(`Understudy is serving ${config.description} at ${running.url}`);
  if (config.seedDemo && (await isDemoSeeded(running.site))) for (const text of demoSignIns(running.url)) line(ctx, text);
  const reason = await stopRequested(ctx);
  logger.info(`${reason}: shutting down`);
  await running.close();
  return 0;
}

/** Binds the socket, opens the site (seeding the embedded demo on its first start) and starts answering. */
export async function startServer(ctx: CliContext, config: SiteConfig, server: ServerConfig, limits: HttpLimits, logger: Logger): Promise<RunningServer> {
  const bound = await bindThenOpen(ctx, config, server, limits, logger);
  bound.answerWith(createApp(bound.site));
  await checkSupportDeskAtStartup(bound.site, logger);
  // The job worker runs the jobs the routes queue, whichever plugin's (docs/outbound.md).
  const worker = startJobWorker(bound.site);
  return {
    url: bound.url,
    site: bound.site,
    async close() {
      await closeServer(bound.httpServer);
      await worker.stop();
      await bound.site.db.close();
    },
  };
}

type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A listening server and the site opened at its address; it answers 503 until given its handler. */
export interface BoundSite {
  httpServer: http.Server;
  url: string;
  site: Site;
  answerWith(handler: RequestHandler): void;
}

/**
 * Binds the socket before opening the site, so a site created by this start gets the address it is
 * really served at (even with --port=0); a site that fails to open closes the socket again. The
 * server has `limits` (timeouts and a connection cap) from the start.
 */
export async function bindThenOpen(ctx: CliContext, config: SiteConfig, server: ServerConfig, limits: HttpLimits, logger: Logger): Promise<BoundSite> {
  let handler: RequestHandler | undefined;
  const httpServer = createHttpServer(limits, (req, res) => {
    if (handler) return void handler(req, res);
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=UTF-8', 'Retry-After': '1' }).end('Understudy is starting.\n');
  }, logger);
  await listen(httpServer, server);
  const url = `http://${displayHost(server.host)}:${(httpServer.address() as AddressInfo).port}`;
  try {
    const { site } = await openConfiguredSite(ctx, config, { logger, siteUrl: url });
    return { httpServer, url, site, answerWith: (h) => { handler = h; } };
  } catch (err) {
    await closeServer(httpServer);
    throw err;
  }
}

export function listen(server: http.Server, { port, host }: ServerConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops accepting connections, closes idle keep-alive ones, and cuts the rest after DRAIN_MS. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Resolves with what asked the server to stop: the context's abort signal, or SIGINT/SIGTERM. */
export function stopRequested(ctx: CliContext): Promise<string> {
  const { signal } = ctx;
  if (signal) {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve('stop requested');
      signal.addEventListener('abort', () => resolve('stop requested'), { once: true });
    });
  }
  return new Promise((resolve) => {
    const stop = (name: string) => () => {
      // Handlers go after the first signal, so a second Ctrl-C ends the process at once.
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(name);
    };
    const onInt = stop('SIGINT');
    const onTerm = stop('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}
