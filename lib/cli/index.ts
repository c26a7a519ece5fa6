/**
 * `understudy <command> ...`, shaped like WP-CLI: each command reads the same configuration as the
 * server, opens the site, does its work and closes the database. Exit status 0 on success; on failure
 * `Error: <message>` on stderr and status 1.
 */
import { CliError } from './args';
import { CliContext, Writer } from './context';
import { blogAt, takeSiteAddress } from './site-address';
import { understudyVersion } from './version';

export const HELP = `usage: understudy <command> [<args>]

Commands:
  serve     Serve the site's REST API and admin-ajax.php (default 127.0.0.1:8080).
  option    Get, add, update, delete or patch site options (as 'wp option').
  user      List the site's users, or create one (as 'wp user list' and 'wp user create').
  jobs      Show the job queue: queued, running, failed and done jobs.
  alerts    Send a test team alert: understudy alerts test.
  mailbox   Add, list, change mailboxes and rotate their token or relay secret.
  mail      List what became of accepted mail, ignored mail included: mail receipts.
  site      Create, list, show, change, delete connected sites and rotate their key.
  network   The WordPress network's own sites (multisite): network sites.
  changelog List and create product changelogs, and sync them from their source.
  chat      Test the chat assistant's model (chat test); learn the docs it answers from (chat learn).
  replay    Replay a capture (HAR or JSON) against a site and compare the answers.
  proxy     Stand in front of the PHP site: serve, pass or shadow per route.
  nginx     Print an nginx configuration from the proxy's routing file.
  shadow    Shadow match rates: of a running proxy (status), or stored over days (report).
  db        Add, remove or show the opt-in svc_* indexes (db index add|remove|status).
  doc       Show readers' feedback on docs: understudy doc stats [<id>].
  seed      Write many tickets for benchmarks (seed --tickets=<n>).
  help      Show this help, or a command's: understudy help <command>.

Global: --version prints Understudy's version. Commands that print data take --format=json (or --json).
--url=<site address> (before or after the command name) acts on that site of a WordPress network,
as WP-CLI's --url does: understudy --url=example.com/two/ option get blogname. It wins over WP_BLOG_ID;
the address must be a site's own ('understudy network sites' lists them); on a single site it is an error.

The site is found as the server finds it: WP_CONFIG_PATH, then DB_* variables or DATABASE_URL,
else the embedded SQLite site in ./data (created with the demo site on first use).
`;

interface Command {
  help: string;
  run(ctx: CliContext, argv: string[]): Promise<number>;
  /** `site: 'none'`: the command opens no site, so `--url` has nothing to choose; `'own-url'`: it has a `--url` of its own. */
  site?: 'none' | 'own-url';
}

/** A command whose module is required when it runs or its help is shown. */
function lazy<M>(load: () => M, command: (module: M) => Command): () => Command {
  return () => command(load());
}

/**
 * Each command from its module, loaded on use: a server need not hold the modules of the proxy, the
 * replay, the seed and the other tools (docs/performance.md, "Memory of a serving process").
 */
const COMMANDS: Record<string, () => Command> = {
  serve: lazy(() => require('./serve') as typeof import('./serve'), (m) => ({ help: m.SERVE_HELP, run: m.serveCommand })),
  option: lazy(() => require('./option') as typeof import('./option'), (m) => ({ help: m.OPTION_HELP, run: m.optionCommand })),
  user: lazy(() => require('./user') as typeof import('./user'), (m) => ({ help: m.USER_HELP, run: m.userCommand })),
  jobs: lazy(() => require('./jobs') as typeof import('./jobs'), (m) => ({ help: m.JOBS_HELP, run: m.jobsCommand })),
  alerts: lazy(() => require('./alerts') as typeof import('./alerts'), (m) => ({ help: m.ALERTS_HELP, run: m.alertsCommand })),
  mailbox: lazy(() => require('./mailbox') as typeof import('./mailbox'), (m) => ({ help: m.MAILBOX_HELP, run: m.mailboxCommand })),
  mail: lazy(() => require('./mail') as typeof import('./mail'), (m) => ({ help: m.MAIL_HELP, run: m.mailCommand })),
  site: lazy(() => require('./site') as typeof import('./site'), (m) => ({ help: m.SITE_HELP, run: m.siteCommand })),
  network: lazy(() => require('./network') as typeof import('./network'), (m) => ({ help: m.NETWORK_HELP, run: m.networkCommand, site: 'none' })),
  changelog: lazy(() => require('./changelog') as typeof import('./changelog'), (m) => ({ help: m.CHANGELOG_HELP, run: m.changelogCommand, site: 'own-url' })),
  chat: lazy(() => require('./chat') as typeof import('./chat'), (m) => ({ help: m.CHAT_HELP, run: m.chatCommand })),
  replay: lazy(() => require('./replay') as typeof import('./replay'), (m) => ({ help: m.REPLAY_HELP, run: m.replayCommand, site: 'none' })),
  proxy: lazy(() => require('./proxy') as typeof import('./proxy'), (m) => ({ help: m.PROXY_HELP, run: m.proxyCommand })),
  nginx: lazy(() => require('./nginx') as typeof import('./nginx'), (m) => ({ help: m.NGINX_HELP, run: m.nginxCommand, site: 'none' })),
  shadow: lazy(() => require('./shadow') as typeof import('./shadow'), (m) => ({ help: m.SHADOW_HELP, run: m.shadowCommand })),
  db: lazy(() => require('./db') as typeof import('./db'), (m) => ({ help: m.DB_HELP, run: m.dbCommand })),
  doc: lazy(() => require('./doc') as typeof import('./doc'), (m) => ({ help: m.DOC_HELP, run: m.docCommand })),
  seed: lazy(() => require('./seed') as typeof import('./seed'), (m) => ({ help: m.SEED_HELP, run: m.seedCommand })),
};

export interface RunCliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdout?: Writer;
  stderr?: Writer;
  /** Where values left off the command line are read from; none unless given (bin passes process.stdin). */
  stdin?: CliContext['stdin'];
  /** Stops `serve` when aborted; without it, `serve` runs until SIGINT or SIGTERM. */
  signal?: AbortSignal;
}

/** Runs one command line (without the program name); resolves with the exit status. Never exits the process. */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const ctx: CliContext = {
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    stdout: options.stdout ?? process.stdout,
    stderr: options.stderr ?? process.stderr,
    stdin: options.stdin,
    signal: options.signal,
  };
  try {
    const leading = takeSiteAddress(argv, true);
    const [name, ...rest] = leading.argv;
    if (name === undefined || name === 'help' || name === '--help') return showHelp(ctx, name === 'help' ? rest[0] : undefined);
    if (name === '--version') {
      ctx.stdout.write(`Understudy ${understudyVersion()}\n`);
      return 0;
    }
    const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!load) throw new CliError(`'${name}' is not a registered understudy command. See 'understudy help' for available commands.`);
    if (asksForHelp(rest)) return showHelp(ctx, name);
    const command = load();
    const own = command.site === 'own-url' ? { argv: rest } : takeSiteAddress(rest);
    const address = own.address ?? leading.address;
    if (address === undefined) return await command.run(ctx, own.argv);
    if (command.site === 'none') throw new CliError(`understudy ${name} opens no site: --url has nothing to choose`);
    return await command.run({ ...ctx, blogId: await blogAt(ctx, address) }, own.argv);
  } catch (err) {
    ctx.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

function showHelp(ctx: CliContext, name: string | undefined): number {
  if (name === undefined) {
    ctx.stdout.write(HELP);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new CliError(`'${name}' is not a registered understudy command. See 'understudy help' for available commands.`);
  ctx.stdout.write(command().help);
  return 0;
}

/** `--help` anywhere before a `--`. */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--help');
}
