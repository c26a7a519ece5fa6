/**
 * `understudy replay <capture> --target=<url>`: sends every captured request to the target, compares
 * the answers with the captured ones and reports per route. Exit status 1 when anything differed or
 * failed, so the command can gate CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSurface } from '../app';
import { parseCapture } from '../replay/capture';
import { CredentialSubstitution } from '../replay/credentials';
import { createProgress } from '../replay/progress';
import { htmlReport } from '../replay/report/html';
import { jsonReport } from '../replay/report/json';
import { textReport } from '../replay/report/text';
import { routeKeyOf } from '../replay/route-key';
import { compileRules, loadRules } from '../replay/rules';
import { runReplay } from '../replay/runner';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext } from './context';

export const REPLAY_HELP = `usage: understudy replay <capture> --target=<url> [--rules=<file>] [--format=text|json] [--html=<file>]
                         [--credential=<type>:<captured>=><replacement>]... [--credentials=<file>]
                         [--timeout=<ms>] [--network]

Sends every request of <capture> (HAR 1.2, or Understudy's JSON capture format; or a folder of
them, such as an 'understudy proxy --record' recording, read in file name order) to --target and
compares each answer with the captured one: status, significant headers, and the decoded body, after
the rules (--rules; WordPress defaults otherwise, see docs/replay-and-proxy.md).

  --format=json     print the report as JSON on stdout instead of text (also --json)
  --html=<file>     also write a self-contained HTML report
  --credential      replace a captured credential; <type> is basic (login:password), cookie,
                    nonce, header:<Name>, or identity (a recording's placeholder). Repeatable:
                    --credential='basic:agent1:CAPTURED PASS=>agent1:STAGING PASS'
                    --credential='identity:<basic:agent1>=>agent1:STAGING PASS'
  --credentials     a JSON file holding a list of such substitutions (see the rules format)
  --timeout         milliseconds to wait for each answer (default 30000)
  --network         the capture is of a WordPress network and --target serves that network (PHP, or
                    'understudy serve' with MULTISITE on and no WP_BLOG_ID): each exchange is sent
                    with the Host it was captured with, so its Host and path pick the site, and
                    /<site>/wp-json/... is grouped as that site's REST route

Credentials are never printed. Progress goes to stderr. Exit status: 0 when every exchange
matched (or was excluded), 1 otherwise.
`;

const FLAGS = { target: 'string', rules: 'string', format: 'string', html: 'string', credentials: 'string', timeout: 'string', network: 'boolean' } as const;

export async function replayCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const { credentials: cliCredentials, rest } = takeCredentialFlags(argv);
  const args = parseCommandArgs(rest, FLAGS);
  const [captureFile, ...extra] = args.positional;
  if (!captureFile || extra.length) throw new CliError('Usage: understudy replay <capture> --target=<url> (see understudy help replay)');
  const target = stringFlag(args, 'target');
  if (!target || !/^https?:\/\/[^/]/.test(target)) throw new CliError('--target must be the URL of the site to replay against, e.g. --target=http://127.0.0.1:8080');
  const format = choiceFlag(args, 'format', ['text', 'json'], 'text');

  const exchanges = captureOf(ctx, captureFile);
  const rules = loadRules(resolve(ctx, stringFlag(args, 'rules')));
  const fileCredentials = stringFlag(args, 'credentials');
  if (fileCredentials) rules.credentials.push(...credentialsFile(ctx, fileCredentials));
  rules.credentials.push(...cliCredentials);

  const network = args.flags.network === true;
  if (!network && exchanges.some((e) => e.blogId !== undefined)) {
    ctx.stderr.write('This capture was recorded in front of a network: without --network the target sees its own host name, not each site\'s.\n');
  }
  const { rest: registry } = buildSurface();
  const progress = createProgress(ctx.stderr, exchanges.length);
  const report = await runReplay(exchanges, {
    target, rules, network, timeoutMs: timeoutOf(stringFlag(args, 'timeout')),
    routeOf: (t) => routeKeyOf(t, registry),
    onResult: (result) => progress.tick(result.name, result.outcome === 'matched' || result.outcome === 'excluded'),
  });
  progress.done();

  ctx.stdout.write(format === 'json' ? jsonReport(report) : textReport(report));
  const html = stringFlag(args, 'html');
  if (html) {
    fs.writeFileSync(resolve(ctx, html) as string, htmlReport(report));
    ctx.stderr.write(`HTML report written to ${html}\n`);
  }
  return report.totals.differed + report.totals.failed > 0 ? 1 : 0;
}

/**
 * Pulls out every `--credential` (the argument parser keeps only the last of a repeated flag).
 * The value's type prefix and the `=>` separator keep logins, passwords and cookies unambiguous.
 */
export function takeCredentialFlags(argv: readonly string[]): { credentials: CredentialSubstitution[]; rest: string[] } {
  const credentials: CredentialSubstitution[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--credential' && i + 1 < argv.length) credentials.push(parseCredential(argv[++i] as string));
    else if (arg.startsWith('--credential=')) credentials.push(parseCredential(arg.slice('--credential='.length)));
    else rest.push(arg);
  }
  return { credentials, rest };
}

function parseCredential(value: string): CredentialSubstitution {
  const m = /^(basic|cookie|nonce|identity|header:([^:]+)):([\s\S]+?)=>([\s\S]*)$/.exec(value);
  // The message never repeats the value: it holds a secret.
  if (!m) throw new CliError('--credential must look like <type>:<captured>=><replacement> (type basic, cookie, nonce, identity or header:<Name>)');
  const type = (m[2] ? 'header' : m[1]) as CredentialSubstitution['type'];
  return { type, ...(m[2] ? { name: m[2] } : {}), captured: m[3] as string, replacement: m[4] as string };
}

/** A capture file, or a folder of them (a proxy recording): its .har and .json files in name order. */
function captureOf(ctx: CliContext, file: string): ReturnType<typeof parseCapture> {
  const full = resolve(ctx, file) as string;
  if (!fs.statSync(full, { throwIfNoEntry: false })?.isDirectory()) return captureFileOf(ctx, file);
  const files = fs.readdirSync(full).filter((name) => /\.(har|json)$/i.test(name)).sort();
  if (!files.length) throw new CliError(`the folder ${file} holds no .har or .json capture`);
  return files.flatMap((name) => captureFileOf(ctx, path.join(file, name)));
}

function captureFileOf(ctx: CliContext, file: string): ReturnType<typeof parseCapture> {
  const text = readText(ctx, file, 'capture');
  try {
    return parseCapture(text);
  } catch (err) {
    throw new CliError(`capture file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function credentialsFile(ctx: CliContext, file: string): CredentialSubstitution[] {
  let list: unknown;
  try {
    list = JSON.parse(readText(ctx, file, 'credentials'));
  } catch (err) {
    throw new CliError(`credentials file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return compileRules({ extends: 'none', credentials: list }, `credentials file ${file}`).credentials;
}

function readText(ctx: CliContext, file: string, what: string): string {
  try {
    return fs.readFileSync(resolve(ctx, file) as string, 'utf8');
  } catch {
    throw new CliError(`cannot read the ${what} file ${file}`);
  }
}

function resolve(ctx: CliContext, file: string | undefined): string | undefined {
  return file === undefined ? undefined : path.resolve(ctx.cwd, file);
}

function timeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0) throw new CliError(`--timeout must be a number of milliseconds, got "${value}"`);
  return ms;
}
