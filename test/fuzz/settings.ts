/**
 * How much the fuzz suite runs. In `npm test` (CI) every property runs a modest number of times with a
 * fixed seed, so a failure is the same on every machine. `npm run fuzz` sets FUZZ_LONG=1: the same
 * properties with their long counts and a random seed, printed at the start so a failure can be
 * replayed with FUZZ_SEED=<seed>. FUZZ_RUNS=<n> runs every property n times instead.
 *
 * fast-check's own report of a failure names the seed and the shrunk counterexample's path; with
 * FUZZ_SEED and the same counts the run is repeated exactly.
 */
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

/** fast-check parameters for one property. */
export function params<T>(ci: number, long: number): fc.Parameters<T> {
  return { seed: SEED, numRuns: runs(ci, long), endOnFailure: false };
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
