/**
 * What every command gets: the environment and working folder it reads its configuration from, and
 * where it writes. Output goes through these writers (never straight to process.stdout) so tests can
 * run the CLI in-process and read what it printed. Messages follow WP-CLI: `Success: …` on stdout,
 * `Warning: …` and `Error: …` on stderr.
 */
import { Readable } from 'node:stream';
import { Logger } from '../logger';
import { OpenedSite, openSite } from '../boot';
import { seedDemoSite } from '../demo/seed';
import { SiteConfig, configOfBlog, loadServerConfig } from '../wp/config';

/** Anything text can be written to (a process stream, or a buffer in tests). */
export interface Writer {
  write(text: string): unknown;
}

export interface CliContext {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: Writer;
  stderr: Writer;
  /** Where `option update` and `option patch` read a value that is not on the command line. */
  stdin?: Readable & { isTTY?: boolean };
  /** Stops `serve` when aborted (tests); without it `serve` stops on SIGINT or SIGTERM. */
  signal?: AbortSignal;
  /** The blog of the network `--url` named (site-address.ts); it wins over WP_BLOG_ID. */
  blogId?: number;
}

/** Prints a line on stdout. */
export function line(ctx: CliContext, text: string): void {
  ctx.stdout.write(`${text}\n`);
}

/** WP-CLI's `Success: …` line. */
export function success(ctx: CliContext, message: string): void {
  line(ctx, `Success: ${message}`);
}

/** WP-CLI's `Warning: …` line (stderr). */
export function warning(ctx: CliContext, message: string): void {
  ctx.stderr.write(`Warning: ${message}\n`);
}

/** A logger for one-shot commands: start-up chatter is dropped, warnings and errors go to stderr. */
export function commandLogger(ctx: CliContext): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
    ctx.stderr.write(`${level}: ${message}${extra}\n`);
  };
  return { info: () => undefined, warn: write('Warning'), error: write('Error') };
}

export interface OpenOptions {
  logger: Logger;
  /** The address a freshly created site gets as siteurl/home. */
  siteUrl?: string;
}

/**
 * Opens the configured site as the server would (the blog `--url` named, if any), and seeds the demo
 * site when this call created the embedded default database. Every command goes through here, so
 * whichever command runs first on a fresh checkout, the embedded site ends up with the demo content.
 */
export async function openConfiguredSite(ctx: CliContext, config: SiteConfig, options: OpenOptions): Promise<OpenedSite> {
  const siteUrl = options.siteUrl ?? defaultSiteUrl(ctx);
  const opened = await openSite(ctx.blogId === undefined ? config : configOfBlog(config, ctx.blogId), { logger: options.logger, siteUrl });
  if (config.seedDemo && opened.installed) {
    try {
      await seedDemoSite(opened.site);
    } catch (err) {
      await opened.site.close();
      throw err;
    }
  }
  return opened;
}

/** Runs `work` on the opened site and always closes the database afterwards. */
export async function withSite<T>(ctx: CliContext, config: SiteConfig, work: (opened: OpenedSite) => Promise<T>): Promise<T> {
  const opened = await openConfiguredSite(ctx, config, { logger: commandLogger(ctx) });
  try {
    return await work(opened);
  } finally {
    await opened.site.close();
  }
}

/** The URL `serve` would listen on with this environment (used as siteurl when a command creates the site). */
function defaultSiteUrl(ctx: CliContext): string {
  const { host, port } = loadServerConfig(ctx.env);
  return `http://${displayHost(host)}:${port}`;
}

/** A host as it goes into a URL: wildcard addresses become the loopback address, IPv6 gets brackets. */
export function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Everything on stdin, when stdin is a pipe or file (never waits on a terminal); undefined otherwise. */
export async function readStdin(ctx: CliContext): Promise<string | undefined> {
  const stdin = ctx.stdin;
  if (!stdin || stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
