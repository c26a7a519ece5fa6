/**
 * `--url=<site address>` on any command (WP-CLI's global parameter): which site of the network the
 * command opens. runCli() takes it off the command line before the command parses its own flags,
 * resolves it to a blog ID here, and openConfiguredSite() opens that blog (winning over WP_BLOG_ID).
 */
import { siteAtAddress } from '../wp/multisite/address';
import { NetworkSites } from '../wp/multisite/sites';
import { CliError } from './args';
import { CliContext } from './context';
import { withNetwork } from './network-config';

/**
 * `argv` without its `--url` (`--url=<address>` or `--url <address>`, before any `--`), and the
 * address; the last one given wins. `leadingOnly`: only a `--url` before anything else counts (what
 * precedes the command name; a command with a `--url` of its own keeps the ones after it).
 */
export function takeSiteAddress(argv: readonly string[], leadingOnly = false): { address?: string; argv: string[] } {
  const rest: string[] = [];
  let address: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const isUrl = arg === '--url' || arg.startsWith('--url=');
    if (arg === '--' || (leadingOnly && !isUrl)) {
      rest.push(...argv.slice(i));
      break;
    }
    if (!isUrl) rest.push(arg);
    else if (arg !== '--url') address = arg.slice('--url='.length);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new CliError('--url needs a value (--url=<site address>)');
      address = next;
      i++;
    }
  }
  if (address === '') throw new CliError('--url needs a value (--url=<site address>)');
  return address === undefined ? { argv: rest } : { address, argv: rest };
}

/** The blog ID of the network's site at `address`; a clear error when the site is no network or no site is there. */
export function blogAt(ctx: CliContext, address: string): Promise<number> {
  return withNetwork(ctx, `--url=${address}`, async ({ store, install }) => {
    const found = await siteAtAddress(new NetworkSites(store, install), address);
    if (!found.found) throw new CliError(`--url=${address}: ${found.reason}. See 'understudy network sites'.`);
    return found.site.blogId;
  });
}
