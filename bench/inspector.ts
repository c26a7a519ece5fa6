/**
 * A served process's memory after full garbage collections, read through its inspector (the server
 * started with `--inspect=127.0.0.1:<port>`): what stays held, rather than what V8 has not collected
 * yet. Node 20 has its WebSocket client behind a flag, so a short child process of its own talks to
 * the inspector (HeapProfiler.collectGarbage twice, then process.memoryUsage() in the server).
 */
import { execFile } from 'node:child_process';

export interface HeldMemory {
  /** Resident memory, V8's heap in use, and memory outside it (buffers, typed arrays), in MB. */
  rssMb: number;
  heapMb: number;
  externalMb: number;
}

const PROBE = `
const port = process.argv[1];
const [target] = await (await fetch('http://127.0.0.1:' + port + '/json/list')).json();
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
let id = 0;
const call = (method, params = {}) => new Promise((resolve) => {
  const mine = ++id;
  ws.addEventListener('message', (event) => { const m = JSON.parse(event.data); if (m.id === mine) resolve(m.result); });
  ws.send(JSON.stringify({ id: mine, method, params }));
});
await call('HeapProfiler.collectGarbage');
await call('HeapProfiler.collectGarbage');
const answer = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())' });
ws.close();
process.stdout.write(answer.result.value);
`;

/** Collects the garbage of the process whose inspector listens on `port`, then reads its memory. */
export function heldMemory(port: number): Promise<HeldMemory> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--experimental-websocket', '--no-warnings', '--input-type=module', '-e', PROBE, String(port)], (err, stdout) => {
      if (err) return reject(err);
      const used = JSON.parse(stdout) as NodeJS.MemoryUsage;
      const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
      resolve({ rssMb: mb(used.rss), heapMb: mb(used.heapUsed), externalMb: mb(used.external) });
    });
  });
}
