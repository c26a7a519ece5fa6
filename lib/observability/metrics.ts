/**
 * Prometheus metrics (prom-client), per process: requests by route pattern, method and status,
 * their latency, and, read at scrape time, the job queue (depth, oldest due job, failed deliveries),
 * the caches' reloads, PHP's persistent object cache (its kind and state, the invalidations' outcomes)
 * and the proxy's shadow comparisons. Served only on a separate loopback port or behind a token
 * (front-door.ts), never publicly. A process serving a whole network also counts requests per site and
 * the sites it holds open. Queue figures are the whole site's (the table is shared), so
 * under `--workers` they are aggregated with `max`, not summed.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ShadowStatus } from '../proxy/stats';
import { cacheReloads } from '../wp/cache-stats';
import type { Site } from '../wp/site';
import { JobFacts, readJobFacts } from './job-facts';

export interface MetricSources {
  /** The open site (null while starting). */
  site(): Site | null;
  /** The proxy's shadow counters, when this process is a proxy. */
  shadow?(): ShadowStatus | null;
  /** How many sites of the network are open, when this process serves a whole network. */
  openSites?(): number;
}

/** Upper bounds in seconds: REST answers take milliseconds; uploads and slow databases take seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly latency: Histogram<'route' | 'method'>;
  /** Per site of a network: a series per site in use, rather than per route and status. */
  private readonly siteRequests: Counter<'blog_id'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'understudy_' });
    this.requests = new Counter({
      name: 'understudy_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'], registers,
    });
    this.latency = new Histogram({
      name: 'understudy_http_request_duration_seconds', help: 'Time from a request\'s arrival to the end of its answer, by route pattern.',
      labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers,
    });
    this.siteRequests = new Counter({
      name: 'understudy_network_site_requests_total', help: 'HTTP requests answered for each site of the network this process serves, by blog ID.',
      labelNames: ['blog_id'], registers,
    });
    if (sources.openSites) {
      const openSites = sources.openSites;
      new Gauge({
        name: 'understudy_network_open_sites', help: 'Sites of the network open in this process (opened on first use, let go when idle).', registers,
        collect() { this.set(openSites()); },
      });
    }
    this.jobGauges(sources, registers);
    this.objectCacheMetrics(sources, registers);
    if (sources.shadow) this.shadowGauges(sources.shadow, registers);
    new Counter({
      name: 'understudy_cache_reloads_total', help: 'Loads from the database by this process\'s caches of WordPress data (options, users, ticket index, searches), by cache.',
      labelNames: ['cache'], registers,
      collect() {
        this.reset();
        for (const [cache, n] of cacheReloads()) this.inc({ cache }, n);
      },
    });
  }

  /** One answer; `blogId`: the site of a network it was for. */
  observe(route: string, method: string, status: number, seconds: number, blogId?: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route, method }, seconds);
    if (blogId !== undefined) this.siteRequests.inc({ blog_id: String(blogId) });
  }

  private jobGauges(sources: MetricSources, registers: Registry[]): void {
    // One read of the queue per scrape, shared by the four gauges (the first one collected starts it).
    let pending: Promise<JobFacts | null> | null = null;
    const facts = (): Promise<JobFacts | null> => {
      const site = sources.site();
      if (!site) return Promise.resolve(null);
      pending ??= readJobFacts(site).catch(() => null).finally(() => setImmediate(() => { pending = null; }));
      return pending;
    };
    new Gauge({
      name: 'understudy_jobs', help: 'Jobs in the shared queue, by status (the whole site).', labelNames: ['status'], registers, aggregator: 'max',
      async collect() {
        const f = await facts();
        this.reset();
        for (const [status, n] of Object.entries(f?.byStatus ?? {})) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'understudy_jobs_due', help: 'Jobs whose time has come and that no live worker holds.', registers, aggregator: 'max',
      async collect() { this.set((await facts())?.due ?? 0); },
    });
    new Gauge({
      name: 'understudy_jobs_oldest_due_age_seconds', help: 'How long the oldest due job has waited.', registers, aggregator: 'max',
      async collect() { this.set((await facts())?.oldestDueSeconds ?? 0); },
    });
    new Gauge({
      name: 'understudy_jobs_failed', help: 'Jobs that gave up (deliveries failed for good), by kind.', labelNames: ['kind'], registers, aggregator: 'max',
      async collect() {
        const f = await facts();
        this.reset();
        for (const [kind, n] of Object.entries(f?.failedByKind ?? {})) this.set({ kind }, n);
      },
    });
  }

  private objectCacheMetrics(sources: MetricSources, registers: Registry[]): void {
    new Gauge({
      name: 'understudy_object_cache_info', help: 'PHP\'s persistent object cache: 1 for its kind (redis, memcached, companion, none, unknown) and state (ok, unreachable, uncovered, off).',
      labelNames: ['kind', 'state'], registers, aggregator: 'max',
      collect() {
        this.reset();
        const status = sources.site()?.objectCache;
        if (status) this.set({ kind: status.setting.kind, state: status.state }, 1);
      },
    });
    new Counter({
      name: 'understudy_object_cache_invalidations_total', help: 'Writes\' invalidations of PHP\'s object cache, by result (ok, failed: left to the retries, uncovered: nothing could invalidate).',
      labelNames: ['result'], registers,
      collect() {
        this.reset();
        for (const [result, n] of sources.site()?.objectCache.invalidations() ?? []) this.inc({ result }, n);
      },
    });
  }

  private shadowGauges(shadow: () => ShadowStatus | null, registers: Registry[]): void {
    const outcomes = ['matched', 'differed', 'noiseCancelled', 'failed', 'dropped', 'skipped'] as const;
    new Counter({
      name: 'understudy_shadow_results_total', help: 'Shadow comparisons by route and outcome (matched, differed, noiseCancelled, failed, dropped, skipped).',
      labelNames: ['route', 'outcome'], registers,
      collect() {
        this.reset();
        for (const route of shadow()?.routes ?? []) {
          for (const outcome of outcomes) if (route[outcome]) this.inc({ route: route.route, outcome }, route[outcome]);
        }
      },
    });
  }
}
