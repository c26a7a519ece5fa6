/**
 * The report for people in a browser: one self-contained HTML file (inline CSS, no scripts, nothing
 * fetched). Captured bodies are untrusted, so every value goes through `escapeHtml`, and a Content
 * Security Policy forbids scripts in case something slips through.
 */
import type { ExchangeResult, ReplayReport, RouteSummary } from '../runner';
import { summaryLine } from './text';

export function htmlReport(report: ReplayReport): string {
  const problems = report.results.filter((r) => r.outcome === 'differed' || r.outcome === 'failed');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Understudy replay: ${escapeHtml(report.target)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Replay against ${escapeHtml(report.target)}</h1>
<p class="summary ${problems.length ? 'bad' : 'good'}">${escapeHtml(summaryLine(report))}</p>
<p class="when">From ${escapeHtml(report.startedAt)} to ${escapeHtml(report.finishedAt)}</p>
<h2>Routes</h2>
${routeTable(report.routes)}
<h2>Not matching (${problems.length})</h2>
${problems.length ? problems.map(problemSection).join('\n') : '<p>Every exchange that was sent matched.</p>'}
</body>
</html>
`;
}

/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function routeTable(routes: readonly RouteSummary[]): string {
  const rows = routes.map((r) => `<tr class="${r.differed + r.failed ? 'bad' : 'good'}"><td>${escapeHtml(r.route)}</td>`
    + `<td>${r.matched}</td><td>${r.differed}</td><td>${r.failed}</td><td>${r.excluded}</td></tr>`);
  return `<table><thead><tr><th>route</th><th>matched</th><th>differed</th><th>failed</th><th>excluded</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

function problemSection(result: ExchangeResult): string {
  const status = result.actualStatus === undefined ? `expected ${result.expectedStatus}` : `expected ${result.expectedStatus}, got ${result.actualStatus}`;
  const diffs = result.diffs.map((d) => `<tr><td>${escapeHtml(d.where)}</td><td><pre>${escapeHtml(d.expected)}</pre></td><td><pre>${escapeHtml(d.actual)}</pre></td></tr>`);
  return `<details open>
<summary>${escapeHtml(result.name)} <code>${escapeHtml(result.route)}</code></summary>
<p><code>${escapeHtml(result.method)} ${escapeHtml(result.url)}</code> (${escapeHtml(status)})</p>
${result.error ? `<p class="bad">failed: ${escapeHtml(result.error)}</p>` : ''}
${diffs.length ? `<table class="diff"><thead><tr><th>where</th><th>captured</th><th>target</th></tr></thead><tbody>${diffs.join('\n')}</tbody></table>` : ''}
</details>`;
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
td:not(:first-child) { text-align: right; }
.diff td { text-align: left; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; max-width: 50em; }
.good { color: #17651f; } .bad { color: #a11; }
tr.good td { color: inherit; } tr.bad td:first-child { font-weight: bold; }
details { margin: 1em 0; border-left: 3px solid #a11; padding-left: 1em; }
summary { cursor: pointer; font-weight: bold; }
.when { color: #666; }
`;
