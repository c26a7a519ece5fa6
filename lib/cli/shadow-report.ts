/**
 * `understudy shadow report`: the shadow evidence the proxies stored in the site's database, per
 * route with a verdict; as text, JSON, or also a self-contained HTML page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { shadowReportHtml } from '../proxy/shadow-report-html';
import { buildShadowReport, shadowReportLines } from '../proxy/shadow-report';
import { readEvidence } from '../proxy/shadow-store';
import { loadSiteConfig } from '../wp/config';
import { CliError, ParsedArgs, choiceFlag, stringFlag } from './args';
import { CliContext, line, withSite } from './context';

export const SHADOW_REPORT_USAGE = 'understudy shadow report [--since=7d] [--format=text|json] [--html=<file>] [--min-compared=100] [--min-rate=99.9]';

export async function shadowReportCommand(ctx: CliContext, args: ParsedArgs): Promise<number> {
  const format = choiceFlag(args, 'format', ['text', 'json'] as const, 'text');
  const until = new Date();
  const { since, period } = parseSince(stringFlag(args, 'since', '7d') as string, until);
  const minCompared = integerFlag(stringFlag(args, 'min-compared', '100') as string, '--min-compared');
  const minRate = percentFlag(stringFlag(args, 'min-rate', '99.9') as string);
  const htmlFile = stringFlag(args, 'html');
  const evidence = await withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), ({ site }) => readEvidence(site.db, Math.floor(since.getTime() / 1000)));
  const report = buildShadowReport(evidence, since, until, period, { minCompared, minRate });
  if (htmlFile) fs.writeFileSync(path.resolve(ctx.cwd, htmlFile), shadowReportHtml(report));
  if (format === 'json') line(ctx, JSON.stringify(report, null, 2));
  else for (const text of shadowReportLines(report)) line(ctx, text);
  return 0;
}

/** `7d`, `12h`, `90m`, or a date (`2026-11-18`, ISO 8601): the start of the period and its name. */
export function parseSince(value: string, now: Date): { since: Date; period: string } {
  const m = /^(\d+)([dhm])$/.exec(value.trim());
  if (m) {
    const n = Number(m[1]);
    const unit = { d: ['day', 86_400_000], h: ['hour', 3_600_000], m: ['minute', 60_000] }[m[2] as 'd' | 'h' | 'm'] as [string, number];
    return { since: new Date(now.getTime() - n * unit[1]), period: `${n} ${unit[0]}${n === 1 ? '' : 's'}` };
  }
  const date = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new CliError(`--since must be a period such as 7d, 12h or 90m, or a date such as 2026-11-18; got "${value}"`);
  return { since: date, period: `since ${date.toISOString()}` };
}

function integerFlag(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${flag} must be a whole number, got "${value}"`);
  return Number(value);
}

function percentFlag(value: string): number {
  const n = Number(value.replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value) || n > 100) throw new CliError(`--min-rate must be a percentage from 0 to 100, got "${value}"`);
  return n / 100;
}
