/**
 * PHP's parse_str(), which fills $_GET and $_POST: `+` is a space, `a[]=1&a[]=2` builds a list,
 * `a[k]=v` a map, and dots and spaces in the top-level name become underscores (`a.b` → `a_b`).
 */
export type PhpQueryValue = string | PhpQueryValue[] | { [key: string]: PhpQueryValue };

export function parsePhpQuery(text: string): Record<string, PhpQueryValue> {
  const out: Record<string, PhpQueryValue> = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawName = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const { base, path } = splitName(rawName);
    if (!base) continue;
    assign(out, base, path, value);
  }
  return out;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part.replace(/\+/g, ' ');
  }
}

/** The top-level name (mangled as PHP does) and the bracketed keys after it. */
function splitName(name: string): { base: string; path: string[] } {
  const trimmed = name.replace(/^ +/, '');
  const open = trimmed.indexOf('[');
  const head = open < 0 ? trimmed : trimmed.slice(0, open);
  const base = head.replace(/[. ]/g, '_');
  if (open < 0) return { base, path: [] };
  const path: string[] = [];
  const re = /\[([^\]]*)\]/gy;
  re.lastIndex = open;
  let match: RegExpExecArray | null;
  while ((match = re.exec(trimmed))) path.push(match[1] as string);
  // An unclosed bracket makes PHP treat the name as plain text, with the bracket turned into "_".
  if (!path.length) return { base: trimmed.replace(/[. []/g, '_'), path: [] };
  return { base, path };
}

function assign(target: Record<string, PhpQueryValue>, key: string, path: string[], value: string): void {
  if (!path.length) {
    target[key] = value;
    return;
  }
  const [next, ...rest] = path as [string, ...string[]];
  let container = target[key];
  if (typeof container !== 'object' || container === null) container = next === '' ? [] : {};
  if (Array.isArray(container) && next !== '' && !/^\d+$/.test(next)) container = { ...container };
  target[key] = container;
  const holder = container as Record<string, PhpQueryValue> & PhpQueryValue[];
  const childKey = next === '' ? String(Array.isArray(holder) ? holder.length : Object.keys(holder).length) : next;
  assign(holder as Record<string, PhpQueryValue>, childKey, rest, value);
}
