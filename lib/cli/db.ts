/**
 * `understudy db index add|remove|status`: the opt-in `svc_*` indexes on posts and postmeta that make
 * the ticket list fast on large sites (see lib/support/db-indexes.ts).
 */
import { addIndexes, indexStatus, removeIndexes } from '../support/db-indexes';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { CliError, choiceFlag, parseCommandArgs } from './args';
import { CliContext, line, success, withSite } from './context';
import { asciiTable } from './format';

export const DB_HELP = `usage: understudy db index <add|remove|status> [--format=table|json]

  add      Adds the svc_* secondary indexes to the posts and postmeta tables (online on MySQL).
  remove   Removes them again.
  status   Shows which are present.

These are the only changes Understudy ever makes to WordPress's core tables, and only on this
command. Everything works without them; the support desk's ticket list is much faster with them.
`;

export async function dbCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  if (group === undefined) {
    ctx.stdout.write(DB_HELP);
    return 0;
  }
  if (group !== 'index' || !['add', 'remove', 'status'].includes(action ?? '')) {
    throw new CliError(`Usage: understudy db index add|remove|status`);
  }
  const args = parseCommandArgs(rest, { format: 'string' });
  const format = choiceFlag(args, 'format', ['table', 'json'] as const, 'table');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    if (action === 'add') {
      const added = await addIndexes(site.db);
      success(ctx, added.length ? `Added ${added.join(', ')}.` : 'All svc_* indexes are already present.');
    } else if (action === 'remove') {
      const removed = await removeIndexes(site.db);
      success(ctx, removed.length ? `Removed ${removed.join(', ')}.` : 'No svc_* index was present.');
    } else {
      const rows = (await indexStatus(site.db)).map((s) => ({ table: s.table, index: s.index.name, present: s.present ? 'yes' : 'no', purpose: s.index.purpose }));
      if (format === 'json') line(ctx, phpJsonEncode(rows.map((r) => ({ ...r, present: r.present === 'yes' }))));
      else for (const text of asciiTable(['table', 'index', 'present', 'purpose'], rows)) line(ctx, text);
    }
    return 0;
  });
}
