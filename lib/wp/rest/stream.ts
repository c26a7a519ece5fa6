/**
 * Server-sent events from a REST handler: the handler returns a StreamResponse whose producer makes
 * an async iterable of events; each event is written and flushed as it comes. When the client goes
 * away the producer's signal is aborted (so a wait for a model's next word ends at once) and the
 * iterable is closed.
 */
import type { Response } from 'express';

export interface ServerSentEvent {
  /** The event type (`event:`); omitted for the default `message`. */
  event?: string;
  /** The payload: a string as it is, anything else as JSON. */
  data: unknown;
  id?: string;
}

/** Makes the events, one at a time or in batches written at once; `signal` is aborted when the client goes away. */
export type EventProducer = (signal: AbortSignal) => AsyncIterable<ServerSentEvent | readonly ServerSentEvent[]>;

export class StreamResponse {
  constructor(
    readonly produce: EventProducer,
    readonly headers: Record<string, string> = {},
    readonly status = 200,
    /** When set, a comment line (`: ping`) is written after this many milliseconds without output, so proxies keep a quiet stream open. */
    readonly heartbeatMs?: number,
  ) {}
}

/** The headers every event stream carries: no caching, and no buffering by a proxy in front. */
export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=UTF-8',
  'Cache-Control': 'no-cache, no-store',
  'X-Accel-Buffering': 'no',
};

/** One event in the text/event-stream format: a `data:` line per line of the payload. */
export function formatEvent(event: ServerSentEvent): string {
  // JSON has no line breaks (they are escaped in its strings): one `data:` line, nothing to split.
  const data = typeof event.data === 'string' ? event.data.split(/\r\n|\r|\n/).join('\ndata: ') : JSON.stringify(event.data);
  const head = `${event.event ? `event: ${oneLine(event.event)}\n` : ''}${event.id ? `id: ${oneLine(event.id)}\n` : ''}`;
  return `${head}data: ${data}\n\n`;
}

/** Writes the events until the iterable ends or the client goes; resolves when either happened. */
export async function pipeEvents(res: Response, produce: EventProducer, heartbeatMs?: number): Promise<void> {
  const client = new AbortController();
  const iterator = produce(client.signal)[Symbol.asyncIterator]();
  let gone = false;
  const onClose = () => {
    gone = true;
    client.abort();
  };
  res.once('close', onClose);
  res.flushHeaders();
  // A comment is not an event: clients (EventSource included) ignore it.
  const heartbeat = heartbeatMs ? setInterval(() => { if (!gone) res.write(': ping\n\n'); }, heartbeatMs) : null;
  try {
    while (!gone) {
      const next = await iterator.next();
      if (next.done || gone) break;
      const value = next.value;
      // A batch is one write: one system call and one chunk for the client, however many events.
      res.write(Array.isArray(value) ? value.map(formatEvent).join('') : formatEvent(value as ServerSentEvent));
      heartbeat?.refresh();
    }
  } catch (err) {
    // A producer that stopped because the client left has nothing more to say.
    if (!gone) throw err;
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    res.off('close', onClose);
    if (gone) await iterator.return?.();
    else res.end();
  }
}

/** Field values cannot hold a line break: it would start a new field. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}
