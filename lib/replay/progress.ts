/**
 * Progress of a long run on stderr: a bar redrawn in place on a terminal; on anything else (CI logs,
 * files) plain counter lines, about one per tenth of the run, so logs stay short.
 */

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  tick(label: string, ok: boolean): void;
  done(): void;
}

const BAR_WIDTH = 24;

export function createProgress(stream: ProgressStream, total: number, title = 'replay'): Progress {
  return stream.isTTY ? ttyProgress(stream, total, title) : lineProgress(stream, total, title);
}

function ttyProgress(stream: ProgressStream, total: number, title: string): Progress {
  let done = 0;
  let problems = 0;
  const draw = (label: string) => {
    const filled = total ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH;
    const head = `${title} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}${problems ? ` (${problems} not matching)` : ''} `;
    const room = Math.max(0, (stream.columns ?? 80) - head.length - 1);
    // \r returns to the line start, \x1b[K clears what a longer previous label left behind.
    stream.write(`\r${head}${label.slice(0, room)}\x1b[K`);
  };
  return {
    tick(label, ok) {
      done++;
      if (!ok) problems++;
      draw(label);
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}

function lineProgress(stream: ProgressStream, total: number, title: string): Progress {
  let done = 0;
  let problems = 0;
  const step = Math.max(1, Math.ceil(total / 10));
  return {
    tick(_label, ok) {
      done++;
      if (!ok) problems++;
      if (done % step === 0 || done === total) stream.write(`${title}: ${done}/${total} sent, ${problems} not matching\n`);
    },
    done() {},
  };
}
