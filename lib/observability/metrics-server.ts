/**
 * METRICS_PORT: a server of its own for Prometheus, on METRICS_HOST (loopback unless set), answering
 * GET /metrics and nothing else. Nothing on the public port reveals the metrics.
 */
import http from 'node:http';
import { sendMetrics } from './front-door';

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
