/**
 * `understudy serve` on a network (MULTISITE on, no WP_BLOG_ID): one process answers every site of it
 * (docs/multisite.md). The sites share one connection pool; each is opened on its first request, with
 * its own app, job worker and desk (warmed in the background), and let go once idle, so memory follows
 * the sites in use. The main site stays open: readiness, metrics and the start-up checks look at it.
 */
import { AddressInfo } from 'node:net';
import { Surface, createApp, buildSurface } from '../app';
import { openNetwork, openSiteOfNetwork, OpenedNetwork } from '../boot';
import { JobWorker } from '../jobs/worker';
import { Logger } from '../logger';
import { ServedSite, createNetworkHandler } from '../network-app';
import { frontDoor } from '../observability/front-door';
import { warmUpSupportDesk } from '../support/warm-up';
import { ServerConfig, SiteConfig } from '../wp/config';
import { SitePool } from '../wp/multisite/site-pool';
import { MultisiteStore } from '../wp/multisite/store';
import { SCHEDULES, startJobWorker } from '../worker';
import { watchNetworkQueues } from '../jobs/network-queues';
import { CliContext, displayHost } from './context';
import { trackConnections } from './drain';
import { HttpLimits, createHttpServer, listen } from './http-server';
import { RunningServer, ServeOptions, checkAtStartup, closeServer, stopWorker } from './lifecycle';
import { degradations, observe, readinessChecks } from './observe';
import { RuntimeOptions } from './runtime-options';

/** A site of the network while open in this process: what serves it, and its job worker. */
interface OpenSite extends ServedSite {
  worker: JobWorker;
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
  const network = openNetwork(config, {});
  const settings = loadNetworkSettings(ctx.env);
  const surface = buildSurface({ languages: config.languages });
  const sites = sitePool(network, surface, logger, runtime, settings);
  const giveUp = async (err: unknown): Promise<never> => {
    await sites.close();
    await network.close();
    throw err;
  };
  const main = await sites.lease(config.blogId).catch(giveUp);
  const site = main.opened.site;
  const seen = await observe(ctx, runtime, logger, { openSites: () => sites.openSites().length });
  seen.setSite(site);
  const handler = createNetworkHandler({ sites: network.sites, pool: sites, rest: surface.rest }, logger);
  const httpServer = createHttpServer(limits, frontDoor(seen.door, () => handler), logger, seen.door.trustedProxies);
  const { drain } = trackConnections(httpServer);
  await listen(httpServer, server).catch(giveUp);
  // The main site warms at start, as a single site's server does.
  main.opened.visited();
  const queues = watchNetworkQueues({
    db: network.db, networkId: (await new MultisiteStore(network.db).networkOfBlog(config.blogId))?.id ?? 1, pool: sites, clock: site.clock, logger, schedules: SCHEDULES, everyMs: settings.jobsEveryMs,
  });
  await checkAtStartup(site, logger);
  seen.health.ready(readinessChecks(site, { warm: options.readyWhenWarm }), degradations(site));
  return {
    url: `http://${displayHost(server.host)}:${(httpServer.address() as AddressInfo).port}`,
    site,
    async close() {
      seen.health.stopping();
      await drain(runtime.shutdownTimeoutMs);
      await queues.stop();
      main.release();
      await sites.close();
      if (seen.metricsServer) await closeServer(seen.metricsServer);
      await network.close();
      await seen.door.log?.flush();
    },
  };
}

/** Each site opened with its app, its job worker and its desk's background loads; closed in the reverse order. */
function sitePool(network: OpenedNetwork, surface: Surface, logger: Logger, runtime: RuntimeOptions, limits: NetworkSettings): SitePool<OpenSite> {
  return new SitePool<OpenSite>({
    idleMs: limits.idleMs,
    maxOpen: limits.maxOpen,
    async open(blogId) {
      const site = await openSiteOfNetwork(network, blogId, { logger });
      const worker = startJobWorker(site, { stopTimeoutMs: runtime.shutdownTimeoutMs });
      logger.info('network: a site is open', { blog_id: blogId });
      // A site opened for its jobs alone loads no lists: its first request starts the loads.
      return { site, worker, app: createApp(site, surface, { trustedProxies: runtime.trustedProxies }), visited: () => void warmUpSupportDesk(site) };
    },
    busy: ({ worker }) => worker.busy,
    async close({ site, worker }, blogId) {
      await stopWorker(site, worker, logger);
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
