/**
 * The shadow report as one self-contained HTML page, under the replay report's rules: inline CSS, no
 * scripts, nothing fetched, a CSP forbidding both, and every stored value (routes, URLs, answers'
 * fragments, all from traffic) escaped.
 */
import { escapeHtml } from '../replay/report/html';
import type { FieldSummary, RouteReport, ShadowReport } from './shadow-report';

export function shadowReportHtml(report: ShadowReport): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Understudy shadow report</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Shadow evidence</h1>
<p class="when">From ${escapeHtml(report.since)} to ${escapeHtml(report.until)} (${escapeHtml(report.period)})</p>
${report.routes.length ? routeTable(report.routes) : '<p>No shadow traffic was recorded in this period.</p>'}
${report.routes.filter((r) => r.topFields.length).map(fieldsSection).join('\n')}
</body>
</html>
`;
}

function routeTable(routes: readonly RouteReport[]): string {
  const rows = routes.map((r) => `<tr class="${r.ready ? 'good' : 'bad'}"><td>${escapeHtml(r.route)}</td><td>${r.compared}</td>`
    + `<td>${r.matchRate === null ? '-' : `${(r.matchRate * 100).toFixed(2)}%`}</td><td>${r.matched}</td><td>${r.noiseCancelled}</td>`
    + `<td>${r.differed}</td><td>${r.failed}</td><td>${r.dropped}</td><td>${r.skipped}</td><td class="verdict">${escapeHtml(r.verdict)}</td></tr>`);
  return `<table><thead><tr><th>route</th><th>compared</th><th>match rate</th><th>matched</th><th>noise cancelled</th><th>differed</th>`
    + `<th>failed</th><th>dropped</th><th>skipped</th><th>verdict</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

function fieldsSection(route: RouteReport): string {
  return `<details open>
<summary>${escapeHtml(route.route)}: most differing fields in the ${route.differencesKept} latest differing exchanges</summary>
<table class="diff"><thead><tr><th>where</th><th>exchanges</th><th>example</th><th>upstream</th><th>Understudy</th></tr></thead>
<tbody>${route.topFields.map(fieldRow).join('\n')}</tbody></table>
</details>`;
}

function fieldRow(f: FieldSummary): string {
  return `<tr><td>${escapeHtml(f.where)}</td><td>${f.count}</td><td><code>${escapeHtml(`${f.example.method} ${f.example.url}`)}</code><br>${escapeHtml(f.example.seenAt)}</td>`
    + `<td><pre>${escapeHtml(f.example.expected)}</pre></td><td><pre>${escapeHtml(f.example.actual)}</pre></td></tr>`;
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; max-width: 40em; }
tr.good .verdict { color: #17651f; } tr.bad .verdict { color: #a11; }
details { margin: 1em 0; border-left: 3px solid #a11; padding-left: 1em; }
summary { cursor: pointer; font-weight: bold; }
.when { color: #666; }
`;
