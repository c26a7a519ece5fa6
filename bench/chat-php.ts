/**
 * The chat suite's PHP side: Debian's php-fpm and nginx, each a child process with its own
 * configuration in a temporary folder (no system configuration read or touched), serving
 * bench/chat-php/chat.php, which streams the provider's answer through (curl, each chunk flushed).
 * nginx passes the stream unbuffered (`fastcgi_buffering off`, as `X-Accel-Buffering: no` asks).
 *
 * PHP-FPM's pool is `pm = static` with `workers` children (default 10: 5 per core on this 2-core
 * machine, a usual production size); a stream holds its worker to the end, and requests beyond the
 * workers wait in the socket's backlog, as on a production site.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT, freePort } from './harness';

export interface PhpStack {
  url: string;
  workers: number;
  /** The pids of php-fpm's master and nginx's master (their children's CPU and memory count with them). */
  pids: number[];
  stop(): Promise<void>;
}

const binary = (candidates: string[]) => candidates.find((c) => fs.existsSync(c)) ?? null;

/** What is missing to run the PHP side, or null. */
export function phpStackMissing(): string | null {
  if (!phpFpmBinary()) return 'php-fpm (Debian: apt-get install php-fpm php-curl)';
  if (!binary(['/usr/sbin/nginx', '/usr/local/sbin/nginx'])) return 'nginx (Debian: apt-get install nginx)';
  return null;
}

function phpFpmBinary(): string | null {
  const sbin = fs.existsSync('/usr/sbin') ? fs.readdirSync('/usr/sbin').filter((f) => /^php-fpm[\d.]*$/.test(f)).sort() : [];
  return sbin.length ? path.join('/usr/sbin', sbin[sbin.length - 1] as string) : null;
}

export async function startPhpStack(providerUrl: string, workers: number): Promise<PhpStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-chat-php-'));
  fs.chmodSync(dir, 0o755);
  const socket = path.join(dir, 'php-fpm.sock');
  fs.writeFileSync(path.join(dir, 'php-fpm.conf'), `
[global]
pid = ${dir}/php-fpm.pid
error_log = ${dir}/php-fpm.log
daemonize = no
[chat]
listen = ${socket}
listen.backlog = 4096
pm = static
pm.max_children = ${workers}
request_terminate_timeout = 0
php_admin_value[output_buffering] = 0
php_admin_flag[zlib.output_compression] = off
php_admin_value[max_execution_time] = 0
`);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 2;
worker_rlimit_nofile 16384;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((n) => `${n}_temp_path ${dir}/${n};`).join('\n  ')}
  server {
    listen 127.0.0.1:${port} backlog=4096;
    location = /chat.php {
      fastcgi_pass unix:${socket};
      fastcgi_buffering off;
      fastcgi_read_timeout 120s;
      fastcgi_param SCRIPT_FILENAME ${path.join(ROOT, 'bench/chat-php/chat.php')};
      fastcgi_param REQUEST_METHOD $request_method;
      fastcgi_param CONTENT_TYPE $content_type;
      fastcgi_param CONTENT_LENGTH $content_length;
      fastcgi_param SERVER_PROTOCOL $server_protocol;
      fastcgi_param PROVIDER_URL ${providerUrl};
    }
  }
}
`);
  const fpm = spawn(phpFpmBinary() as string, ['--nodaemonize', '--allow-to-run-as-root', '--fpm-config', path.join(dir, 'php-fpm.conf')], { stdio: 'ignore' });
  await waitFor(() => fs.existsSync(socket), () => fpm.exitCode !== null, () => `php-fpm did not start: ${read(path.join(dir, 'php-fpm.log'))}`);
  const nginx = spawn(binary(['/usr/sbin/nginx', '/usr/local/sbin/nginx']) as string, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'nginx-error.log')], { stdio: 'ignore' });
  await waitFor(() => portOpen(port), () => nginx.exitCode !== null, () => `nginx did not start: ${read(path.join(dir, 'nginx-error.log'))}`);
  return {
    url: `http://127.0.0.1:${port}`,
    workers,
    pids: [fpm.pid as number, nginx.pid as number],
    async stop() {
      await Promise.all([stopChild(nginx, 'SIGQUIT'), stopChild(fpm, 'SIGQUIT')]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function read(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

async function waitFor(ready: () => boolean | Promise<boolean>, failed: () => boolean, why: () => string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (failed()) throw new Error(why());
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(why());
}
