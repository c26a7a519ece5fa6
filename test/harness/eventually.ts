/** Polls `check` until it passes; fails if that takes longer than `withinMs`. Returns the elapsed time. */
export async function eventually(check: () => Promise<boolean>, withinMs: number, everyMs = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`not observed within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
