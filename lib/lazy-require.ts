/**
 * A module required on first use instead of at start-up. The server loads every route when it
 * starts, so a library that only some requests need (reading and sending mail, markdown, feeds)
 * would otherwise sit in every process's memory whether it is used or not: mailparser with its
 * charset tables is about 20 MB of RSS (docs/performance.md "Memory").
 */
export function lazyRequire<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
