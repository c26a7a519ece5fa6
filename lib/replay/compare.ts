/**
 * Comparing an answer with the captured one: the status, the headers that carry meaning, and the
 * body (decoded JSON compared as data, other bodies as text), after the rules' normalisations.
 */
import { CapturedResponse, HeaderList } from './capture';
import { diffJson } from './compare-json';
import type { CompareRules, Difference } from './compare-rules';

export const WORDPRESS_SIGNIFICANT_HEADERS = [
  'content-type', 'allow', 'x-wp-total', 'x-wp-totalpages', 'x-wp-nonce', 'link', 'cache-control', 'expires',
  'vary', 'x-robots-tag', 'x-content-type-options', 'access-control-allow-origin', 'access-control-allow-methods',
  'access-control-allow-credentials', 'access-control-allow-headers', 'access-control-expose-headers',
  'referrer-policy', 'x-frame-options', 'retry-after', 'content-disposition',
];

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
  diffs.push(...compareBodies(
    { text: expected.body ?? '', type: headerValue(expected.headers, 'content-type') },
    { text: actual.body, type: headerValue(actual.headers, 'content-type') },
    rules,
  ));
  return diffs;
}

/** The first value of a header, by case-insensitive name. */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === wanted)?.[1];
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

interface Body {
  text: string;
  type: string | undefined;
}

function compareBodies(expected: Body, actual: Body, rules: CompareRules): Difference[] {
  const want = applyReplacements(expected.text, rules);
  const got = applyReplacements(actual.text, rules);
  const wantJson = parseJsonBody(want, expected.type);
  const gotJson = parseJsonBody(got, actual.type);
  if (wantJson.ok && gotJson.ok) {
    const diffs: Difference[] = [];
    diffJson(wantJson.value, gotJson.value, 'body', rules, diffs);
    return diffs;
  }
  if (want === got) return [];
  if (rules.volatile.some((v) => v.body && v.pattern.test(want.trim()) && v.pattern.test(got.trim()))) return [];
  return [{ where: 'body', expected: clip(want), actual: clip(got) }];
}

function applyReplacements(text: string, rules: CompareRules): string {
  let out = text;
  for (const [from, to] of rules.replace) {
    if (!from) continue;
    out = out.split(from).join(to);
    // JSON bodies carry URLs with escaped slashes.
    out = out.split(from.replace(/\//g, '\\/')).join(to.replace(/\//g, '\\/'));
  }
  return out;
}

/**
 * A body is compared as JSON when it says so (a JSON or JSONP content type) or when it is an object or
 * a list. CASE: a bare `5e94078032` (an admin-ajax nonce) parses as the number Infinity, so scalars
 * that do not declare themselves JSON stay text.
 */
function parseJsonBody(text: string, contentType: string | undefined): { ok: true; value: unknown } | { ok: false } {
  const unwrapped = /^\/\*\*\/[\w.]+\(([\s\S]*)\)$/.exec(text)?.[1] ?? text;
  const declared = /json|javascript/i.test(contentType ?? '');
  if (!declared && !/^\s*[[{]/.test(unwrapped)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(unwrapped) };
  } catch {
    return { ok: false };
  }
}

export function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
