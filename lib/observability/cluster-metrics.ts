/**
 * METRICS_TOKEN under `serve --workers`: the worker that takes GET /-/metrics asks the primary, which
 * adds up every worker's metrics (prom-client's AggregatorRegistry) and answers over the cluster's
 * IPC channel, so the token answer is the whole server's, as the metrics port's is.
 */
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { contentType } from 'prom-client';
import type { MetricsSource } from './metrics-server';

const ASK = 'understudy:metrics-ask';
const ANSWER = 'understudy:metrics-answer';
const ASK_TIMEOUT_MS = 10_000;

interface Answer { type: typeof ANSWER; id: string; text?: string; error?: string }

/** In a worker: the metrics, as the primary aggregates them. */
export function metricsFromPrimary(): MetricsSource {
  return {
    contentType,
    metrics: () => new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const onMessage = (message: Answer) => {
        if (message?.type !== ANSWER || message.id !== id) return;
        done();
        if (message.error !== undefined) reject(new Error(message.error));
        else resolve(message.text ?? '');
      };
      const timer = setTimeout(() => { done(); reject(new Error('the primary did not answer')); }, ASK_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        process.off('message', onMessage);
      };
      process.on('message', onMessage);
      process.send?.({ type: ASK, id });
    }),
  };
}

/** In the primary: answers the workers' requests with `aggregator`'s sum of every worker. */
export function answerWorkersMetrics(aggregator: { clusterMetrics(): Promise<string> }): void {
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text: string) => worker.send({ type: ANSWER, id: message.id, text }),
      (err: Error) => worker.send({ type: ANSWER, id: message.id, error: err.message }),
    );
  });
}
