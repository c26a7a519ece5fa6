/**
 * `understudy mailbox add|list|rotate-token|rotate-secret|set`: the mailboxes that take email into
 * tickets (docs/mail-intake.md). `add` and the rotations print the new secrets once; the mailbox token
 * is stored only as a hash, so a lost token is replaced by rotating it, never read back.
 */
import { IssuedCredentials, MailboxError, MailboxSettings, addMailbox, changeMailbox, routeKeyFor, rotateRelaySecret, rotateToken } from '../support/mailboxes/admin';
import { listMailboxes } from '../support/mailboxes/store';
import { loadSiteConfig } from '../wp/config';
import { Site } from '../wp/site';
import { CliError, ParsedArgs, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, success, withSite } from './context';
import { asciiTable } from './format';
import { Subcommand, runSubcommand } from './subcommands';

export const MAILBOX_HELP = `usage: understudy mailbox <subcommand> [<args>]

Subcommands:
  add <mailbox-key> --address=<email> [--max-bytes=<n>] [--automation=on|off] [--format=table|json]
      Adds a mailbox and prints its route key, mailbox token and relay secret. The token is shown
      only now: Understudy keeps only its hash. Defaults: --max-bytes=10485760, --automation=off.
  list [--format=table|json]
      Lists the mailboxes with their route keys and settings (never their secrets).
  rotate-token <mailbox-key> [--format=table|json]
      Replaces the mailbox token (for automation tools); the old one stops working at once.
  rotate-secret <mailbox-key> [--format=table|json]
      Replaces the relay secret; relay requests signed with the old one are refused from now on.
  set <mailbox-key> [--address=<email>] [--max-bytes=<n>] [--automation=on|off]
      Changes a mailbox's settings.

With --format=json (or --json), add and the rotations print one JSON object:
  {"route_key", "address", "token", "relay_secret", "max_bytes", "automation"}
(token is null after rotate-secret: only its hash exists).
`;

const SUBCOMMANDS: Record<string, Subcommand> = { add, list, 'rotate-token': rotateTokenCommand, 'rotate-secret': rotateSecretCommand, set };

/** Runs `mailbox <subcommand> ...`; returns the exit status. */
export function mailboxCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'mailbox', help: MAILBOX_HELP, subcommands: SUBCOMMANDS, refusal: MailboxError });
}

async function add(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { address: 'string', 'max-bytes': 'string', automation: 'string', format: 'string' });
  const key = onlyKey(args, 'mailbox add <mailbox-key> --address=<email>');
  const address = stringFlag(args, 'address');
  if (!address) throw new CliError('Missing --address=<email>. Usage: understudy mailbox add <mailbox-key> --address=<email>');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const issued = await addMailbox(site, key, { ...settingsOf(args), address });
    await printIssued(ctx, site, args, issued, `Added mailbox '${key}'.`);
    return 0;
  });
}

async function list(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy mailbox list [--format=table|json]');
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const rows = (await listMailboxes(site.db)).map((m) => ({
      key: m.key, route_key: routeKeyFor(site, m), address: m.address, max_bytes: m.maxBytes, automation: m.automation ? 'on' : 'off',
    }));
    if (format === 'json') line(ctx, JSON.stringify(rows.map((r) => ({ ...r, automation: r.automation === 'on' }))));
    else for (const text of asciiTable(['key', 'route_key', 'address', 'max_bytes', 'automation'], rows)) line(ctx, text);
    return 0;
  });
}

async function rotateTokenCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const key = onlyKey(args, 'mailbox rotate-token <mailbox-key> [--format=table|json]');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await printIssued(ctx, site, args, await rotateToken(site, key), `New mailbox token for '${key}'.`);
    return 0;
  });
}

async function rotateSecretCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const key = onlyKey(args, 'mailbox rotate-secret <mailbox-key> [--format=table|json]');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await printIssued(ctx, site, args, await rotateRelaySecret(site, key), `New relay secret for '${key}'.`);
    return 0;
  });
}

async function set(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { address: 'string', 'max-bytes': 'string', automation: 'string' });
  const key = onlyKey(args, 'mailbox set <mailbox-key> [--address=<email>] [--max-bytes=<n>] [--automation=on|off]');
  const settings: MailboxSettings = { ...settingsOf(args) };
  const address = stringFlag(args, 'address');
  if (address !== undefined) settings.address = address;
  if (!Object.keys(settings).length) throw new CliError('Nothing to change: give --address, --max-bytes or --automation.');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await changeMailbox(site, key, settings);
    success(ctx, `Updated mailbox '${key}'.`);
    return 0;
  });
}

/** The secrets, once: one JSON object with --format=json, else readable lines with the webhook URLs. */
async function printIssued(ctx: CliContext, site: Site, args: ParsedArgs, issued: IssuedCredentials, headline: string): Promise<void> {
  const { mailbox } = issued;
  if (choiceFlag(args, 'format', ['table', 'json'], 'table') === 'json') {
    line(ctx, JSON.stringify({
      route_key: issued.routeKey, address: mailbox.address, token: issued.token, relay_secret: issued.relaySecret,
      max_bytes: mailbox.maxBytes, automation: mailbox.automation,
    }));
    return;
  }
  success(ctx, headline);
  const rows: Array<[string, string]> = [
    ['Route key', issued.routeKey],
    ['Address', mailbox.address],
    ['Mailbox token', issued.token ?? '(unchanged; stored only as a hash)'],
    ['Relay secret', issued.relaySecret],
    ['Max bytes', String(mailbox.maxBytes)],
    ['Automation', mailbox.automation ? 'on' : 'off'],
    ['Relay URL', await site.restUrl(`/support/v1/webhooks/relay/${issued.routeKey}`)],
    ['Inbound URL', await site.restUrl(`/support/v1/webhooks/inbound/${issued.routeKey}`)],
  ];
  for (const [label, value] of rows) line(ctx, `${`${label}:`.padEnd(15)}${value}`);
  if (issued.token) line(ctx, 'Keep the mailbox token now: it cannot be shown again (rotate-token issues a new one).');
}

function settingsOf(args: ParsedArgs): MailboxSettings {
  const settings: MailboxSettings = {};
  const max = stringFlag(args, 'max-bytes');
  if (max !== undefined) {
    if (!/^\d+$/.test(max)) throw new CliError(`Invalid value for --max-bytes: '${max}' (expected a whole number of bytes)`);
    settings.maxBytes = Number(max);
  }
  if (args.flags.automation !== undefined) settings.automation = choiceFlag(args, 'automation', ['on', 'off'], 'off') === 'on';
  return settings;
}

function onlyKey(args: ParsedArgs, usage: string): string {
  if (args.positional.length < 1) throw new CliError(`Too few arguments. Usage: understudy ${usage}`);
  if (args.positional.length > 1) throw new CliError(`Too many arguments. Usage: understudy ${usage}`);
  return args.positional[0] as string;
}
