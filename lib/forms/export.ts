/**
 * Submissions as CSV for a spreadsheet: RFC 4180 quoting, CRLF line ends, a UTF-8 byte order mark
 * (so Excel reads accents right), and spreadsheet formulas neutralised: a cell that starts with `=`,
 * `+`, `-`, `@` (or a tab or carriage return, which some spreadsheets skip before a formula) gets a
 * leading `'`, so a visitor's "=HYPERLINK(...)" is shown as text and never evaluated.
 */
import type { Submission } from './store';
import { fieldText } from './variables';

const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** The CSV file of `submissions`: fixed columns around one column per field name, in first-seen order. */
export function submissionsCsv(submissions: readonly Submission[]): string {
  const fields = fieldColumns(submissions);
  const header = ['ID', 'Submitted at (UTC)', ...fields, 'IP address', 'User agent', 'Referrer URL', 'Spam'];
  const rows = submissions.map((s) => [
    String(s.id), s.submittedAt, ...fields.map((name) => fieldText(Object.hasOwn(s.data, name) ? s.data[name] : undefined)),
    s.ipAddress, s.userAgent, s.refererUrl, s.isSpam ? 'yes' : 'no',
  ]);
  return BOM + [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** One cell: neutralised when it could start a formula, quoted when it holds a quote, comma or line break. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * A download name from the form's slug and the day: `contact-submissions-2026-11-22.csv`. The
 * percent-encoded octets of a non-Latin slug (`%d0%bc…`) are left out rather than spelled as hex.
 */
export function exportFilename(slug: string, utcDate: string): string {
  const base = slug.toLowerCase().replace(/%[0-9a-f]{2}/g, '').replace(/[^a-z0-9-]+/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '') || 'form';
  return `${base}-submissions-${utcDate.slice(0, 10)}.csv`;
}

function fieldColumns(submissions: readonly Submission[]): string[] {
  const seen = new Set<string>();
  for (const submission of submissions) for (const name of Object.keys(submission.data)) seen.add(name);
  return [...seen];
}
