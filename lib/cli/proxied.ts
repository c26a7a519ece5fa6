/**
 * What `understudy proxy` stands in front of, opened behind its listening socket: one site (its app,
 * its shadow store, its job worker), or a whole network (its sites found per request and opened on
 * first use, as `serve` does; each site's shadow evidence in its own tables).
 */
import type { RequestListener } from 'node:http';
import { Surface, createApp } from '../app';
import { OpenedNetwork, siteDatabase } from '../boot';
import { JobWorker } from '../jobs/worker';
import { Logger } from '../logger';
import { FrontDoorOptions } from '../observability/front-door';
import { NetworkShadowEvidence } from '../proxy/network-evidence';
import { ShadowEvidence } from '../proxy/server';
import { ShadowStore } from '../proxy/shadow-store';
import { UnderstudyFront, networkFront } from '../proxy/understudy-front';
import { ServerConfig, SiteConfig } from '../wp/config';
import { Site } from '../wp/site';
import { startJobWorker } from '../worker';
import { CliContext } from './context';
import { HttpLimits } from './http-server';
import { stopWorker } from './lifecycle';
import { RuntimeOptions } from './runtime-options';
import { bindThenOpen } from './serve';
import { bindThenOpenNetwork } from './serve-network';

/** How long shadow evidence is kept (--shadow-keep-days, --shadow-keep-differences). */
export interface EvidenceKeeping {
  keepDays?: number;
  keepDifferences?: number;
}

/** What the proxy stands in front of, opened behind its listening socket: one site, or a whole network. */
export interface Proxied {
  url: string;
  /** The site (on a network, its main site) readiness and metrics look at. */
  site: Site;
  understudy: RequestListener | UnderstudyFront;
  evidence: ShadowEvidence & { start(): void; close(): Promise<void> };
  answerWith(handler: RequestListener): void;
  drain(ms: number): Promise<void>;
  /** Starts the job worker (a network's sites start theirs as they open). */
  startJobs(): void;
  /** Stops the job workers and closes the sites and the database. */
  close(): Promise<void>;
}

export async function proxiedSite(
  ctx: CliContext, config: SiteConfig, server: ServerConfig, limits: HttpLimits, logger: Logger, door: FrontDoorOptions, runtime: RuntimeOptions,
  settings: EvidenceKeeping, surface: Surface,
): Promise<Proxied> {
  const bound = await bindThenOpen(ctx, config, server, limits, logger, door);
  const { site } = bound;
  let worker: JobWorker | null = null;
  return {
    url: bound.url, site, understudy: createApp(site, surface, { trustedProxies: runtime.trustedProxies }),
    evidence: new ShadowStore(site.db, { keepDays: settings.keepDays, keepDifferences: settings.keepDifferences, logger }),
    answerWith: bound.answerWith, drain: bound.drain,
    startJobs: () => { worker = startJobWorker(site, { stopTimeoutMs: runtime.shutdownTimeoutMs }); },
    async close() {
      if (worker) await stopWorker(site, worker, logger);
      await site.close();
    },
  };
}

/**
 * A whole network (MULTISITE on, no WP_BLOG_ID): each request's site is found as `serve` finds it
 * and opened on first use; its shadow evidence goes to its own tables (network-evidence.ts).
 */
export async function proxiedNetwork(
  ctx: CliContext, config: OpenedNetwork['config'], server: ServerConfig, limits: HttpLimits, logger: Logger, door: FrontDoorOptions, runtime: RuntimeOptions,
  settings: EvidenceKeeping, surface: Surface, jobs: boolean,
): Promise<Proxied> {
  const bound = await bindThenOpenNetwork(ctx, config, server, limits, logger, door, runtime, { jobs, surface });
  const { network, pool } = bound;
  return {
    url: bound.url, site: bound.site, understudy: networkFront(bound.surface, logger),
    evidence: new NetworkShadowEvidence({
      mainBlogId: config.blogId, keepDays: settings.keepDays, keepDifferences: settings.keepDifferences, logger,
      databaseOf: (blogId) => siteDatabase(network, blogId),
      withSite: (blogId, write) => pool.with(blogId, write),
    }),
    answerWith: bound.answerWith, drain: bound.drain,
    startJobs: () => undefined,
    close: () => bound.close(),
  };
}
