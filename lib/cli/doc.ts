/**
 * `understudy doc stats [<id>]`: readers' feedback on published docs (docs/docs.md): helpful and not
 * helpful votes and comments per doc, counted from the votes, as agents see them in each doc's meta.
 */
import { DocStats, allDocStats, docStats } from '../support/docs/stats';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { CliError, choiceFlag, parseCommandArgs } from './args';
import { CliContext, line, withSite } from './context';
import { Row, asciiTable } from './format';

export const DOC_HELP = `usage: understudy doc stats [<id>] [--format=table|json]

Shows readers' feedback on docs: for each doc with votes (or the doc <id>, votes or not), its ID,
title, status, helpful and not helpful votes, and how many votes came with a comment. A reader's
second vote on a doc the same day replaces the first, so each reader counts once per doc and day.
--format=json prints a JSON array of {id, title, status, helpful, not_helpful, comments}.
`;

const FIELDS = ['id', 'title', 'status', 'helpful', 'not_helpful', 'comments'];

/** Runs `doc stats ...`; returns the exit status. */
export async function docCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== 'stats') throw new CliError(`Unknown subcommand '${subcommand ?? ''}'. Usage: understudy doc stats [<id>] [--format=table|json]`);
  const args = parseCommandArgs(rest, { format: 'string' });
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  if (args.positional.length > 1) throw new CliError('Too many arguments. Usage: understudy doc stats [<id>] [--format=table|json]');
  const idText = args.positional[0];
  const id = idText === undefined ? undefined : Number(idText);
  if (id !== undefined && !(Number.isInteger(id) && id > 0)) throw new CliError(`Invalid doc ID '${idText}'.`);
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    let stats: DocStats[];
    if (id === undefined) {
      stats = await allDocStats(site);
    } else {
      const one = await docStats(site, id);
      if (!one) throw new CliError(`Could not find the doc with ID ${id}.`);
      stats = [one];
    }
    const rows: Row[] = stats.map((s) => ({ id: s.id, title: s.title, status: s.status, helpful: s.helpful, not_helpful: s.notHelpful, comments: s.comments }));
    if (format === 'json') line(ctx, phpJsonEncode(rows));
    else if (rows.length) for (const text of asciiTable(FIELDS, rows)) line(ctx, text);
    else line(ctx, 'No doc has feedback yet.');
    return 0;
  });
}
