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
