/**
 * The small JSON path dialect of rules files, compiled to a regular expression over the paths the
 * comparison reports (`body.items[0].id`). Supported: `$` (the body), `.name`, `["name"]`, `[3]`,
 * `[*]` (any index), `.*` (any member) and `..name` (`name` at any depth below).
 */

/** How the comparison writes one step of a path: `.key` when plain, `["key"]` otherwise. */
export function memberStep(key: string): string {
  return /^[^.[\]"]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

const ANY_MEMBER = String.raw`(?:\.[^.[\]"]+|\["(?:[^"\\]|\\.)*"\])`;
const ANY_INDEX = String.raw`\[\d+\]`;

/** Compiles `$.items[*].id` and friends; throws on anything outside the dialect. */
export function compileJsonPath(path: string): RegExp {
  if (!path.startsWith('$')) throw new Error(`JSON path "${path}" must start with $`);
  let source = 'body';
  let rest = path.slice(1);
  while (rest) {
    const step = /^(\.\.|\.)(\*|[^.[\]"]+)|^\[(\*|\d+|"(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (!step) throw new Error(`JSON path "${path}": cannot read "${rest}"`);
    rest = rest.slice(step[0].length);
    if (step[3] !== undefined) {
      source += step[3] === '*' ? ANY_INDEX : escapeRegExp(`[${step[3]}]`);
      continue;
    }
    const deep = step[1] === '..' ? `(?:${ANY_MEMBER}|${ANY_INDEX})*` : '';
    source += deep + (step[2] === '*' ? ANY_MEMBER : escapeRegExp(memberStep(step[2] as string)));
  }
  return new RegExp(`^${source}$`);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
