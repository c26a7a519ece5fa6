/**
 * The report for people at a terminal: one summary line, a table of routes (matched / differed /
 * failed / excluded), then every exchange that did not match with its differences as -/+ pairs.
 */
import type { ExchangeResult, ReplayReport, RouteSummary } from '../runner';

export function textReport(report: ReplayReport): string {
  const lines = [summaryLine(report), '', ...routeTable(report.routes)];
  const problems = report.results.filter((r) => r.outcome === 'differed' || r.outcome === 'failed');
  if (problems.length) lines.push('', 'Not matching:', ...problems.flatMap(problemLines));
  return `${lines.join('\n')}\n`;
}

export function summaryLine(report: ReplayReport): string {
  const t = report.totals;
  return `Replayed ${t.exchanges} exchanges against ${report.target}: ${t.matched} matched, ${t.differed} differed, ${t.failed} failed, ${t.excluded} excluded`;
}

function routeTable(routes: readonly RouteSummary[]): string[] {
  const header = ['route', 'matched', 'differed', 'failed', 'excluded'];
  const rows = routes.map((r) => [r.route, String(r.matched), String(r.differed), String(r.failed), String(r.excluded)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const format = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ').trimEnd();
  return [format(header), ...rows.map(format)];
}

function problemLines(result: ExchangeResult): string[] {
  const mark = result.outcome === 'failed' ? '!' : '✗';
  const status = result.actualStatus === undefined ? `expected ${result.expectedStatus}` : `expected ${result.expectedStatus}, got ${result.actualStatus}`;
  const lines = ['', `${mark} ${result.name}  [${result.route}]`, `  ${result.method} ${result.url}  (${status})`];
  if (result.error) lines.push(`  failed: ${result.error}`);
  for (const d of result.diffs) lines.push(`  ${d.where}`, `    - ${oneLine(d.expected)}`, `    + ${oneLine(d.actual)}`);
  return lines;
}

/** Newlines in a value would break the -/+ layout; show them escaped. */
function oneLine(value: string): string {
  return value.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
