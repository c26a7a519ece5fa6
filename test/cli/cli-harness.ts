/**
 * Running the CLI in-process against a scratch database: the environment that points the
 * configuration at it, captured output, and direct reads of the rows a command wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { OpenedSite, openSite } from '../../lib/boot';
import { RunCliOptions, runCli } from '../../lib/cli';
import { Writer } from '../../lib/cli/context';
import { memoryLogger } from '../../lib/logger';
import { Clock } from '../../lib/wp/clock';
import { loadSiteConfig } from '../../lib/wp/config';
import { DbTarget, connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { SALT_CONSTANTS } from '../../lib/wp/salts';

/** Test values for the eight keys and salts a MySQL configuration requires. */
export const TEST_SALTS: Record<string, string> = Object.fromEntries(SALT_CONSTANTS.map((name) => [name, `test-${name.toLowerCase()}-0123456789abcdef`]));

/** The environment that makes loadSiteConfig() find `target` (DATABASE_URL, plus salts for MySQL). */
export function envFor(target: DbTarget, extra: Record<string, string> = {}): Record<string, string> {
  if (target.client === 'sqlite') return { DATABASE_URL: `sqlite:${target.filename}`, ...extra };
  const auth = `${encodeURIComponent(target.user)}${target.password ? `:${encodeURIComponent(target.password)}` : ''}`;
  const url = `mysql://${auth}@${target.host ?? '127.0.0.1'}:${target.port ?? 3306}/${encodeURIComponent(target.database)}`;
  return { DATABASE_URL: url, ...TEST_SALTS, ...extra };
}

/** A writer that keeps what it is given. */
export function capture(): Writer & { text(): string } {
  let out = '';
  return { write: (chunk: string) => { out += chunk; }, text: () => out };
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs one command line with `env` (nothing from the real environment leaks in). */
export async function cli(argv: string[], env: Record<string, string>, options: { cwd?: string; stdin?: string } = {}): Promise<CliRun> {
  const stdout = capture();
  const stderr = capture();
  const run: RunCliOptions = { env, cwd: options.cwd ?? scratchDir(), stdout, stderr };
  if (options.stdin !== undefined) run.stdin = Readable.from([options.stdin]);
  const status = await runCli(argv, run);
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

/** Opens the site `env` points at, as the CLI does (creating WordPress's tables on an empty database). */
export function openFor(env: Record<string, string>, clock?: Clock, cwd = scratchDir()): Promise<OpenedSite> {
  return openSite(loadSiteConfig(env, cwd), { logger: memoryLogger(), clock });
}

/** The stored `option_value` of an option, read straight from the table; undefined when there is no row. */
export async function rawOption(target: DbTarget, name: string): Promise<string | undefined> {
  const db = connect({ target, tables: new Tables({ prefix: 'wp_' }) });
  try {
    const row = await db.knex(db.tables.options).where({ option_name: name }).first('option_value');
    return row ? String(row.option_value) : undefined;
  } finally {
    await db.close();
  }
}

/** A folder of its own for a command's working directory, so nothing it writes (./data) lands in the repository. */
export function scratchDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-cli-'));
}
