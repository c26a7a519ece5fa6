/**
 * `understudy doc stats [<id>]`: readers' feedback on published docs (docs/docs.md): helpful and not
 * helpful votes and comments per doc, counted from the votes, as agents see them in each doc's meta,
 * and the newest comments' text.
 */
import { DocComment, latestComments } from '../support/docs/store';
import { DocStats, allDocStats, docStats } from '../support/docs/stats';
import { loadSiteConfig } from '../wp/config';
import { phpJsonEncode } from '../wp/php/json';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, withSite } from './context';
import { Row, asciiTable } from './format';

const USAGE = 'understudy doc stats [<id>] [--comments=<n>] [--format=table|json]';

export const DOC_HELP = `usage: ${USAGE}

Shows readers' feedback on docs: for each doc with votes (or the doc <id>, votes or not), its ID,
title, status, helpful and not helpful votes, and how many votes came with a comment; then the text
of the newest comments (of every doc, or of <id>), at most --comments=<n> (default 10; 0 shows none).
A reader's second vote on a doc the same day replaces the first, so each reader counts once per doc
and day. --format=json (or --json) prints a JSON array of {id, title, status, helpful, not_helpful,
comments, latest_comments}, latest_comments holding that doc's share of the newest comments as
{day, helpful, comment}.
`;

const FIELDS = ['id', 'title', 'status', 'helpful', 'not_helpful', 'comments'];
const COMMENT_FIELDS = ['id', 'day', 'vote', 'comment'];

/** Runs `doc stats ...`; returns the exit status. */
export async function docCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== 'stats') throw new CliError(`Unknown subcommand '${subcommand ?? ''}'. Usage: ${USAGE}`);
  const args = parseCommandArgs(rest, { format: 'string', comments: 'string' });
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  if (args.positional.length > 1) throw new CliError(`Too many arguments. Usage: ${USAGE}`);
  const limitText = stringFlag(args, 'comments', '10') as string;
  if (!/^\d+$/.test(limitText)) throw new CliError(`--comments must be a whole number, got '${limitText}'`);
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
    const comments = Number(limitText) > 0 ? await latestComments(site.db, Number(limitText), id) : [];
    const rows: Row[] = stats.map((s) => ({ id: s.id, title: s.title, status: s.status, helpful: s.helpful, not_helpful: s.notHelpful, comments: s.comments }));
    if (format === 'json') line(ctx, phpJsonEncode(rows.map((row) => ({ ...row, latest_comments: commentsOf(comments, Number(row.id)) }))));
    else if (rows.length) printTables(ctx, rows, comments);
    else line(ctx, 'No doc has feedback yet.');
    return 0;
  });
}

function printTables(ctx: CliContext, rows: Row[], comments: DocComment[]): void {
  for (const text of asciiTable(FIELDS, rows)) line(ctx, text);
  if (!comments.length) return;
  line(ctx, '');
  line(ctx, 'Newest comments:');
  const commentRows: Row[] = comments.map((c) => ({ id: c.docId, day: c.day, vote: c.helpful ? 'helpful' : 'not helpful', comment: oneLine(c.comment) }));
  for (const text of asciiTable(COMMENT_FIELDS, commentRows)) line(ctx, text);
}

function commentsOf(comments: DocComment[], docId: number): Array<{ day: string; helpful: boolean; comment: string }> {
  return comments.filter((c) => c.docId === docId).map((c) => ({ day: c.day, helpful: c.helpful, comment: c.comment }));
}

/** A comment in one table cell: its line breaks as spaces. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
