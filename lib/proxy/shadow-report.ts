/**
 * `understudy shadow report`: the stored shadow evidence of a period, per route: counts, match rate,
 * the fields that differed most (with a redacted example each) and a verdict, the line a team reads
 * before moving a route from shadow to serve.
 */
import type { Difference } from '../replay/compare-rules';
import type { StoredEvidence } from './shadow-store';
import { RouteCounters, matchRate } from './stats';

export const SHADOW_REPORT_FORMAT = 'understudy-shadow-report/1';

export interface VerdictThresholds {
  /** Comparisons needed before a route can be called ready (100). */
  minCompared: number;
  /** Share of comparisons (failed ones included) that must match (0.999). */
  minRate: number;
}

export interface FieldSummary {
  /** Where the answers differed, list indexes written `[*]` (`body[*].status`). */
  where: string;
  /** Kept differing exchanges showing it. */
  count: number;
  example: { method: string; url: string; seenAt: string } & Difference;
}

export interface RouteReport extends RouteCounters {
  route: string;
  matchRate: number | null;
  ready: boolean;
  verdict: string;
  topFields: FieldSummary[];
  /** Differing exchanges kept in the store for this route (the latest ones). */
  differencesKept: number;
}

export interface ShadowReport {
  format: typeof SHADOW_REPORT_FORMAT;
  since: string;
  until: string;
  /** The period in words: "7 days". */
  period: string;
  routes: RouteReport[];
  totals: RouteCounters & { matchRate: number | null };
}

const TOP_FIELDS = 10;

export function buildShadowReport(evidence: readonly StoredEvidence[], since: Date, until: Date, period: string, thresholds: VerdictThresholds): ShadowReport {
  const totals: RouteCounters = { compared: 0, matched: 0, differed: 0, noiseCancelled: 0, failed: 0, dropped: 0, skipped: 0 };
  const routes = evidence.map((e) => {
    for (const key of Object.keys(totals) as Array<keyof RouteCounters>) totals[key] += e.counters[key];
    const { ready, verdict } = verdictOf(e.counters, period, thresholds);
    return { route: e.route, ...e.counters, matchRate: matchRate(e.counters), ready, verdict, topFields: topFields(e), differencesKept: e.differences.length };
  });
  return { format: SHADOW_REPORT_FORMAT, since: since.toISOString(), until: until.toISOString(), period, routes, totals: { ...totals, matchRate: matchRate(totals) } };
}

/** "ready to serve: matched 12,345 of 12,351 over 7 days", or why not. */
export function verdictOf(c: RouteCounters, period: string, t: VerdictThresholds): { ready: boolean; verdict: string } {
  if (!c.compared && !c.failed) return { ready: false, verdict: `no evidence: nothing compared over ${period}` };
  const agreed = c.matched + c.noiseCancelled;
  const figures = `matched ${count(agreed)} of ${count(c.compared)} over ${period}${c.failed ? `, ${count(c.failed)} failed` : ''}`;
  if (c.compared < t.minCompared) return { ready: false, verdict: `not enough traffic yet: ${figures} (${count(t.minCompared)} comparisons wanted)` };
  if (agreed / (c.compared + c.failed) >= t.minRate) return { ready: true, verdict: `ready to serve: ${figures}` };
  return { ready: false, verdict: `not ready: ${figures}; ${count(c.differed)} differed` };
}

/** The report as text: a line per route with its verdict, then its most differing fields. */
export function shadowReportLines(report: ShadowReport): string[] {
  const out = [`Shadow evidence from ${report.since} to ${report.until} (${report.period})`];
  if (!report.routes.length) out.push('No shadow traffic was recorded in this period.');
  for (const r of report.routes) {
    const rate = r.matchRate === null ? '-' : `${(r.matchRate * 100).toFixed(2)}%`;
    out.push('', `${r.route}: ${r.verdict}`);
    out.push(`  compared ${count(r.compared)}, match rate ${rate}, matched ${count(r.matched)}, noise cancelled ${count(r.noiseCancelled)}, differed ${count(r.differed)}, failed ${count(r.failed)}, dropped ${count(r.dropped)}, skipped ${count(r.skipped)}`);
    if (r.topFields.length) out.push(`  most differing fields (in the ${r.differencesKept} latest differing exchanges kept):`);
    for (const f of r.topFields) {
      out.push(`    ${f.where} (${f.count}x), e.g. ${f.example.method} ${f.example.url}`, `      - upstream    ${oneLine(f.example.expected)}`, `      + understudy  ${oneLine(f.example.actual)}`);
    }
  }
  return out;
}

/** Fields by how many kept exchanges differed there, each with the latest example. */
function topFields(e: StoredEvidence): FieldSummary[] {
  const fields = new Map<string, FieldSummary>();
  for (const d of e.differences) {
    const seen = new Set<string>();
    for (const diff of d.diffs) {
      const where = diff.where.replace(/\[\d+\]/g, '[*]');
      if (seen.has(where)) continue;
      seen.add(where);
      const field = fields.get(where);
      if (field) field.count++;
      else fields.set(where, { where, count: 1, example: { method: d.method, url: d.url, seenAt: new Date(d.seenAt * 1000).toISOString(), ...diff } });
    }
  }
  return [...fields.values()].sort((a, b) => b.count - a.count || rank(a.where) - rank(b.where) || a.where.localeCompare(b.where)).slice(0, TOP_FIELDS);
}

/** Among fields as frequent, the status first, then the body, then headers: the order they matter to clients. */
function rank(where: string): number {
  if (where === 'status') return 0;
  return where.startsWith('header ') ? 2 : 1;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function oneLine(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
