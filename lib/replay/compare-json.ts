/**
 * Data comparison of two decoded JSON bodies: same types, same members (object key order ignored),
 * same list order unless the rules call a list unordered. Volatile strings and numbers compare by shape.
 */
import type { CompareRules, Difference } from './compare-rules';
import { memberStep } from './json-path';

export function diffJson(want: unknown, got: unknown, path: string, rules: CompareRules, out: Difference[]): void {
  if (isScalar(want) && isScalar(got) && typeof want === typeof got) {
    if (want !== got && !isVolatile(String(want), String(got), path, rules)) out.push(scalarDiff(path, want, got));
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    if (rules.unorderedLists?.some((p) => p.test(path))) return diffUnordered(want, got, path, rules, out);
    if (want.length !== got.length) out.push({ where: `${path}.length`, expected: String(want.length), actual: String(got.length) });
    for (let i = 0; i < Math.min(want.length, got.length); i++) diffJson(want[i], got[i], `${path}[${i}]`, rules, out);
    return;
  }
  if (isObject(want) && isObject(got)) {
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      const at = path + memberStep(key);
      if (!(key in got)) out.push({ where: at, expected: show(want[key]), actual: '(absent)' });
      else if (!(key in want)) out.push({ where: at, expected: '(absent)', actual: show(got[key]) });
      else diffJson(want[key], got[key], at, rules, out);
    }
    return;
  }
  if (JSON.stringify(want) !== JSON.stringify(got)) out.push({ where: path, expected: show(want), actual: show(got) });
}

/**
 * A multiset comparison: every expected element is paired with an equal actual one (equal under the
 * rules); what is left over on either side is compared pairwise in order, so the report still shows
 * which members differ rather than just "lists differ".
 */
function diffUnordered(want: unknown[], got: unknown[], path: string, rules: CompareRules, out: Difference[]): void {
  const unmatched = got.map((value, index) => ({ value, index }));
  const leftover: Array<{ value: unknown; index: number }> = [];
  want.forEach((value, index) => {
    const pair = unmatched.findIndex((g) => equalUnder(value, g.value, rules, `${path}[${index}]`));
    if (pair >= 0) unmatched.splice(pair, 1);
    else leftover.push({ value, index });
  });
  if (want.length !== got.length) out.push({ where: `${path}.length`, expected: String(want.length), actual: String(got.length) });
  for (let i = 0; i < Math.max(leftover.length, unmatched.length); i++) {
    const w = leftover[i];
    const g = unmatched[i];
    if (w && g) diffJson(w.value, g.value, `${path}[${w.index}]`, rules, out);
    else if (w) out.push({ where: `${path}[${w.index}]`, expected: show(w.value), actual: '(absent)' });
    else if (g) out.push({ where: `${path}[${g.index}]`, expected: '(absent)', actual: show(g.value) });
  }
}

function equalUnder(want: unknown, got: unknown, rules: CompareRules, path: string): boolean {
  const diffs: Difference[] = [];
  diffJson(want, got, path, rules, diffs);
  return diffs.length === 0;
}

function isVolatile(want: string, got: string, path: string, rules: CompareRules): boolean {
  return rules.volatile.some((v) => v.jsonPath?.test(path) && v.pattern.test(want) && v.pattern.test(got));
}

function scalarDiff(path: string, want: unknown, got: unknown): Difference {
  return { where: path, expected: show(want), actual: show(got) };
}

function isScalar(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** Strings are shown bare (the empty one as ""), everything else as JSON; long values are clipped. */
function show(value: unknown): string {
  const text = typeof value === 'string' ? value || '""' : JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
