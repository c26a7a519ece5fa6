/**
 * The chat suite's load generator, run as a process of its own (bench/chat.ts starts it): holds
 * `streams` conversations at once, their first questions spread evenly over `rampMs`, each asking
 * again in the same thread as soon as its answer has ended, until `durationMs`; each answer streamed
 * on a connection of its own (no keep-alive), its server-sent events read as they come. Every token carries the moment the provider wrote
 * it (bench/chat-provider.ts); the time it arrives here, minus that, is its latency on the way. Prints
 * one line, `RESULT <json>` (LoadSummary), when every stream has ended or run `deadlineMs` since it was sent.
 *
 * Input, JSON in CHAT_LOAD: {target, url, streams, rampMs, durationMs, deadlineMs, question}; target `direct` posts the OpenAI
 * request to the provider itself, `understudy` the visitor's message to POST /chat/messages (each
 * conversation from an address of its own, named in X-Forwarded-For), `php` the message to the PHP script.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { epochMs } from './chat-provider';

export interface LoadPlan {
  target: 'direct' | 'understudy' | 'php';
  url: string;
  /** Conversations at once. */
  streams: number;
  /** Over which their first questions are spread. */
  rampMs: number;
  /** Each conversation asks again when its answer has ended, until this long after the start. */
  durationMs: number;
  deadlineMs: number;
  question: string;
}

export interface LoadSummary {
  /** Answers asked for (each conversation's questions, one after another). */
  streams: number;
  /** Streams that ended with the whole answer (`[DONE]`, or Understudy's `done` event). */
  completed: number;
  /** Streams that got no first token before the deadline (queued, or refused). */
  noFirstToken: number;
  /** Streams whose answer broke off, or that answered another status than 200, by reason. */
  failures: Record<string, number>;
  /** Most streams receiving tokens at one moment. */
  peakOpen: number;
  tokens: number;
  tokensPerSecond: number;
  /** From sending the request to the answer's headers (Understudy: the message stored), ms. */
  headers: Percentiles;
  /** From sending the request to the first token, ms. */
  firstToken: Percentiles;
  /** From the provider writing a token to its arrival here, ms. */
  perToken: Percentiles;
  /** This process's CPU time over the run (user and system), ms: what the client side costs the machine. */
  cpuMs: number;
}

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

const TOKEN = / w(\d+)@(\d+\.\d+)/g;
const EVENT_NAME = /^event: (.*)$/m;
/** The end of a whole answer: the provider's `[DONE]` or Understudy's `done`. */
const END = /^data: \[DONE\]$|^event: done$/m;

export function percentiles(values: number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN, n: sorted.length };
}

/** Each conversation's thread and the token it chose (so that its next question may follow in the same thread). */
const threads = new Map<number, { thread: string; token: string }>();

function request(plan: LoadPlan, n: number): { path: string; headers: Record<string, string>; body: string } {
  if (plan.target === 'direct') {
    return { path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: plan.question }] }) };
  }
  if (!threads.has(n)) threads.set(n, { thread: randomUUID(), token: `bench-${randomUUID()}` });
  const body = JSON.stringify({ message: plan.question, ...threads.get(n), stream: true });
  if (plan.target === 'php') return { path: '/chat.php', headers: {}, body };
  // A visitor of its own per conversation: the per-address limit (60 in 10 minutes) stays as shipped.
  return { path: '/wp-json/support/v1/chat/messages', headers: { 'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }, body };
}

async function run(plan: LoadPlan): Promise<LoadSummary> {
  const cpuBefore = process.cpuUsage();
  const firstTokens: number[] = [];
  const headerTimes: number[] = [];
  const perToken: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (why: string) => { failures[why] = (failures[why] ?? 0) + 1; };
  let completed = 0;
  let noFirstToken = 0;
  let open = 0;
  let peakOpen = 0;
  let firstArrival = Infinity;
  let lastArrival = 0;
  const started = epochMs();
  const url = new URL(plan.url);

  const one = (n: number) => new Promise<void>((resolve) => {
    const { path, headers, body } = request(plan, n);
    const sent = epochMs();
    let tokens = 0;
    let carry = '';
    let answered = false;
    let ended = false;
    let timedOut = false;
    const finish = (why: string | null) => {
      if (ended) return;
      ended = true;
      const outcome = timedOut ? 'deadline' : why;
      if (tokens > 0) open--;
      if (tokens === 0) noFirstToken++;
      if (outcome) fail(outcome);
      else if (answered) completed++;
      else fail('ended early');
      clearTimeout(deadline);
      resolve();
    };
    const req = http.request({
      host: url.hostname, port: url.port, path, method: 'POST', agent: false,
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' },
    }, (res) => {
      headerTimes.push(epochMs() - sent);
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', () => finish(`HTTP ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const now = epochMs();
        const whole = carry + text;
        const cut = whole.lastIndexOf('\n\n');
        carry = cut < 0 ? whole : whole.slice(cut + 2);
        for (const event of cut < 0 ? [] : whole.slice(0, cut).split('\n\n')) {
          if (END.test(event)) answered = true;
          // Tokens only from the pieces of the answer (the provider's unnamed events, Understudy's
          // `delta`): Understudy's `done` repeats the whole text.
          const name = EVENT_NAME.exec(event)?.[1];
          if (name !== undefined && name !== 'delta') continue;
          for (const match of event.matchAll(TOKEN)) {
            if (tokens++ === 0) {
              firstTokens.push(now - sent);
              if (++open > peakOpen) peakOpen = open;
            }
            perToken.push(now - Number(match[2]));
            if (now < firstArrival) firstArrival = now;
            lastArrival = now;
          }
        }
      });
      res.on('end', () => finish(null));
      res.on('error', () => finish('broken'));
      res.on('close', () => finish('broken'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' && tokens > 0 ? 'broken' : (err.code ?? 'error')));
    const deadline = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, plan.deadlineMs);
    req.end(body);
  });

  let asked = 0;
  const conversation = async (n: number) => {
    do {
      asked++;
      await one(n);
    } while (epochMs() - started < plan.durationMs);
  };
  const all: Promise<void>[] = [];
  for (let n = 0; n < plan.streams; n++) {
    const due = started + (plan.rampMs * n) / plan.streams;
    const wait = due - epochMs();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    all.push(conversation(n));
  }
  await Promise.all(all);
  return {
    streams: asked, completed, noFirstToken, failures, peakOpen, tokens: perToken.length,
    tokensPerSecond: perToken.length / Math.max((lastArrival - firstArrival) / 1000, 1e-3),
    headers: percentiles(headerTimes), firstToken: percentiles(firstTokens), perToken: percentiles(perToken),
    cpuMs: ((({ user, system }) => user + system)(process.cpuUsage(cpuBefore))) / 1000,
  };
}

if (require.main === module) {
  run(JSON.parse(process.env.CHAT_LOAD as string) as LoadPlan).then((summary) => {
    process.stdout.write(`RESULT ${JSON.stringify(summary)}\n`);
    process.exit(0);
  }, (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
