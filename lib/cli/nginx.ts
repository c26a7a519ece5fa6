/**
 * `understudy nginx` (also `understudy proxy nginx`): prints an nginx configuration made from the
 * proxy's routing file (lib/proxy/nginx.ts). Nothing is opened: it needs no site configuration.
 */
import path from 'node:path';
import { buildSurface } from '../app';
import { nginxConfig } from '../proxy/nginx';
import { loadRouting } from '../proxy/routing';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext } from './context';

export const NGINX_HELP = `usage: understudy nginx [--routes=<file>] [--understudy=<host:port>] [--part=all|http|server]

Prints an nginx configuration that sends nginx's traffic for the routes Understudy answers (by the
same --routes file as 'understudy proxy'; its defaults without one) to Understudy's proxy, and
leaves everything else to the PHP site:
  - REST namespaces Understudy serves or shadows, as /wp-json/<ns>/... and as ?rest_route=/<ns>/...
  - all of /wp-admin/admin-ajax.php (nginx cannot read the action from a POST body; the proxy
    answers Understudy's actions and passes the others to PHP)

  --understudy=<host:port>  where 'understudy proxy' listens (default 127.0.0.1:8080)
  --part=http               only the http {} part (upstream, ?rest_route= map)
  --part=server             only the server {} part (locations), to include in the site's server block

Run Understudy behind it as:
  understudy proxy --upstream=<PHP site> --routes=<file> --trusted-proxies=<nginx's address>
See docs/deploy.md.
`;

export async function nginxCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { routes: 'string', understudy: 'string', part: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy nginx [--routes=<file>] [--understudy=<host:port>]');
  const part = choiceFlag(args, 'part', ['all', 'http', 'server'] as const, 'all');
  const understudy = stringFlag(args, 'understudy') ?? '127.0.0.1:8080';
  if (!/^(unix:\/\S+|\[[0-9a-fA-F:.]+\]:\d+|[A-Za-z0-9.-]+:\d+)$/.test(understudy)) {
    throw new CliError(`--understudy must be host:port, [ipv6]:port or unix:/path, got "${understudy}"`);
  }
  const routesFile = stringFlag(args, 'routes');
  const routing = loadRouting(routesFile === undefined ? undefined : path.resolve(ctx.cwd, routesFile), buildSurface());
  const config = nginxConfig(buildSurface(), routing, { understudy, routesLabel: routesFile ? path.basename(routesFile) : 'the defaults' });
  ctx.stdout.write(part === 'http' ? config.http : part === 'server' ? config.server : `${config.http}\n${config.server}`);
  return 0;
}
