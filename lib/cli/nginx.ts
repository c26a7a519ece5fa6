/**
 * `understudy nginx` (also `understudy proxy nginx`): prints an nginx configuration made from the
 * proxy's routing file (lib/proxy/nginx.ts). Nothing is opened: it needs no site configuration,
 * except with --network, which reads the network's sites and networks (lib/proxy/nginx-network.ts).
 */
import path from 'node:path';
import { buildSurface } from '../app';
import { hasControlCharacters, nginxConfig } from '../proxy/nginx';
import { NetworkRouting, networkRouting } from '../proxy/nginx-network';
import { loadRouting } from '../proxy/routing';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext } from './context';
import { withNetwork } from './network-config';

export const NGINX_HELP = `usage: understudy nginx [--routes=<file>] [--understudy=<host:port>] [--part=all|http|server] [--network]

Prints an nginx configuration that sends nginx's traffic for the routes Understudy answers (by the
same --routes file as 'understudy proxy'; its defaults without one) to Understudy's proxy, and
leaves everything else to the PHP site:
  - REST namespaces Understudy serves or shadows, as /wp-json/<ns>/...
  - every request where WordPress may read a REST route nginx cannot: rest_route anywhere in the
    query, a form POST to the front controller, a /wp-json/ path written with % or & (the proxy
    reads it as WordPress does and passes what is not Understudy's to PHP)
  - all of /wp-admin/admin-ajax.php (nginx cannot read the action from a POST body; the proxy
    answers Understudy's actions and passes the others to PHP)

  --understudy=<host:port>  where 'understudy proxy' listens (default 127.0.0.1:8080)
  --part=http               only the http {} part (upstream, maps)
  --part=server             only the server {} part (locations), to include in the site's server block
  --network                 one configuration for the whole WordPress network (multisite) this
                            configuration points at (WP_CONFIG_PATH, or MULTISITE and DATABASE_URL):
                            the same routes under every site's path (/two/wp-json/…,
                            /two/wp-admin/admin-ajax.php), passed with the visitor's URI, and
                            server_name for every site's domain (*.<network domain> on a subdomain
                            install, mapped domains by name: print it again after mapping one)

Run Understudy behind it as:
  understudy proxy --upstream=<PHP site> --routes=<file> --trusted-proxies=<nginx's address>
See docs/deploy.md.
`;

export async function nginxCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { routes: 'string', understudy: 'string', part: 'string', network: 'boolean' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy nginx [--routes=<file>] [--understudy=<host:port>]');
  const part = choiceFlag(args, 'part', ['all', 'http', 'server'] as const, 'all');
  const understudy = stringFlag(args, 'understudy') ?? '127.0.0.1:8080';
  // Written into nginx's configuration: a newline or `;}` there would add directives of the caller's.
  if (hasControlCharacters(understudy) || !/^(unix:\/[^\s;{}"'\\]+|\[[0-9a-fA-F:.]+\]:\d+|[A-Za-z0-9.-]+:\d+)$/.test(understudy)) {
    throw new CliError(`--understudy must be host:port, [ipv6]:port or unix:/path (no spaces, quotes, ';', '{' or '}'), got ${JSON.stringify(understudy)}`);
  }
  const routesFile = stringFlag(args, 'routes');
  if (routesFile !== undefined && hasControlCharacters(routesFile)) throw new CliError(`--routes cannot name a file with control characters in its name, got ${JSON.stringify(routesFile)}`);
  const routing = loadRouting(routesFile === undefined ? undefined : path.resolve(ctx.cwd, routesFile), buildSurface());
  const network = args.flags.network === true ? await networkOf(ctx) : undefined;
  const config = nginxConfig(buildSurface(), routing, { understudy, routesLabel: routesFile ? path.basename(routesFile) : 'the defaults', network });
  ctx.stdout.write(part === 'http' ? config.http : part === 'server' ? config.server : `${config.http}\n${config.server}`);
  return 0;
}

function networkOf(ctx: CliContext): Promise<NetworkRouting> {
  return withNetwork(ctx, 'understudy nginx --network', async ({ store, install }) => networkRouting(install, await store.networks(), await store.sites()));
}
