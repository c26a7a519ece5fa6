/**
 * `understudy alerts test`: sends a `test` team alert to the configured URL now and reports what the
 * receiver answered. This is also where a URL that alerts would refuse (plain http:// to a host that
 * is not loopback) is reported: settings are written with `option patch`, which cannot check them.
 */
import { sendTestAlert } from '../support/jobs/handlers/team-alert';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { CliError, choiceFlag, parseCommandArgs } from './args';
import { CliContext, line, success, withSite } from './context';

export const ALERTS_HELP = `usage: understudy alerts test [--format=table|json]

Sends a 'test' team alert to the URL in the svc_settings option (key alerts_url), signed when
alerts_secret is set, and prints the receiver's answer. Set the URL with:
  understudy option patch insert svc_settings alerts_url https://example.com/hook
(use 'patch update' once the key exists). --format=json prints {"url", "status"}.
`;

/** Runs `alerts <subcommand>`; returns the exit status. */
export async function alertsCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    ctx.stdout.write(ALERTS_HELP);
    return 0;
  }
  if (name !== 'test') throw new CliError(`'${name}' is not a registered subcommand of 'alerts'. See 'understudy alerts --help' for available subcommands.`);
  const args = parseCommandArgs(rest, { format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy alerts test [--format=table|json]');
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const result = await sendTestAlert(site);
    if (!result.ok) throw new CliError(result.error);
    if (format === 'json') line(ctx, phpJsonEncode({ url: result.url, status: result.status }));
    else success(ctx, `Sent a test alert to ${result.url}; the receiver answered HTTP ${result.status}.`);
    return 0;
  });
}
