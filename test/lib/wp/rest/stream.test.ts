/**
 * Server-sent events from a REST route: each event reaches the client as soon as it is produced,
 * in the text/event-stream format, and a client that hangs up stops the producer.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { eventually } from '../../../harness/eventually';
import { EVENT_GATE, servedSampleOracle } from '../../../harness/sample-routes';

/** Opens the stream; `received` grows as chunks arrive, `receivedAt` with the moment each arrived. */
function openStream(port: number, count: number, query = ''): { received: string[]; receivedAt: number[]; response: Promise<http.IncomingMessage>; ended: Promise<void>; abort(): void } {
  const received: string[] = [];
  const receivedAt: number[] = [];
  let abort = () => {};
  let onEnd = () => {};
  const ended = new Promise<void>((resolve) => { onEnd = resolve; });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: `/wp-json/test/v1/stream?count=${count}${query}`, headers: { Origin: 'https://shop.example' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        received.push(chunk);
        receivedAt.push(performance.now());
      });
      res.on('end', onEnd);
      res.on('error', () => onEnd());
      resolve(res);
    });
    req.on('error', (err) => { if (!req.destroyed) reject(err); onEnd(); });
    abort = () => req.destroy();
  });
  return { received, receivedAt, response, ended, abort };
}

describe('event streams (StreamResponse)', function () {
  const served = servedSampleOracle();

  it('sends each event as it is produced, with the event-stream headers', async () => {
    const stream = openStream(served.port, 3);
    const res = await stream.response;
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=UTF-8');
    assert.equal(res.headers['cache-control'], 'no-cache, no-store');
    assert.equal(res.headers['x-accel-buffering'], 'no');
    assert.equal(res.headers['access-control-allow-origin'], 'https://shop.example');
    // The first event arrives while the producer still waits for the second.
    await eventually(async () => stream.received.join('').includes('event: first\ndata: {"n":0}\n\n'), 2000);
    assert.equal(EVENT_GATE.waiting.length, 1);
    EVENT_GATE.release();
    await eventually(async () => stream.received.join('').includes('id: 1\ndata: line 1\ndata: second line\n\n'), 2000);
    EVENT_GATE.release();
    await stream.ended;
    assert.ok(stream.received.join('').endsWith('event: done\ndata: {}\n\n'));
  });

  it('closes the producer when the client goes away', async () => {
    const closedBefore = EVENT_GATE.closed;
    const stream = openStream(served.port, 5);
    await eventually(async () => stream.received.length > 0 && EVENT_GATE.waiting.length === 1, 2000);
    stream.abort();
    await eventually(async () => EVENT_GATE.closed === closedBefore + 1, 2000);
    EVENT_GATE.release();
  });

  it('writes a heartbeat comment only after the heartbeat interval without output', async () => {
    const stream = openStream(served.port, 12, '&heartbeat=200');
    const pings = () => stream.received.filter((chunk) => chunk.includes(': ping')).length;
    await eventually(async () => EVENT_GATE.waiting.length === 1, 2000);
    // An event every 40 ms or so, then quiet until two comments have come.
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      EVENT_GATE.release();
      await eventually(async () => EVENT_GATE.waiting.length === 1, 2000);
    }
    await eventually(async () => pings() === 2, 3000);
    // Each comment came after a quiet spell of the heartbeat's length (less this process's own jitter):
    // a timer that ignored the writes would have put some among the events, tens of ms after one.
    stream.received.forEach((chunk, i) => {
      if (!chunk.includes(': ping') || i === 0) return;
      const quiet = (stream.receivedAt[i] as number) - (stream.receivedAt[i - 1] as number);
      assert.ok(quiet >= 150, `a comment after ${Math.round(quiet)} ms of quiet: ${JSON.stringify(stream.received)}`);
    });
    EVENT_GATE.release();
    await stream.ended;
  });
});
