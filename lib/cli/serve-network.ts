/**
 * `understudy serve` on a network (MULTISITE on, no WP_BLOG_ID): one process answers every site of it
 * (docs/multisite.md). The sites share one connection pool; each is opened on its first request, with
 * its own app, job worker and desk (warmed in the background from its first request), and let go
 * once idle, so memory follows the sites in use; the sites that are not open are looked at for due
 * jobs. The main site stays open: readiness, metrics and the start-up checks look at it.
 */
import { AddressInfo } from 'node:net';
import { Surface, buildSurface, createApp } from '../app';
import { OpenedNetwork, openNetwork, openSiteOfNetwork } from '../boot';
import { watchNetworkQueues } from '../jobs/network-queues';
import { JobWorker } from '../jobs/worker';
import { Logger } from '../logger';
import { NetworkSurface, ServedSite, createNetworkHandler } from '../network-app';
import { FrontDoorOptions, RequestHandler, frontDoor } from '../observability/front-door';
import { warmUpSupportDesk } from '../support/warm-up';
import { ServerConfig, SiteConfig } from '../wp/config';
import { SitePool } from '../wp/multisite/site-pool';
import { MultisiteStore } from '../wp/multisite/store';
import { Site } from '../wp/site';
import { SCHEDULES, startJobWorker } from '../worker';
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

/**
 * NETWORK_SITE_IDLE_SECONDS and NETWORK_MAX_OPEN_SITES: when an unused site is let go;
 * NETWORK_JOBS_EVERY_SECONDS: how often the sites that are not open are looked at for due jobs.
 */
export interface NetworkSettings {
  idleMs: number;
  maxOpen: number;
  jobsEveryMs: number;
}

export function loadNetworkSettings(env: Record<string, string | undefined>): NetworkSettings {
  const read = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a whole number of at least 1, got "${env[name]}"`);
    return Number(raw);
  };
  return {
    idleMs: read('NETWORK_SITE_IDLE_SECONDS', 300) * 1000, maxOpen: read('NETWORK_MAX_OPEN_SITES', 100),
    jobsEveryMs: read('NETWORK_JOBS_EVERY_SECONDS', 30) * 1000,
  };
}

/**
 * Opens the network and its main site, then listens (a network is never created here, so there is no
 * address to learn first; a worker of `--workers` listens only once it can answer).
 */
export async function startNetworkServer(
  ctx: CliContext, config: OpenedNetwork['config'], server: ServerConfig, limits: HttpLimits, logger: Logger, runtime: RuntimeOptions, options: ServeOptions = {},
): Promise<RunningServer> {
  let open = (): number => 0;
  const seen = await observe(ctx, runtime, logger, { openSites: () => open() });
  const bound = await bindThenOpenNetwork(ctx, config, server, limits, logger, seen.door, runtime);
  open = () => bound.pool.openSites().length;
  seen.setSite(bound.site);
  bound.answerWith(createNetworkHandler(bound.surface, logger));
  await checkAtStartup(bound.site, logger);
  seen.health.ready(readinessChecks(bound.site, { warm: options.readyWhenWarm }), degradations(bound.site));
  return {
    url: bound.url,
    site: bound.site,
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
  /** What the network's handler reads (lib/network-app.ts). */
  surface: NetworkSurface;
  /** The main site, kept open: readiness, metrics and the start-up checks look at it. */
  site: Site;
  answerWith(handler: RequestHandler): void;
  /** Stops accepting and lets requests in flight finish (drain.ts). */
  drain(ms: number): Promise<void>;
  /** Stops looking for jobs, lets go of every site and closes the pool (once drained). */
  close(): Promise<void>;
}

/**
 * Opens the network and its main site, then listens (a network is never created by a start, so there
 * is no address to learn first, and a worker of `--workers` listens only once it can answer). Also
 * used by `understudy proxy` in front of a network (with the routes it reads); `jobs: false` opens
 * sites without job workers.
 */
export async function bindThenOpenNetwork(
  ctx: CliContext, config: OpenedNetwork['config'], server: ServerConfig, limits: HttpLimits, logger: Logger, door: FrontDoorOptions, runtime: RuntimeOptions,
  options: { jobs?: boolean; surface?: Surface } = {},
): Promise<BoundNetwork> {
  const jobs = options.jobs ?? true;
  const network = openNetwork(config, {});
  const settings = loadNetworkSettings(ctx.env);
  const routes = options.surface ?? buildSurface({ languages: config.languages });
  const pool = sitePool(network, routes, logger, runtime, settings, jobs);
  const giveUp = async (err: unknown): Promise<never> => {
    await pool.close();
    await network.close();
    throw err;
  };
  const main = await pool.lease(config.blogId).catch(giveUp);
  let handler: RequestHandler | null = null;
  const httpServer = createHttpServer(limits, frontDoor(door, () => handler), logger, door.trustedProxies);
  const { drain } = trackConnections(httpServer);
  await listen(httpServer, server).catch(giveUp);
  // The main site warms at start, as a single site's server does.
  main.opened.visited();
  const networkId = (await new MultisiteStore(network.db).networkOfBlog(config.blogId))?.id ?? 1;
  const queues = jobs ? watchNetworkQueues({ db: network.db, networkId, pool, clock: main.opened.site.clock, logger, schedules: SCHEDULES, everyMs: settings.jobsEveryMs }) : null;
  return {
    url: `http://${displayHost(server.host)}:${(httpServer.address() as AddressInfo).port}`,
    network, pool, surface: { sites: network.sites, pool, rest: routes.rest }, site: main.opened.site, drain,
    answerWith: (h) => { handler = h; },
    async close() {
      await queues?.stop();
      main.release();
      await pool.close();
      await network.close();
    },
  };
}

/** Each site opened with its app, its job worker (unless `jobs` is off) and its desk; closed in the reverse order. */
function sitePool(network: OpenedNetwork, surface: Surface, logger: Logger, runtime: RuntimeOptions, limits: NetworkSettings, jobs: boolean): SitePool<OpenSite> {
  return new SitePool<OpenSite>({
    idleMs: limits.idleMs,
    maxOpen: limits.maxOpen,
    async open(blogId) {
      const site = await openSiteOfNetwork(network, blogId, { logger });
      const worker = jobs ? startJobWorker(site, { stopTimeoutMs: runtime.shutdownTimeoutMs }) : null;
      logger.info('network: a site is open', { blog_id: blogId });
      // A site opened for its jobs alone loads no lists: its first request starts the loads.
      return { site, worker, app: createApp(site, surface, { trustedProxies: runtime.trustedProxies }), visited: () => void warmUpSupportDesk(site) };
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

/** Whether `serve` answers the whole network: MULTISITE on, and no site named (WP_BLOG_ID, `--url`). */
export function servesNetwork(config: SiteConfig, ctx: CliContext): config is OpenedNetwork['config'] {
  return config.network !== undefined && !config.blogChosen && ctx.blogId === undefined;
}
