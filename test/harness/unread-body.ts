/**
 * Requests whose body the server should answer before reading: a POST that writes its body a little
 * at a time and stops as soon as an answer arrives, so a test sees how much the client had sent.
 */
import http from 'node:http';

export interface Refusal {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the body the client had written when the answer came. */
  written: number;
}

/**
 * Sends a POST that declares `declared` bytes (or is chunked when undefined), writing `chunk` bytes at
 * a time until the answer arrives or `maxWrite` bytes were written; never ends the body itself. From
 * `localAddress` when given (another loopback address is another visitor).
 */
export function postUntilAnswered(port: number, path: string, opts: { declared?: number; chunk: number; maxWrite: number; headers?: Record<string, string>; localAddress?: string }): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', ...opts.headers };
    if (opts.declared !== undefined) headers['Content-Length'] = String(opts.declared);
    const timer = setTimeout(() => reject(new Error(`no answer after writing ${written} bytes`)), 10_000);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers, localAddress: opts.localAddress }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), written });
      });
    });
    // Once the server has answered and closed, further writes may fail; that is expected.
    req.on('error', (err) => { if (!answered) { clearTimeout(timer); reject(err); } });
    const pump = () => {
      if (answered || written >= opts.maxWrite) return;
      const size = Math.min(opts.chunk, opts.maxWrite - written);
      written += size;
      req.write(Buffer.alloc(size, 0x61), () => setTimeout(pump, 2));
    };
    req.flushHeaders();
    pump();
  });
}
