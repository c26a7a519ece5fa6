/**
 * Real nginx for deployment tests: Debian's binary run as a child process with its own prefix, pid
 * file, logs and temp folders in a temporary directory (no system configuration read or touched),
 * TLS from a self-signed certificate made here with the openssl CLI.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The nginx binary, or null (the tests then skip, saying why). */
export function nginxBinary(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) if (fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export interface RunningNginx {
  url: string;
  port: number;
  /** The certificate, to trust in requests. */
  ca: string;
  errorLog(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts nginx on 127.0.0.1 with TLS; `http` and `server` are the generated parts, `site` the site's
 * own locations. `fallback`: the body of a default server on the same port, answering for every
 * host the site's server_name does not list.
 */
export async function startNginx(binary: string, parts: { http: string; server: string; site: string; fallback?: string }): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-nginx-'));
  fs.chmodSync(dir, 0o755);
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ], { stdio: 'ignore' });
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} info;
events { worker_connections 256; }
http {
  access_log ${path.join(dir, 'access.log')};
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${indent(parts.http, 2)}
  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${path.join(dir, 'cert.pem')};
    ssl_certificate_key ${path.join(dir, 'key.pem')};
${indent(parts.server, 4)}
${indent(parts.site, 4)}
  }
${parts.fallback === undefined ? '' : `  server {
    listen 127.0.0.1:${port} ssl default_server;
    ssl_certificate ${path.join(dir, 'cert.pem')};
    ssl_certificate_key ${path.join(dir, 'key.pem')};
${indent(parts.fallback, 4)}
  }`}
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const errorLog = () => (fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '');
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, () => child.exitCode !== null, () => `nginx did not start: ${stderr}\n${errorLog()}`);
  return {
    url: `https://localhost:${port}`,
    port,
    ca: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    errorLog,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, failed: () => boolean, why: () => string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (failed()) throw new Error(why());
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(why());
}

function indent(text: string, spaces: number): string {
  return text.split('\n').map((line) => (line ? ' '.repeat(spaces) + line : line)).join('\n');
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTPS request through nginx, from the loopback address `from` (a visitor of its own). */
export function visit(nginx: RunningNginx, pathAndQuery: string, options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: nginx.port, servername: 'localhost', ca: nginx.ca, path: pathAndQuery, method: options.method ?? 'GET',
      headers: { Host: `localhost:${nginx.port}`, ...options.headers }, localAddress: options.from ?? '127.0.0.2', agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
