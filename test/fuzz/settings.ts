/**
 * How much the fuzz suite runs. In `npm test` (CI) every property runs a modest number of times with a
 * fixed seed, so a failure is the same on every machine. `npm run fuzz` sets FUZZ_LONG=1: the same
 * properties with their long counts and a random seed, printed at the start so a failure can be
 * replayed with FUZZ_SEED=<seed>. FUZZ_RUNS=<n> runs every property n times instead.
 *
 * fast-check's own report of a failure names the seed and the shrunk counterexample's path; with
 * FUZZ_SEED and the same counts the run is repeated exactly.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';

export const LONG = process.env.FUZZ_LONG === '1';
const fixedSeed = 20260521;
export const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : LONG ? Math.floor(Math.random() * 2 ** 31) : fixedSeed;
const forcedRuns = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;

if (!Number.isInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);
if (forcedRuns !== undefined && !(Number.isInteger(forcedRuns) && forcedRuns > 0)) throw new Error(`FUZZ_RUNS must be a positive integer, got ${process.env.FUZZ_RUNS}`);

/** Runs of one property: its CI count, its long count under `npm run fuzz`, or FUZZ_RUNS. */
export function runs(ci: number, long: number): number {
  return forcedRuns ?? (LONG ? long : ci);
}

/**
 * fast-check parameters for one property. FUZZ_PATH (the `path` of fast-check's failure report, with
 * the same FUZZ_SEED and counts, and mocha's -g naming the one test) replays just that counterexample.
 */
export function params<T>(ci: number, long: number): fc.Parameters<T> {
  const replay = process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {};
  return { seed: SEED, numRuns: runs(ci, long), endOnFailure: false, ...replay };
}

/** Mocha timeout for a test running one property: generous in the long mode. */
export function testTimeout(ciMs: number): number {
  return LONG || forcedRuns !== undefined ? 0 : ciMs;
}

/**
 * Gives a generated value the description fast-check prints when a property fails, so that a
 * counterexample of megabytes is reported by its length and its start, not in full.
 */
export function shown<T extends object>(value: T, description: string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => description, enumerable: false });
  return value;
}

/** A text's length and its first characters, JSON-quoted. */
export function preview(text: string, chars = 300): string {
  return `(${text.length} chars) ${JSON.stringify(text.slice(0, chars))}${text.length > chars ? '…' : ''}`;
}

/** The fastest of three runs, in milliseconds. */
function fastest(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Fails when `large` (16 times the input of `small`) takes more than 64 times as long, plus 25 ms:
 * linear work takes about 16 times, quadratic about 256. A machine busy with other work can slow one
 * measurement down, so a pair that looks too slow is measured again, up to three times, before failing.
 */
export function assertAboutLinear(what: string, small: () => unknown, large: () => unknown): void {
  let report = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const tSmall = fastest(small);
    const tLarge = fastest(large);
    if (tLarge <= 64 * tSmall + 25) return;
    report += ` ${tSmall.toFixed(2)} ms then ${tLarge.toFixed(2)} ms;`;
  }
  assert.fail(`${what}: 16 times the input took far more than 16 times as long:${report}`);
}

/**
 * Fails when `other` takes more than `factor` times as long as `baseline`, plus 5 ms, both run on
 * inputs of the same size: for work that is linear but may still cost far more per byte of one kind
 * than of another. Each is the fastest of three runs, and a pair that looks too slow is measured
 * again, up to three times, before failing.
 */
export function assertAboutAsFast(what: string, factor: number, baseline: () => unknown, other: () => unknown): void {
  let report = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const tBaseline = fastest(baseline);
    const tOther = fastest(other);
    if (tOther <= factor * tBaseline + 5) return;
    report += ` ${tBaseline.toFixed(2)} ms then ${tOther.toFixed(2)} ms;`;
  }
  assert.fail(`${what}: took more than ${factor} times as long as the baseline:${report}`);
}

/** How long one request or message may take to be answered before it counts as a hang. */
export const ANSWER_WITHIN_MS = 10_000;

/** What the suite sent and saw, printed at the end of a long run. */
export const tally = {
  requests: 0,
  messages: 0,
  serverErrors: 0,
  /** Requests the server never answered (connection reset or closed without a status line). */
  crashes: 0,
  hangs: 0,
};

const started = Date.now();
if (LONG || process.env.FUZZ_SEED || forcedRuns !== undefined) {
  console.log(`fuzz: seed ${SEED}${forcedRuns !== undefined ? `, ${forcedRuns} runs per property` : LONG ? ', long counts' : ''} (replay with FUZZ_SEED=${SEED})`);
  process.on('exit', () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`fuzz: seed ${SEED}: ${tally.requests} requests, ${tally.messages} messages, ${tally.serverErrors} answers 5xx, `
      + `${tally.crashes} unanswered, ${tally.hangs} hangs, ${seconds} s`);
  });
}
