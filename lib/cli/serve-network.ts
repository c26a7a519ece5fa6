/**
 * `understudy serve` on a network (MULTISITE on, no WP_BLOG_ID): one process answers every site of it
 * (docs/multisite.md). The sites share one connection pool; each is opened on its first request, with
 * its own app, job worker and desk (warmed in the background), and let go once idle, so memory follows
 * the sites in use. The main site stays open: readiness, metrics and the start-up checks look at it.
 */
import { AddressInfo } from 'node:net';
import { createApp, buildSurface } from '../app';
import { openNetwork, openSiteOfNetwork, OpenedNetwork } from '../boot';
import { JobWorker } from '../jobs/worker';
import { Logger } from '../logger';
import { ServedSite, createNetworkHandler } from '../network-app';
import { FrontDoorOptions, RequestHandler, frontDoor } from '../observability/front-door';
import { warmUpSupportDesk } from '../support/warm-up';
import { ServerConfig, SiteConfig } from '../wp/config';
import { SitePool } from '../wp/multisite/site-pool';
import { Site } from '../wp/site';
import { startJobWorker } from '../worker';
import { CliContext, displayHost } from './context';
import { trackConnections } from './drain';
import { HttpLimits, createHttpServer, listen } from './http-server';
import { RunningServer, ServeOptions, checkAtStartup, closeServer, stopWorker } from './lifecycle';
import { degradations, observe, readinessChecks } from './observe';
import { RuntimeOptions } from './runtime-options';

/** A site of the network while open in this process: what serves it, and its job worker. */
interface OpenSite extends ServedSite {
  /** Null behind a proxy whose shadowed writes reach a copy (its jobs are PHP's, done for real). */
  worker: JobWorker | null;
}

/** NETWORK_SITE_IDLE_SECONDS and NETWORK_MAX_OPEN_SITES: when an unused site is let go. */
export interface NetworkPoolLimits {
  idleMs: number;
  maxOpen: number;
}

export function loadNetworkPoolLimits(env: Record<string, string | undefined>): NetworkPoolLimits {
  const read = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a whole number of at least 1, got "${env[name]}"`);
    return Number(raw);
  };
  return { idleMs: read('NETWORK_SITE_IDLE_SECONDS', 300) * 1000, maxOpen: read('NETWORK_MAX_OPEN_SITES', 100) };
}

export async function startNetworkServer(
  ctx: CliContext, config: OpenedNetwork['config'], server: ServerConfig, limits: HttpLimits, logger: Logger, runtime: RuntimeOptions, options: ServeOptions = {},
): Promise<RunningServer> {
  const seen = await observe(ctx, runtime, logger);
  const bound = await bindThenOpenNetwork(ctx, config, server, limits, logger, seen.door, runtime);
  const site = bound.site;
  seen.setSite(site);
  bound.answerWith(createNetworkHandler(bound.network.sites, bound.pool, logger));
  await checkAtStartup(site, logger);
  seen.health.ready(readinessChecks(site, { warm: options.readyWhenWarm }), degradations(site));
  return {
    url: bound.url,
    site,
    async close() {
      seen.health.stopping();
      await bound.drain(runtime.shutdownTimeoutMs);
      if (seen.metricsServer) await closeServer(seen.metricsServer);
      await bound.close();
      await seen.door.log?.flush();
    },
  };
}

/** A listening server and the network behind it, its main site open; it answers 503 until given its handler. */
export interface BoundNetwork {
  url: string;
  network: OpenedNetwork;
  pool: SitePool<OpenSite>;
  /** The main site, kept open: readiness, metrics and the start-up checks look at it. */
  site: Site;
  answerWith(handler: RequestHandler): void;
  /** Stops accepting and lets requests in flight finish (drain.ts). */
  drain(ms: number): Promise<void>;
  /** Lets go of every site and closes the pool (once drained). */
  close(): Promise<void>;
}

/**
 * As bindThenOpen() for one site: binds, then opens the network and its main site (also used by
 * `understudy proxy` in front of a network). `jobs: false` opens sites without their job worker.
 */
export async function bindThenOpenNetwork(
  ctx: CliContext, config: OpenedNetwork['config'], server: ServerConfig, limits: HttpLimits, logger: Logger, door: FrontDoorOptions, runtime: RuntimeOptions,
  options: { jobs?: boolean } = {},
): Promise<BoundNetwork> {
  let handler: RequestHandler | null = null;
  const httpServer = createHttpServer(limits, frontDoor(door, () => handler), logger, door.trustedProxies);
  const { drain } = trackConnections(httpServer);
  await listen(httpServer, server);
  const url = `http://${displayHost(server.host)}:${(httpServer.address() as AddressInfo).port}`;
  const network = openNetwork(config, {});
  const pool = sitePool(network, logger, runtime, loadNetworkPoolLimits(ctx.env), options.jobs ?? true);
  let main;
  try {
    main = await pool.lease(config.blogId);
  } catch (err) {
    await pool.close();
    await network.close();
    await closeServer(httpServer);
    throw err;
  }
  return {
    url, network, pool, site: main.opened.site, drain,
    answerWith: (h) => { handler = h; },
    async close() {
      main.release();
      await pool.close();
      await network.close();
    },
  };
}

/** Each site opened with its app, its job worker (unless `jobs` is off) and its desk's background loads; closed in the reverse order. */
function sitePool(network: OpenedNetwork, logger: Logger, runtime: RuntimeOptions, limits: NetworkPoolLimits, jobs: boolean): SitePool<OpenSite> {
  const surface = buildSurface();
  return new SitePool<OpenSite>({
    ...limits,
    async open(blogId) {
      const site = await openSiteOfNetwork(network, blogId, { logger });
      const worker = jobs ? startJobWorker(site, { stopTimeoutMs: runtime.shutdownTimeoutMs }) : null;
      warmUpSupportDesk(site);
      logger.info('network: a site is open', { blog_id: blogId });
      return { site, worker, app: createApp(site, surface, { trustedProxies: runtime.trustedProxies }) };
    },
    busy: ({ worker }) => Boolean(worker?.busy),
    async close({ site, worker }, blogId) {
      if (worker) await stopWorker(site, worker, logger);
      await site.close();
      logger.info('network: an idle site is let go', { blog_id: blogId });
    },
    onCloseError: (blogId, err) => logger.warn('network: a site did not close cleanly', { blog_id: blogId, error: String(err) }),
  });
}

/** Whether `serve` answers the whole network: MULTISITE on and no WP_BLOG_ID. */
export function servesNetwork(config: SiteConfig): config is OpenedNetwork['config'] {
  return config.network !== undefined;
}
