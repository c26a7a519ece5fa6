/**
 * `understudy changelog list|create|sync`: the product changelogs served at support/v1/changelogs
 * and their feeds (docs/changelogs.md). `sync` reads a product's source now, as the hourly schedule
 * does, and fails (status 1) when the source could not be read; nothing is changed then.
 */
import { ChangelogError, createProduct, findProduct } from '../support/changelogs/admin';
import { feedPath } from '../support/changelogs/feed-urls';
import { ProductSummary, productSummaries } from '../support/changelogs/releases';
import { Product } from '../support/changelogs/store';
import { syncProduct } from '../support/changelogs/sync';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { CliError, ParsedArgs, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, success, withSite } from './context';
import { Row, asciiTable } from './format';
import { Subcommand, runSubcommand } from './subcommands';

export const CHANGELOG_HELP = `usage: understudy changelog <subcommand> [<args>]

Subcommands:
  list [--format=table|json]
      Lists the products: ID, slug, name, type, releases, latest, source and the last sync.
  create --name=<name> [--slug=<slug>] [--type=<type>] [--url=<url>] [--source=<url>]
         [--kind=auto|readme|changelog|github] [--format=table|json]
      Makes a product. --source is where sync reads releases: a readme.txt, a CHANGELOG.md or
      GitHub-releases-style JSON (http or https); --kind says which (auto: JSON as GitHub
      releases, any other text as a changelog).
  sync <id|slug> [--format=table|json]
      Reads the product's source now and adds or updates its releases (by version; nothing is
      deleted). A source that fails changes nothing, and the command fails.
`;

const SUBCOMMANDS: Record<string, Subcommand> = { list, create, sync };

export function changelogCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'changelog', help: CHANGELOG_HELP, subcommands: SUBCOMMANDS, refusal: ChangelogError });
}

async function list(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy changelog list [--format=table|json]');
  const format = formatOf(args);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const home = await site.homeUrl();
    const rows = (await productSummaries(site)).map((s) => productRow(s, home));
    if (format === 'json') line(ctx, phpJsonEncode(rows));
    else for (const text of asciiTable(['ID', 'slug', 'name', 'type', 'releases', 'latest', 'source', 'last_sync'], rows.map(tableRow))) line(ctx, text);
    return 0;
  });
}

async function create(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { name: 'string', slug: 'string', type: 'string', url: 'string', source: 'string', kind: 'string', format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy changelog create --name=<name> [...]');
  const format = formatOf(args);
  const name = stringFlag(args, 'name');
  if (name === undefined) throw new CliError('Missing --name=<name>. Usage: understudy changelog create --name=<name> [...]');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const product = await createProduct(site, {
      name, slug: stringFlag(args, 'slug'), type: stringFlag(args, 'type'), url: stringFlag(args, 'url'), source: stringFlag(args, 'source'), kind: stringFlag(args, 'kind'),
    });
    const row = productRow({ product, latest: null, releases: 0 }, await site.homeUrl());
    if (format === 'json') {
      line(ctx, phpJsonEncode(row));
      return 0;
    }
    success(ctx, `Created changelog ${product.postId} '${product.slug}'.`);
    line(ctx, `Feed: ${row.feed}`);
    return 0;
  });
}

async function sync(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  if (args.positional.length !== 1) throw new CliError(`Too ${args.positional.length ? 'many' : 'few'} arguments. Usage: understudy changelog sync <id|slug>`);
  const format = formatOf(args);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const product = await findProduct(site, args.positional[0] as string);
    const { reason, transient: _transient, ...outcome } = await syncProduct(site, product);
    if (format === 'json') line(ctx, phpJsonEncode({ id: product.postId, slug: product.slug, ...outcome, ...(reason ? { reason } : {}) }));
    if (!outcome.ok) throw new CliError(`Sync of '${product.slug}' failed: ${outcome.message}`);
    if (format === 'table') success(ctx, `Synced '${product.slug}'. ${outcome.message}`);
    return 0;
  });
}

interface ProductRow {
  ID: number;
  slug: string;
  name: string;
  type: string;
  url: string;
  releases: number;
  latest: string | null;
  source: string;
  kind: string;
  feed: string;
  last_sync: Product['lastSync'];
}

function productRow({ product: p, latest, releases }: ProductSummary, home: string): ProductRow {
  return {
    ID: p.postId, slug: p.slug, name: p.name, type: p.type, url: p.url, releases, latest, source: p.source, kind: p.sourceKind,
    feed: `${home}${feedPath(p.slug)}`, last_sync: p.lastSync,
  };
}

function tableRow(r: ProductRow): Row {
  const last = r.last_sync;
  const lastSync = last ? `${last.ok ? 'ok' : 'failed'} ${last.at} UTC: ${last.message}` : 'never';
  return { ID: r.ID, slug: r.slug, name: r.name, type: r.type, releases: r.releases, latest: r.latest ?? '', source: r.source, last_sync: lastSync };
}

function formatOf(args: ParsedArgs): 'table' | 'json' {
  return choiceFlag(args, 'format', ['table', 'json'], 'table');
}
