/** A small leveled logger: one line per event, JSON fields after the message. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function consoleLogger(stream: NodeJS.WritableStream = process.stderr): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
    stream.write(`${new Date().toISOString()} ${level} ${message}${extra}\n`);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** pino's numeric levels, as the request log lines (lib/observability/request-log.ts) carry them. */
const PINO_LEVELS = { info: 30, warn: 40, error: 50 } as const;

/**
 * One JSON line per event in the request logs' shape (`level`, `time`, `pid`, the fields, `msg`), so
 * that in LOG_FORMAT=json every line a server writes on stderr is JSON, start-up and shutdown too.
 */
export function jsonLogger(stream: NodeJS.WritableStream = process.stderr): Logger {
  const write = (level: keyof typeof PINO_LEVELS, message: string, fields?: Record<string, unknown>) => {
    stream.write(`${JSON.stringify({ level: PINO_LEVELS[level], time: new Date().toISOString(), pid: process.pid, ...fields, msg: message })}\n`);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** A server process's logger in its LOG_FORMAT: JSON lines, or readable lines for a terminal. */
export function serverLogger(stream: NodeJS.WritableStream, format: 'json' | 'pretty'): Logger {
  return format === 'json' ? jsonLogger(stream) : consoleLogger(stream);
}

/** A logger that adds `fields` to every line (a site of a network: its `blog_id`). */
export function withFields(logger: Logger, fields: Record<string, unknown>): Logger {
  return {
    info: (m, f) => logger.info(m, { ...fields, ...f }),
    warn: (m, f) => logger.warn(m, { ...fields, ...f }),
    error: (m, f) => logger.error(m, { ...fields, ...f }),
  };
}

/** A logger that keeps what it is told, for tests and quiet commands. */
export function memoryLogger(): Logger & { lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  return {
    lines,
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
}
