/**
 * Server-sent events from a REST handler: the handler returns a StreamResponse whose producer makes
 * an async iterable of events; each event is written and flushed as it comes. When the client goes
 * away the producer's signal is aborted (so a wait for a model's next word ends at once) and the
 * iterable is closed.
 */
import type { Response } from 'express';
import { performance } from 'node:perf_hooks';

export interface ServerSentEvent {
  /** The event type (`event:`); omitted for the default `message`. */
  event?: string;
  /** The payload: a string as it is, anything else as JSON. */
  data: unknown;
  id?: string;
}

/** Writes an event, or a batch of them in one write, at once; nothing once the client has gone. */
export type SendEvents = (events: ServerSentEvent | readonly ServerSentEvent[]) => void;

/**
 * Makes the events: yields them (one at a time or in batches), or hands them to `send` as they come
 * and resolves when it is done (no promise or generator step per event: a streamed answer's tokens).
 * `signal` is aborted when the client goes away.
 */
export type EventProducer = (signal: AbortSignal, send: SendEvents) => AsyncIterable<ServerSentEvent | readonly ServerSentEvent[]> | Promise<void>;

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

/** Writes the events until the producer is done or the client goes; resolves when either happened. */
export async function pipeEvents(res: Response, produce: EventProducer, heartbeatMs?: number): Promise<void> {
  const client = new AbortController();
  let gone = false;
  const onClose = () => {
    gone = true;
    client.abort();
  };
  res.once('close', onClose);
  res.flushHeaders();
  let lastWrite = performance.now();
  const heartbeat = heartbeatMs ? quietWatch(heartbeatMs, () => lastWrite, () => {
    // A comment is not an event: clients (EventSource included) ignore it.
    if (!gone) res.write(': ping\n\n');
    lastWrite = performance.now();
  }) : null;
  const send: SendEvents = (events) => {
    if (gone) return;
    // A batch is one write: one system call and one chunk for the client, however many events.
    res.write(isBatch(events) ? events.map(formatEvent).join('') : formatEvent(events));
    lastWrite = performance.now();
  };
  let iterator: AsyncIterator<ServerSentEvent | readonly ServerSentEvent[]> | undefined;
  try {
    const made = produce(client.signal, send);
    if (made instanceof Promise) await made;
    else {
      iterator = made[Symbol.asyncIterator]();
      while (!gone) {
        const next = await iterator.next();
        if (next.done || gone) break;
        send(next.value);
      }
    }
  } catch (err) {
    // A producer that stopped because the client left has nothing more to say.
    if (!gone) throw err;
  } finally {
    heartbeat?.stop();
    res.off('close', onClose);
    if (gone) await iterator?.return?.();
    else res.end();
  }
}

/**
 * Calls `onQuiet` once `quietMs` have passed since `lastWrite()`, and again after each further
 * `quietMs` of quiet. A timer that sleeps until the next possible moment instead of one moved on every
 * write: a streamed answer writes twenty times a second, and moving a timer costs more than reading
 * the clock.
 */
function quietWatch(quietMs: number, lastWrite: () => number, onQuiet: () => void): { stop(): void } {
  let timer: NodeJS.Timeout;
  const check = () => {
    const quiet = performance.now() - lastWrite();
    if (quiet >= quietMs) onQuiet();
    timer = setTimeout(check, quiet >= quietMs ? quietMs : quietMs - quiet);
  };
  timer = setTimeout(check, quietMs);
  return { stop: () => clearTimeout(timer) };
}

function isBatch(events: ServerSentEvent | readonly ServerSentEvent[]): events is readonly ServerSentEvent[] {
  return Array.isArray(events);
}

/** Field values cannot hold a line break: it would start a new field. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}
