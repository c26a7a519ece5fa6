/**
 * METRICS_PORT: a server of its own for Prometheus, on METRICS_HOST (loopback unless set), answering
 * GET /metrics and nothing else. Nothing on the public port reveals the metrics.
 */
import http, { ServerResponse } from 'node:http';

export interface MetricsSource {
  metrics(): Promise<string>;
  contentType: string;
}

export async function startMetricsServer(source: MetricsSource, host: string, port: number): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    void sendMetrics(res, source);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as { port: number };
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics` };
}

/** The metrics text, here and on the front door's token path; with `--workers`, the primary's aggregation of every worker (cluster.ts). */
export async function sendMetrics(res: ServerResponse, registry: MetricsSource): Promise<void> {
  try {
    const text = await registry.metrics();
    res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text);
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${(err as Error).message}\n`);
  }
}
