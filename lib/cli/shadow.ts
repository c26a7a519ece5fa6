/**
 * `understudy shadow status`: per-route match rates of a running proxy's shadow traffic, read from
 * its GET /_understudy/shadow (answered to clients on the proxy's own machine only).
 * `understudy shadow report`: the evidence every proxy stored in the database (shadow-report.ts).
 */
import { STATUS_PATH } from '../proxy/server';
import { RouteStatus, ShadowStatus, matchRate } from '../proxy/stats';
import { sendRequest } from '../replay/send';
import { loadServerConfig } from '../wp/config';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, displayHost, line } from './context';
import { asciiTable } from './format';
import { SHADOW_REPORT_USAGE, shadowReportCommand } from './shadow-report';

export const SHADOW_HELP = `usage: understudy shadow status [--proxy=<url>] [--format=table|json]
       ${SHADOW_REPORT_USAGE}

status: shows, per route, how often Understudy's answers matched the PHP site's in shadow mode since
a running proxy started: compared, match rate, matched, differed, noise-cancelled, failed, dropped
(queue full) and skipped (writes, large bodies). --proxy defaults to the address 'understudy proxy'
listens on (PORT and HOST).

report: the same counts as every proxy on this site's database stored them (kept 30 days by default,
see 'understudy help proxy'), over --since (7d, 12h, 90m or a date): per route the match rate, the
fields that differed most with a redacted example, and a verdict ("ready to serve: matched 12,345 of
12,351 over 7 days") once at least --min-compared comparisons matched at --min-rate percent or more
(failed comparisons count against it). --html also writes a self-contained page; --format=json prints
the report as JSON ("format": "understudy-shadow-report/1").
`;

export async function shadowCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { proxy: 'string', format: 'string', since: 'string', html: 'string', 'min-compared': 'string', 'min-rate': 'string' });
  const [sub, ...extra] = args.positional;
  if (sub === 'report' && !extra.length) return shadowReportCommand(ctx, args);
  if (sub !== 'status' || extra.length) throw new CliError(`Usage: understudy shadow status [--proxy=<url>] [--format=table|json]\n       ${SHADOW_REPORT_USAGE}`);
  const format = choiceFlag(args, 'format', ['table', 'json'] as const, 'table');
  const { host, port } = loadServerConfig(ctx.env);
  const proxy = stringFlag(args, 'proxy') ?? `http://${displayHost(host)}:${port}`;
  const status = await fetchStatus(proxy);
  if (format === 'json') line(ctx, JSON.stringify(status, null, 2));
  else for (const text of shadowStatusLines(status)) line(ctx, text);
  return 0;
}

async function fetchStatus(proxy: string): Promise<ShadowStatus> {
  let url: URL;
  try {
    url = new URL(STATUS_PATH, proxy);
  } catch {
    throw new CliError(`--proxy must be a URL such as http://127.0.0.1:8080, got "${proxy}"`);
  }
  const answer = await sendRequest({ method: 'GET', url, headers: [['Accept', 'application/json']], body: null }, 10_000)
    .catch((err: Error) => { throw new CliError(`no answer from the proxy at ${proxy}: ${err.message}`); });
  const body = answer.status === 200 ? tryJson(answer.body) : undefined;
  if (!body || !Array.isArray((body as ShadowStatus).routes)) {
    throw new CliError(`${proxy} did not answer shadow counters (HTTP ${answer.status}); is it 'understudy proxy', asked from its own machine?`);
  }
  return body as ShadowStatus;
}

/** The counters as a table, with a totals line; shared with the proxy's shutdown summary. */
export function shadowStatusLines(status: ShadowStatus): string[] {
  // Behind a proxy in front of a network, each site's routes are counted apart: a blog column says whose.
  const perSite = status.routes.some((r) => r.blogId !== undefined);
  const fields = [...(perSite ? ['blog'] : []), 'route', 'compared', 'match rate', 'matched', 'differed', 'noise', 'failed', 'dropped', 'skipped'];
  const rows = [...status.routes, { route: '(all routes)', ...status.totals, matchRate: matchRate(status.totals) } as RouteStatus].map((r) => ({
    ...(perSite ? { blog: r.blogId ?? '' } : {}), route: r.route, compared: r.compared, 'match rate': r.matchRate === null ? '-' : `${(r.matchRate * 100).toFixed(1)}%`,
    matched: r.matched, differed: r.differed, noise: r.noiseCancelled, failed: r.failed, dropped: r.dropped, skipped: r.skipped,
  }));
  return [`Shadow traffic since ${status.since} (${status.pending} comparisons pending)`, ...asciiTable(fields, rows)];
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
