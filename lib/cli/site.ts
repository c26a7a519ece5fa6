/**
 * `understudy site create|list|get|update|delete|rotate-key`: the connected sites that open tickets
 * from their pages and servers and host the customer portal (docs/sites.md). `create` and `rotate-key`
 * print the new site key once; it is stored only as a hash, so a lost key is replaced by rotating it.
 */
import { collectionSlugs } from '../support/docs/store';
import { IssuedSiteKey, SiteError, changeConnectedSite, createConnectedSite, deleteConnectedSite, getConnectedSite, rotateSiteKey } from '../support/sites/admin';
import { presentSite } from '../support/sites/present';
import { SiteSettings } from '../support/sites/settings';
import { ConnectedSite, listSites } from '../support/sites/store';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { Site } from '../wp/site';
import { CliError, FlagSpec, ParsedArgs, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, success, warning, withSite } from './context';
import { Row, asciiTable } from './format';
import { Subcommand, runSubcommand } from './subcommands';

export const SITE_HELP = `usage: understudy site <subcommand> [<args>]

Subcommands:
  create --name=<name> [<settings>] [--format=table|json]
      Makes a connected site and prints it with its site key. The key is shown only now:
      Understudy keeps only its hash.
  list [--format=table|json]
      Lists the sites with their settings (never their keys).
  get <site-id> [--format=table|json]
      Shows one site.
  update <site-id> <settings>
      Changes a site's settings.
  delete <site-id>
      Deletes a site: its key and addresses stop working at once; its tickets stay.
  rotate-key <site-id> [--format=table|json]
      Issues a new site key; the old one stops working at once.

Settings:
  --name=<name>                    the site's name, shown to its customers
  --origins=<a,b,...>              listed addresses, scheme://host[:port] each ('' lists none)
  --portal=on|off                  the customer portal (default off)
  --new-tickets=on|off             new tickets from the site's pages (default on)
  --message-limit=<n>              longest message from the site's pages, in characters (default 5000)
  --message-hint=<text>            text shown beside the message field
  --customers-resolve=on|off       customers may resolve their tickets in the portal (default on)
  --customers-reopen=on|off        customers may reopen resolved tickets in the portal (default on)
  --doc-collections=<a,b,...>      slugs of the doc collections the site may show ('' shows none)

With --format=json, create and rotate-key print one JSON object: the site (site_id, name, origins,
portal, new_tickets, message_limit, message_hint, customer_can_resolve, customer_can_reopen,
doc_collections, created_at, updated_at) with the new key in site_key.
`;

const SETTING_FLAGS: FlagSpec = {
  name: 'string', origins: 'string', portal: 'string', 'new-tickets': 'string', 'message-limit': 'string',
  'message-hint': 'string', 'customers-resolve': 'string', 'customers-reopen': 'string', 'doc-collections': 'string',
};

const SUBCOMMANDS: Record<string, Subcommand> = { create, list, get, update, delete: remove, 'rotate-key': rotateKey };

/** Runs `site <subcommand> ...`; returns the exit status. */
export function siteCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'site', help: SITE_HELP, subcommands: SUBCOMMANDS, refusal: SiteError });
}

async function create(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { ...SETTING_FLAGS, format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy site create --name=<name> [<settings>]');
  const format = formatOf(args);
  const settings = settingsOf(args);
  if (settings.name === undefined) throw new CliError('Missing --name=<name>. Usage: understudy site create --name=<name> [<settings>]');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const issued = await createConnectedSite(site, { ...settings, name: settings.name as string });
    await warnAboutUnknownCollections(ctx, site, settings);
    await printIssued(ctx, site, format, issued, `Created site '${issued.site.siteId}'.`);
    return 0;
  });
}

async function list(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy site list [--format=table|json]');
  const format = formatOf(args);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const sites = await listSites(site.db);
    if (format === 'json') {
      line(ctx, phpJsonEncode(sites.map(presentSite)));
      return 0;
    }
    const rows: Row[] = sites.map((s) => ({
      site_id: s.siteId, name: s.name, origins: s.origins.join(','), portal: onOff(s.portal), new_tickets: onOff(s.newTickets),
      message_limit: s.messageLimit,
    }));
    for (const text of asciiTable(['site_id', 'name', 'origins', 'portal', 'new_tickets', 'message_limit'], rows)) line(ctx, text);
    return 0;
  });
}

async function get(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const siteId = onlySiteId(args, 'site get <site-id> [--format=table|json]');
  const format = formatOf(args);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    printSite(ctx, format, await getConnectedSite(site, siteId), null);
    return 0;
  });
}

async function update(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, SETTING_FLAGS);
  const siteId = onlySiteId(args, 'site update <site-id> <settings>');
  const settings = settingsOf(args);
  if (!Object.keys(settings).length) throw new CliError('Nothing to change: give at least one setting (see understudy site --help).');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await changeConnectedSite(site, siteId, settings);
    await warnAboutUnknownCollections(ctx, site, settings);
    success(ctx, `Updated site '${siteId}'.`);
    return 0;
  });
}

async function remove(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  const siteId = onlySiteId(args, 'site delete <site-id>');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await deleteConnectedSite(site, siteId);
    success(ctx, `Deleted site '${siteId}'.`);
    return 0;
  });
}

async function rotateKey(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  const siteId = onlySiteId(args, 'site rotate-key <site-id> [--format=table|json]');
  const format = formatOf(args);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    await printIssued(ctx, site, format, await rotateSiteKey(site, siteId), `New site key for '${siteId}'.`);
    return 0;
  });
}

/** The site with its new key, once: one JSON object, or a success line, a table and a warning. */
async function printIssued(ctx: CliContext, site: Site, format: Format, issued: IssuedSiteKey, headline: string): Promise<void> {
  if (format === 'table') success(ctx, headline);
  printSite(ctx, format, issued.site, issued.key);
  if (format === 'json') return;
  line(ctx, `Tickets URL: ${await site.restUrl(`/support/v1/sites/${issued.site.siteId}/tickets`)}`);
  line(ctx, 'Keep the site key now: it cannot be shown again (rotate-key issues a new one).');
}

/** One site: a JSON object (with `site_key` when one was just issued), or WP-CLI's Field/Value table. */
function printSite(ctx: CliContext, format: Format, s: ConnectedSite, key: string | null): void {
  const shown = presentSite(s);
  if (format === 'json') {
    const { site_id: siteId, ...rest } = shown;
    line(ctx, phpJsonEncode(key === null ? shown : { site_id: siteId, site_key: key, ...rest }));
    return;
  }
  const rows: Row[] = [];
  for (const [field, value] of Object.entries(shown)) {
    rows.push({ Field: field, Value: Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? onOff(value) : String(value) });
    if (field === 'site_id' && key !== null) rows.push({ Field: 'site_key', Value: key });
  }
  for (const text of asciiTable(['Field', 'Value'], rows)) line(ctx, text);
}

type Format = 'table' | 'json';

function formatOf(args: ParsedArgs): Format {
  return choiceFlag(args, 'format', ['table', 'json'], 'table');
}

function settingsOf(args: ParsedArgs): Partial<SiteSettings> {
  const settings: Partial<SiteSettings> = {};
  const name = stringFlag(args, 'name');
  if (name !== undefined) settings.name = name;
  const origins = stringFlag(args, 'origins');
  if (origins !== undefined) settings.origins = listOf(origins);
  const switches: Array<[string, 'portal' | 'newTickets' | 'customerCanResolve' | 'customerCanReopen']> = [
    ['portal', 'portal'], ['new-tickets', 'newTickets'], ['customers-resolve', 'customerCanResolve'], ['customers-reopen', 'customerCanReopen'],
  ];
  for (const [flag, key] of switches) {
    if (args.flags[flag] !== undefined) settings[key] = choiceFlag(args, flag, ['on', 'off'], 'off') === 'on';
  }
  const limit = stringFlag(args, 'message-limit');
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit)) throw new CliError(`Invalid value for --message-limit: '${limit}' (expected a whole number of characters)`);
    settings.messageLimit = Number(limit);
  }
  const hint = stringFlag(args, 'message-hint');
  if (hint !== undefined) settings.messageHint = hint;
  const collections = stringFlag(args, 'doc-collections');
  if (collections !== undefined) settings.docCollections = listOf(collections);
  return settings;
}

/** --doc-collections may name a collection before its first doc; a typo would show nothing, so say so. */
async function warnAboutUnknownCollections(ctx: CliContext, site: Site, settings: Partial<SiteSettings>): Promise<void> {
  if (!settings.docCollections?.length) return;
  const known = new Set(await collectionSlugs(site.db));
  const unknown = settings.docCollections.filter((slug) => !known.has(slug));
  if (!unknown.length) return;
  const listed = known.size ? `known: ${[...known].join(', ')}` : 'there are none yet';
  warning(ctx, `No doc collection is named ${unknown.map((slug) => `'${slug}'`).join(', ')} (${listed}); the site shows no docs from ${unknown.length > 1 ? 'them' : 'it'} until one is.`);
}

function listOf(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter(Boolean);
}

function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

function onlySiteId(args: ParsedArgs, usage: string): string {
  if (args.positional.length < 1) throw new CliError(`Too few arguments. Usage: understudy ${usage}`);
  if (args.positional.length > 1) throw new CliError(`Too many arguments. Usage: understudy ${usage}`);
  return args.positional[0] as string;
}
