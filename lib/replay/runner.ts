/**
 * Replaying a capture: every exchange is sent to the target in capture order (captures may hold
 * writes whose order matters, so never in parallel), its answer compared with the captured one, and
 * the results grouped per route. Results are redacted here, so reports cannot leak credentials.
 */
import type { Exchange } from './capture';
import { compareResponses } from './compare';
import type { Difference } from './compare-rules';
import { secretsOf, secretsOfSubstitutions, substituteCredentials } from './credentials';
import { capturedHost, urlWithinSite } from './network-site';
import { Redactor } from './redact';
import { RequestTarget, routeKeyOf, targetOf } from './route-key';
import { ReplayRules, isExcluded, rulesFor } from './rules';
import { DEFAULT_TIMEOUT_MS, sendCaptured } from './send';

export type Outcome = 'matched' | 'differed' | 'failed' | 'excluded';

export interface ExchangeResult {
  index: number;
  name: string;
  route: string;
  /** A recording made in front of a network: the blog the exchange was for. */
  blogId?: number;
  method: string;
  /** The captured URL, with credentials redacted. */
  url: string;
  outcome: Outcome;
  expectedStatus: number;
  actualStatus?: number;
  diffs: Difference[];
  /** Why the exchange failed (no answer, timeout), redacted. */
  error?: string;
  ms: number;
}

export interface RouteSummary {
  route: string;
  matched: number;
  differed: number;
  failed: number;
  excluded: number;
}

export interface ReplayReport {
  target: string;
  startedAt: string;
  finishedAt: string;
  totals: Record<Outcome, number> & { exchanges: number };
  routes: RouteSummary[];
  results: ExchangeResult[];
}

export interface ReplayOptions {
  target: string;
  rules: ReplayRules;
  /** The route key of a request; the default collapses ids without knowing Understudy's routes. */
  routeOf?: (target: RequestTarget) => string;
  timeoutMs?: number;
  /** The capture is of a network, and so is the target: each exchange keeps its Host (network-site.ts). */
  network?: boolean;
  /** Called after each exchange (progress bars). */
  onResult?: (result: ExchangeResult, done: number, total: number) => void;
}

export async function runReplay(exchanges: readonly Exchange[], options: ReplayOptions): Promise<ReplayReport> {
  const startedAt = new Date().toISOString();
  const secretPatterns = options.rules.volatile.filter((v) => v.secret).map((v) => v.pattern);
  const redactor = new Redactor(
    [...exchanges.flatMap((e) => secretsOf(e.request)), ...secretsOfSubstitutions(options.rules.credentials)],
    secretPatterns,
  );
  const results: ExchangeResult[] = [];
  for (const [index, exchange] of exchanges.entries()) {
    const result = await replayOne(exchange, index, options, redactor);
    results.push(result);
    options.onResult?.(result, results.length, exchanges.length);
  }
  return { target: options.target, startedAt, finishedAt: new Date().toISOString(), totals: totalsOf(results), routes: summarise(results), results };
}

async function replayOne(exchange: Exchange, index: number, options: ReplayOptions, redactor: Redactor): Promise<ExchangeResult> {
  const { request } = exchange;
  const contentType = request.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const url = options.network ? urlWithinSite(request.url) : request.url;
  // A recording's route is the one the proxy read, within its site.
  const route = exchange.route ?? (options.routeOf ?? routeKeyOf)(targetOf(url, request.method, request.body, contentType));
  const base = {
    index, name: exchange.name, route, ...(exchange.blogId !== undefined ? { blogId: exchange.blogId } : {}), method: request.method, url: redactor.text(request.url),
    expectedStatus: exchange.response.status, diffs: [] as Difference[],
  };
  if (isExcluded(options.rules, route)) return { ...base, outcome: 'excluded', ms: 0 };
  // CASE: a recording cut this exchange's body: comparing it would report differences that are not.
  if (exchange.notComparable) return { ...base, outcome: 'excluded', error: `not comparable: ${exchange.notComparable}`, ms: 0 };
  const started = Date.now();
  try {
    const host = options.network ? capturedHost(request) : [];
    const actual = await sendCaptured(substituteCredentials(request, options.rules.credentials), options.target, host, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const rules = rulesFor(options.rules, request.method, route, hostReplacements(request.url, options.target));
    const diffs = compareResponses(exchange.response, actual, rules).map((d) => redactor.difference(d));
    return { ...base, outcome: diffs.length ? 'differed' : 'matched', actualStatus: actual.status, diffs, ms: Date.now() - started };
  } catch (err) {
    return { ...base, outcome: 'failed', error: redactor.text(err instanceof Error ? err.message : String(err)), ms: Date.now() - started };
  }
}

/**
 * The captured site and the target answer with their own addresses in links: both are written as
 * `{origin}` (scheme and host) or `{host}` before comparing.
 */
export function hostReplacements(capturedUrl: string, target: string): Array<[string, string]> {
  const captured = new URL(capturedUrl);
  const replay = new URL(target);
  return [
    [captured.origin, '{origin}'], [replay.origin, '{origin}'],
    [captured.host, '{host}'], [replay.host, '{host}'],
  ];
}

function totalsOf(results: readonly ExchangeResult[]): ReplayReport['totals'] {
  const totals = { exchanges: results.length, matched: 0, differed: 0, failed: 0, excluded: 0 };
  for (const r of results) totals[r.outcome]++;
  return totals;
}

/** Per-route counts, routes with problems first, then by name. */
function summarise(results: readonly ExchangeResult[]): RouteSummary[] {
  const byRoute = new Map<string, RouteSummary>();
  for (const r of results) {
    const summary = byRoute.get(r.route) ?? { route: r.route, matched: 0, differed: 0, failed: 0, excluded: 0 };
    summary[r.outcome]++;
    byRoute.set(r.route, summary);
  }
  const troubled = (s: RouteSummary) => (s.differed + s.failed > 0 ? 0 : 1);
  return [...byRoute.values()].sort((a, b) => troubled(a) - troubled(b) || a.route.localeCompare(b.route));
}
