/**
 * `understudy network sites`: the sites of the WordPress network (multisite) this configuration
 * points at, as `wp site list` lists them. Named apart from `understudy site …`, which manages the
 * help desk's connected sites (other websites that open tickets), a different thing.
 */
import { NetworkSite } from '../wp/multisite/network';
import { CliError, choiceFlag, parseCommandArgs } from './args';
import { CliContext, line } from './context';
import { Row, asciiTable } from './format';
import { withNetwork } from './network-config';
import { Subcommand, runSubcommand } from './subcommands';

export const NETWORK_HELP = `usage: understudy network <subcommand> [<args>]

The WordPress network (multisite) of this configuration: MULTISITE in wp-config.php (WP_CONFIG_PATH)
or in the environment. Not to be confused with 'understudy site', the help desk's connected sites.

Subcommands:
  sites [--format=table|json]
      Lists the network's sites ({prefix}blogs) by blog ID: the address to give --url, the network,
      and WordPress's flags (public 1/0, archived, spam, deleted: 1 deleted, 2 not activated yet).

Any command takes --url=<site address> to act on one site of the network, as WP-CLI does:
  understudy --url=example.com/two/ option get blogname
`;

const SUBCOMMANDS: Record<string, Subcommand> = { sites };

export function networkCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'network', help: NETWORK_HELP, subcommands: SUBCOMMANDS });
}

const FIELDS = ['blog_id', 'address', 'network_id', 'public', 'archived', 'spam', 'deleted'] as const;

async function sites(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy network sites [--format=table|json]');
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  const rows = (await withNetwork(ctx, 'understudy network sites', ({ store }) => store.sites())).map(rowOf);
  if (format === 'json') line(ctx, JSON.stringify(rows));
  else for (const text of asciiTable(FIELDS, rows)) line(ctx, text);
  return 0;
}

function rowOf(site: NetworkSite): Row {
  const flag = (on: boolean) => (on ? 1 : 0);
  return {
    blog_id: site.blogId, address: `${site.domain}${site.path}`, network_id: site.networkId, public: flag(site.public),
    archived: flag(site.archived), spam: flag(site.spam), deleted: site.deleted,
  };
}
