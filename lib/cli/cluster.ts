/**
 * `serve --workers=N|auto`: N processes on one port (Node's cluster: the primary accepts and hands
 * connections to the workers). Each worker is a whole `serve` with its own caches and job worker;
 * everything that must be shared (rate limits, the job queue, sessions) is in the database already.
 * The primary opens the site once first (migrations, the demo's first seeding) so that workers never
 * race to create it, serves the metrics port with every worker's metrics aggregated, restarts a worker
 * that dies, and on SIGTERM or SIGINT passes the signal on and waits for every worker to finish.
 */
import cluster, { Worker } from 'node:cluster';
import os from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import { isDemoSeeded } from '../demo/seed';
import { demoSignIns } from '../demo/sign-ins';
import { Logger } from '../logger';
import { answerWorkersMetrics } from '../observability/cluster-metrics';
import { startMetricsServer } from '../observability/metrics-server';
import { ServerConfig, SiteConfig } from '../wp/config';
import { CliError } from './args';
import { CliContext, displayHost, line, openConfiguredSite } from './context';
import { closeServer, stopRequested } from './lifecycle';
import { RuntimeOptions } from './runtime-options';

/** A dead worker is replaced after this long (not at once, so a worker that cannot start does not spin). */
const RESTART_DELAY_MS = 1000;

/** The number of processes `--workers` (or WORKERS) asks for; `primary` is false inside a worker. */
export function workerCount(value: string | undefined): { count: number; primary: boolean } {
  const primary = cluster.isPrimary;
  if (value === undefined || value === '') return { count: 1, primary };
  if (value === 'auto') return { count: Math.max(1, os.availableParallelism()), primary };
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 256) throw new CliError(`--workers must be a number from 1 to 256 or auto, got "${value}"`);
  return { count, primary };
}

export async function runCluster(ctx: CliContext, config: SiteConfig, server: ServerConfig, runtime: RuntimeOptions, count: number, logger: Logger): Promise<number> {
  if (server.port === 0) throw new CliError('--workers needs a fixed --port (every worker listens on the same one)');
  const url = `http://${displayHost(server.host)}:${server.port}`;
  // Migrations and the demo's first seeding happen once, here, before any worker opens the site.
  const { site } = await openConfiguredSite(ctx, config, { logger, siteUrl: url });
  const seeded = config.seedDemo && (await isDemoSeeded(site));
  await site.close();

  const aggregator = new AggregatorRegistry();
  answerWorkersMetrics(aggregator);
  const metrics = runtime.metricsPort === undefined ? null : await startMetricsServer(
    { metrics: () => aggregator.clusterMetrics(), contentType: aggregator.contentType }, runtime.metricsHost, runtime.metricsPort,
  );
  if (metrics) logger.info(`Metrics for Prometheus (all workers) at ${metrics.url}`);

  let stopping = false;
  let listening = 0;
  let allListening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => { allListening = resolve; });
  cluster.setupPrimary({ exec: process.argv[1], args: process.argv.slice(2), silent: false });
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => { if (++listening === count) allListening(); });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      logger.warn(`worker ${worker.process.pid} exited (${signal ?? `status ${code}`}); starting another`);
      setTimeout(() => { if (!stopping) fork(); }, RESTART_DELAY_MS).unref();
    });
  };
  for (let i = 0; i < count; i++) fork();
  // Said once every worker listens, so that whoever waits for this line finds them all answering.
  const stop = stopRequested(ctx);
  if (await Promise.race([ready.then(() => true), stop.then(() => false)])) {
    logger.info(`Understudy is serving ${config.description} at ${url} with ${count} workers`);
    if (seeded) for (const text of demoSignIns(url)) line(ctx, text);
  }
  const reason = await stop;
  stopping = true;
  logger.info(`${reason}: shutting down ${Object.keys(cluster.workers ?? {}).length} workers`);
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
  const exits = workers.map((w) => new Promise<number>((resolve) => {
    if (w.isDead()) return resolve(w.process.exitCode ?? 0);
    w.once('exit', (code) => resolve(code ?? 0));
    // Each worker shuts down as a single `serve` does (it may already have had Ctrl-C from the terminal).
    w.process.kill('SIGTERM');
  }));
  const codes = await Promise.all(exits);
  if (metrics) await closeServer(metrics.server);
  return codes.every((c) => c === 0) ? 0 : 1;
}
