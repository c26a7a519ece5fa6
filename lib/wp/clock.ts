/** The time source every time-dependent check takes, so tests can pin "now" (nonces, cookies, rate limits). */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock fixed at `ms` that tests can move by hand. */
export function fixedClock(ms: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let current = ms;
  return {
    now: () => current,
    set: (next: number) => { current = next; },
    advance: (delta: number) => { current += delta; },
  };
}

/** Whole seconds, as PHP's time() gives them. */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
