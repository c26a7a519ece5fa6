/**
 * Comparing an answer with the captured one: the status, the headers that carry meaning, and the
 * body (decoded JSON compared as data, other bodies as text), after the rules' normalisations.
 */
import { CapturedResponse, HeaderList } from './capture';

export interface CompareRules {
  /** Lower-case header names compared between the two answers (absent on one side counts). */
  significantHeaders: string[];
  /** Replace these strings in both answers before comparing (e.g. the captured host by the target's). */
  replace: Array<[string, string]>;
  /** Header and JSON values matching these are compared by shape only (e.g. nonces). */
  volatile: Array<{ header?: string; jsonPath?: RegExp; pattern: RegExp; placeholder: string }>;
}

export const WORDPRESS_SIGNIFICANT_HEADERS = [
  'content-type', 'allow', 'x-wp-total', 'x-wp-totalpages', 'x-wp-nonce', 'link', 'cache-control', 'expires',
  'vary', 'x-robots-tag', 'x-content-type-options', 'access-control-allow-origin', 'access-control-allow-methods',
  'access-control-allow-credentials', 'access-control-allow-headers', 'access-control-expose-headers',
  'referrer-policy', 'x-frame-options', 'retry-after', 'content-disposition',
];

export interface Difference {
  where: string;
  expected: string;
  actual: string;
}

export interface ActualResponse {
  status: number;
  headers: HeaderList;
  body: string;
}

export function compareResponses(expected: CapturedResponse, actual: ActualResponse, rules: CompareRules): Difference[] {
  const diffs: Difference[] = [];
  if (expected.status !== actual.status) diffs.push({ where: 'status', expected: String(expected.status), actual: String(actual.status) });
  const want = headerMap(expected.headers, rules);
  const got = headerMap(actual.headers, rules);
  for (const name of rules.significantHeaders) {
    if (want.get(name) !== got.get(name)) diffs.push({ where: `header ${name}`, expected: want.get(name) ?? '(absent)', actual: got.get(name) ?? '(absent)' });
  }
  diffs.push(...compareBodies(expected.body ?? '', actual.body, rules));
  return diffs;
}

function headerMap(headers: HeaderList, rules: CompareRules): Map<string, string> {
  const map = new Map<string, string>();
  for (const [rawName, rawValue] of headers) {
    const name = rawName.toLowerCase();
    let value = applyReplacements(rawValue, rules);
    for (const v of rules.volatile) if (v.header === name && v.pattern.test(value)) value = v.placeholder;
    map.set(name, map.has(name) ? `${map.get(name)}, ${value}` : value);
  }
  return map;
}

function compareBodies(expected: string, actual: string, rules: CompareRules): Difference[] {
  const want = applyReplacements(expected, rules);
  const got = applyReplacements(actual, rules);
  const wantJson = tryJson(want);
  const gotJson = tryJson(got);
  if (wantJson.ok && gotJson.ok) {
    const diffs: Difference[] = [];
    diffJson(wantJson.value, gotJson.value, 'body', rules, diffs);
    return diffs;
  }
  return want === got ? [] : [{ where: 'body', expected: clip(want), actual: clip(got) }];
}

/** Data comparison: same types, same members (order of object keys ignored), same list order. */
function diffJson(want: unknown, got: unknown, path: string, rules: CompareRules, out: Difference[]): void {
  if (typeof want === 'string' && typeof got === 'string') {
    const volatile = rules.volatile.find((v) => v.jsonPath?.test(path) && v.pattern.test(want) && v.pattern.test(got));
    if (!volatile && want !== got) out.push({ where: path, expected: clip(want), actual: clip(got) });
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    if (want.length !== got.length) out.push({ where: `${path}.length`, expected: String(want.length), actual: String(got.length) });
    for (let i = 0; i < Math.min(want.length, got.length); i++) diffJson(want[i], got[i], `${path}[${i}]`, rules, out);
    return;
  }
  if (isObject(want) && isObject(got)) {
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      if (!(key in got)) out.push({ where: `${path}.${key}`, expected: clip(JSON.stringify(want[key])), actual: '(absent)' });
      else if (!(key in want)) out.push({ where: `${path}.${key}`, expected: '(absent)', actual: clip(JSON.stringify(got[key])) });
      else diffJson(want[key], got[key], `${path}.${key}`, rules, out);
    }
    return;
  }
  if (JSON.stringify(want) !== JSON.stringify(got)) out.push({ where: path, expected: clip(JSON.stringify(want)), actual: clip(JSON.stringify(got)) });
}

function applyReplacements(text: string, rules: CompareRules): string {
  let out = text;
  for (const [from, to] of rules.replace) {
    out = out.split(from).join(to);
    // JSON bodies carry URLs with escaped slashes.
    out = out.split(from.replace(/\//g, '\\/')).join(to.replace(/\//g, '\\/'));
  }
  return out;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const unwrapped = /^\/\*\*\/[\w.]+\(([\s\S]*)\)$/.exec(text)?.[1] ?? text;
  try {
    return { ok: true, value: JSON.parse(unwrapped) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
