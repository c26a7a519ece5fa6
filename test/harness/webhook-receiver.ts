/**
 * A real webhook receiver on 127.0.0.1 (random port): it keeps every request with its raw body and
 * answers with the statuses it is told, in order (200 once they run out). `hold` leaves requests
 * unanswered until released, for timeouts and for a worker killed mid-request.
 */
import http from 'node:http';
import { Listening, listen } from './http';

export interface ReceivedHook {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  json: unknown;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** The statuses of the next answers, in order. */
  answer(...statuses: number[]): void;
  /** Leaves the next requests unanswered (hold(true)) or answers them again (hold(false) also answers the held ones). */
  hold(on: boolean): void;
  /** Resolves once `count` requests have arrived; rejects after `withinMs`. */
  waitFor(count: number, withinMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const statuses: number[] = [];
  const held: http.ServerResponse[] = [];
  let holding = false;
  const listening: Listening = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json: parse(raw) });
      if (holding) held.push(res);
      else res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  return {
    url: listening.url,
    received,
    answer: (...next) => { statuses.push(...next); },
    hold(on) {
      holding = on;
      if (!on) for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(statuses.shift() ?? 200).end();
    },
    async waitFor(count, withinMs = 5000) {
      const started = Date.now();
      while (received.length < count) {
        if (Date.now() - started > withinMs) throw new Error(`expected ${count} requests within ${withinMs} ms, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return [...received];
    },
    close: () => listening.close(),
  };
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
