/**
 * `understudy mail receipts`: what became of the mail the mailboxes accepted (docs/mail-intake.md,
 * "Ignored mail stays findable"), newest first, filtered by outcome, reason, mailbox and date. Ignored
 * mail shows whether its message is still stored. Times are UTC, ISO 8601.
 */
import { isMessageKept } from '../support/inbound/ignored-mail';
import { ReceiptFilter, StoredReceipt, listReceipts } from '../support/inbound/store';
import { loadSiteConfig } from '../wp/config';
import { Site } from '../wp/site';
import { CliError, ParsedArgs, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, withSite } from './context';
import { Row, asciiTable } from './format';
import { Subcommand, runSubcommand } from './subcommands';

export const MAIL_HELP = `usage: understudy mail <subcommand> [<args>]

Subcommands:
  receipts [--outcome=<outcome>] [--reason=<reason>] [--mailbox=<key>] [--since=<date>] [--until=<date>]
           [--limit=<n>] [--format=table|json]
      Lists the receipts of accepted mail, newest first (default 50, at most 1000): what each message
      became (ticket_created, reply_added, note_added, ignored), why ignored mail was ignored, its
      From as written and subject, and whether the message of ignored mail is still stored.
      --since and --until take a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ); --since
      from that moment on, --until up to it (a date alone: up to the end of that day).
      --format=json prints one JSON array, times as ISO 8601 UTC.
`;

const OUTCOMES = ['ticket_created', 'reply_added', 'note_added', 'ignored'] as const;
const TABLE_FIELDS = ['receipt_id', 'received_at', 'mailbox', 'outcome', 'reason', 'ticket_id', 'raw_from', 'subject', 'message_kept'];
/** A table cell shows this much of a From or subject; JSON shows them whole. */
const TABLE_TEXT_CHARS = 60;

const SUBCOMMANDS: Record<string, Subcommand> = { receipts };

/** Runs `mail <subcommand> ...`; returns the exit status. */
export function mailCommand(ctx: CliContext, argv: string[]): Promise<number> {
  return runSubcommand(ctx, argv, { name: 'mail', help: MAIL_HELP, subcommands: SUBCOMMANDS });
}

async function receipts(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { outcome: 'string', reason: 'string', mailbox: 'string', since: 'string', until: 'string', limit: 'string', format: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy mail receipts [--outcome=<outcome>] [--reason=<reason>] [--mailbox=<key>] [--since=<date>] [--until=<date>] [--limit=<n>] [--format=table|json]');
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  const filter = filterOf(args);
  const limit = Number(stringFlag(args, 'limit', '50'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError('--limit must be a whole number from 1 to 1000.');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const shown = await Promise.all((await listReceipts(site.db, filter, limit)).map((r) => presentReceipt(site, r)));
    if (format === 'json') {
      line(ctx, JSON.stringify(shown));
      return 0;
    }
    if (!shown.length) {
      line(ctx, 'No receipts match.');
      return 0;
    }
    const rows: Row[] = shown.map((r) => ({
      ...r, reason: r.reason ?? '', ticket_id: r.ticket_id ?? '', raw_from: cell(r.raw_from), subject: cell(r.subject),
      message_kept: r.message_kept === null ? '' : r.message_kept ? 'yes' : 'no',
    }));
    for (const text of asciiTable(TABLE_FIELDS, rows)) line(ctx, text);
    return 0;
  });
}

function filterOf(args: ParsedArgs): ReceiptFilter {
  const filter: ReceiptFilter = {};
  if (args.flags.outcome !== undefined) filter.outcome = choiceFlag(args, 'outcome', OUTCOMES, 'ignored');
  const reason = stringFlag(args, 'reason');
  if (reason !== undefined) filter.reason = reason;
  const mailbox = stringFlag(args, 'mailbox');
  if (mailbox !== undefined) filter.mailbox = mailbox;
  const since = stringFlag(args, 'since');
  if (since !== undefined) filter.since = moment(since, 'since', false);
  const until = stringFlag(args, 'until');
  if (until !== undefined) filter.until = moment(until, 'until', true);
  return filter;
}

/** A date or UTC time as Unix seconds; a date alone is its first moment, or (`endOfDay`) the first moment of the next day. */
function moment(value: string, flag: string, endOfDay: boolean): number {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = date ? Date.parse(`${value}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new CliError(`Invalid value for --${flag}: '${value}' (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)`);
  return Math.floor(ms / 1000) + (date && endOfDay ? 86_400 : 0);
}

/** A receipt as the command shows it; `message_kept` only for ignored mail (null otherwise). */
async function presentReceipt(site: Site, r: StoredReceipt) {
  return {
    receipt_id: r.receiptId,
    received_at: new Date(r.createdAt * 1000).toISOString().replace('.000Z', 'Z'),
    mailbox: r.mailbox,
    outcome: r.outcome,
    reason: r.reason,
    ticket_id: r.ticketId,
    raw_from: r.rawFrom,
    subject: r.subject,
    message_kept: r.outcome === 'ignored' ? await isMessageKept(site, r) : null,
  };
}

/** One line of at most TABLE_TEXT_CHARS characters (code points), the last one `…` when cut. */
function cell(text: string | null): string {
  const chars = Array.from((text ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' '));
  return chars.length <= TABLE_TEXT_CHARS ? chars.join('') : `${chars.slice(0, TABLE_TEXT_CHARS - 1).join('')}…`;
}
