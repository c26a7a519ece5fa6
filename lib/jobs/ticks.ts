/**
 * The worker's two clocks: a tick every second, and a run at one minute of every hour. Plain timers
 * instead of a cron library: node-cron reads the time of every tick through Intl.DateTimeFormat,
 * which pages in about 7 MB of the Node binary's ICU data in every serving process
 * (docs/performance.md, "Memory of a serving process").
 */

/** Stops a tick; what it started and is still running is left to finish. */
export type StopTick = () => void;

/** Calls `tick` every `ms` until stopped. */
export function everyMs(ms: number, tick: () => void): StopTick {
  const timer = setInterval(tick, ms);
  return () => clearInterval(timer);
}

/**
 * Runs `run` at second 0 of minute `minute` of every hour of local time (where cron's `<minute> * * * *`
 * would), a run never overlapping the one before: the next is timed once it has finished.
 */
export function hourlyAt(minute: number, run: () => Promise<void>): StopTick {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    const now = Date.now();
    timer = setTimeout(() => {
      void run().finally(() => {
        if (!stopped) next();
      });
    }, nextMinuteOfHour(minute, now) - now);
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** The first instant after `now` (ms) at second 0 of minute `minute` of a local hour. */
export function nextMinuteOfHour(minute: number, now: number): number {
  // Minute by minute, so a zone whose offset is not a whole number of hours is read right too.
  let at = Math.floor(now / 60_000) * 60_000 + 60_000;
  while (new Date(at).getMinutes() !== minute) at += 60_000;
  return at;
}
