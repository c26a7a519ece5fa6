/**
 * A server process's observability (docs/deploy.md): its front door's options (trusted proxies,
 * request logs, metrics behind a token), health and its readiness checks, and the metrics port.
 */
import http from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import { Logger } from '../logger';
import { metricsFromPrimary } from '../observability/cluster-metrics';
import { FrontDoorOptions } from '../observability/front-door';
import { Degradation, Health, HealthCheck } from '../observability/health';
import { readJobFacts } from '../observability/job-facts';
import { Metrics, MetricSources } from '../observability/metrics';
import { startMetricsServer } from '../observability/metrics-server';
import { createRequestLogger } from '../observability/request-log';
import { storageAvailability } from '../support/storage-check';
import { warmUpSupportDesk } from '../support/warm-up';
import { Site } from '../wp/site';
import { CliContext } from './context';
import { RuntimeOptions } from './runtime-options';

/** A queued job counts as stuck (readiness fails) once it has waited this long past its time. */
const JOBS_STUCK_SECONDS = 300;

/** What the front door of a server process needs before its site is open. */
export interface Observability {
  door: FrontDoorOptions;
  health: Health;
  metrics: Metrics;
  /** The metrics port's server, when this process serves it (not a cluster worker). */
  metricsServer?: http.Server;
  /** Set once the site is open, for the metrics read at scrape time. */
  setSite(site: Site): void;
}

/** Health, metrics (port or token) and request logs for one process, from the runtime options. */
export async function observe(ctx: CliContext, runtime: RuntimeOptions, logger: Logger, extra: Partial<MetricSources> = {}): Promise<Observability> {
  let site: Site | null = null;
  const health = new Health(logger);
  const metrics = new Metrics({ site: () => site, ...extra });
  const door: FrontDoorOptions = {
    trustedProxies: runtime.trustedProxies, health, metrics, metricsToken: runtime.metricsToken,
    log: createRequestLogger(ctx.stderr as NodeJS.WritableStream, runtime.logFormat),
  };
  let metricsServer: http.Server | undefined;
  // A worker's metrics reach the primary's port through prom-client's cluster messages, whose
  // listener an AggregatorRegistry's construction installs.
  if (runtime.clusterWorker) {
    void new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
    door.metricsSource = metricsFromPrimary();
  } else if (runtime.metricsPort !== undefined) {
    const started = await startMetricsServer(metrics.registry, runtime.metricsHost, runtime.metricsPort);
    metricsServer = started.server;
    logger.info(`Metrics for Prometheus at ${started.url}`);
  }
  return { door, health, metrics, metricsServer, setSite: (opened) => { site = opened; } };
}

/** Null once the support desk's caches have loaded; which are still loading otherwise (a failed load starts again). */
function cachesStillLoading(site: Site): string | null {
  const cold = warmUpSupportDesk(site);
  return cold.length ? `still loading: ${cold.join(', ')}` : null;
}

/** What leaves a server process serving but short of its promise: an object cache nothing keeps coherent. */
export function degradations(site: Site): Record<string, Degradation> {
  return { object_cache: () => site.objectCache.degradation() };
}

/**
 * The readiness checks of a server process: database, storage, job queue; with `warm`, also the
 * caches loaded at start (not ready until they are: for deployments that can wait for them).
 */
export function readinessChecks(site: Site, { warm = false } = {}): Record<string, HealthCheck> {
  return {
    ...(warm ? { caches: async () => cachesStillLoading(site) } : {}),
    database: async () => {
      await site.db.knex.raw('SELECT 1');
      return null;
    },
    storage: async () => (await storageAvailability.check(site))?.message ?? null,
    jobs: async () => {
      const facts = await readJobFacts(site);
      return facts.oldestDueSeconds > JOBS_STUCK_SECONDS ? `the oldest due job has waited ${facts.oldestDueSeconds} s` : null;
    },
  };
}

