/** `understudy seed --tickets N`: many tickets in the storage map's shape, for benchmarks and load tests. */
import { seedTickets } from '../support/seed/bulk-tickets';
import { loadSiteConfig } from '../wp/config';
import { CliError, parseCommandArgs, stringFlag } from './args';
import { CliContext, success, withSite } from './context';

export const SEED_HELP = `usage: understudy seed --tickets=<n> [--messages=<per ticket, default 2>] [--seed=<n>]

Writes <n> tickets with their messages (customers are the site's users and made-up guests; statuses,
priorities and assignees spread as on a busy desk). For test and benchmark sites only.
`;

export async function seedCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { tickets: 'string', messages: 'string', seed: 'string' });
  const tickets = positiveInt(stringFlag(args, 'tickets'), 'tickets');
  const messagesPerTicket = positiveInt(stringFlag(args, 'messages', '2'), 'messages');
  const seed = positiveInt(stringFlag(args, 'seed', '1'), 'seed');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    let last = 0;
    const result = await seedTickets(site, {
      tickets, messagesPerTicket, seed,
      progress: (done) => {
        if (done - last >= 10_000 || done === tickets) ctx.stderr.write(`  ${done} / ${tickets} tickets\n`);
        if (done - last >= 10_000) last = done;
      },
    });
    success(ctx, `Seeded ${result.tickets} tickets with ${result.messages} messages.`);
    return 0;
  });
}

function positiveInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 1) throw new CliError(`--${name} must be a positive whole number`);
  return n;
}
