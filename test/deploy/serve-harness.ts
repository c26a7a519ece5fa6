/** `understudy serve` started in-process for deployment tests, stopped through its abort signal. */
import { runCli } from '../../lib/cli';
import { capture, scratchDir } from '../cli/cli-harness';

export interface StartedServe {
  url: string;
  stdout: ReturnType<typeof capture>;
  stderr: ReturnType<typeof capture>;
  stop(): Promise<number>;
}

/** Starts `serve` (or `proxy`) and waits for its start-up line; fails if the command ends first. */
export async function startServe(argv: string[], env: Record<string, string>): Promise<StartedServe> {
  const stdout = capture();
  const stderr = capture();
  const controller = new AbortController();
  const done = runCli(argv, { env, cwd: scratchDir(), stdout, stderr, signal: controller.signal });
  let finished = false;
  void done.finally(() => { finished = true; });
  for (let waited = 0; waited < 20_000; waited += 20) {
    const match = / is serving .* at (http:\/\/[^\s"]+)/.exec(stderr.text());
    if (match) return { url: match[1] as string, stdout, stderr, stop: () => { controller.abort(); return done; } };
    if (finished) throw new Error(`${argv[0]} ended before listening (status ${await done}): ${stderr.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  await done;
  throw new Error(`${argv[0]} did not start: ${stderr.text()}`);
}

/** The request-log records (JSON lines) in a process's stderr. */
export function requestRecords(stderr: string): Array<Record<string, unknown>> {
  return stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === 'request');
}

/** A process's log as text, one message a line: each JSON line's `msg` (LOG_FORMAT=json), other lines as they are. */
export function logMessages(stderr: string): string {
  return stderr.split('\n').map((l) => (l.startsWith('{') ? String((JSON.parse(l) as { msg?: unknown }).msg ?? '') : l)).join('\n');
}
