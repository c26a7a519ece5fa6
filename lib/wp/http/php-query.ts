/**
 * PHP's parse_str(), which fills $_GET and $_POST: `+` is a space, `a[]=1&a[]=2` builds a list,
 * `a[k]=v` a map, and dots and spaces in the top-level name become underscores (`a.b` → `a_b`).
 * Also the other direction, as WordPress builds URLs: urlencode() and add_query_arg().
 */
export type PhpQueryValue = string | PhpQueryValue[] | { [key: string]: PhpQueryValue };

/** A PHP array while it is being filled: keys in insertion order, and the next free integer key. */
interface PhpArray {
  entries: Map<string, PhpNode>;
  nextIndex: number;
}
type PhpNode = string | PhpArray;

/**
 * PHP's limits on input variables (php.ini), which also keep a hostile request cheap: at most
 * `max_input_nesting_level` (64) bracket levels, and at most `max_input_vars` (1000) variables.
 */
export const MAX_INPUT_NESTING_LEVEL = 64;
export const MAX_INPUT_VARS = 1000;

/** How a source counts its variables against max_input_vars. */
export interface PhpInputCount {
  /** Variables kept before PHP stops reading. */
  maxVars: number;
  /** Whether an empty `&&` segment counts (it does in a POST body, not in a query string). */
  countEmpty: boolean;
}

/** $_GET and parse_str(): the count is checked before each variable, so 1000 are kept. */
export const QUERY_COUNT: PhpInputCount = { maxVars: MAX_INPUT_VARS, countEmpty: false };
/**
 * A form-encoded POST body: PHP registers each variable and only then counts it, so the 1001st is
 * still kept before it stops; every segment counts, empty ones too.
 */
export const FORM_BODY_COUNT: PhpInputCount = { maxVars: MAX_INPUT_VARS + 1, countEmpty: true };

export function parsePhpQuery(text: string, count: PhpInputCount = QUERY_COUNT): Record<string, PhpQueryValue> {
  const pairs: Array<[string, string]> = [];
  let seen = 0;
  for (const pair of text.split('&')) {
    if (!pair && !count.countEmpty) continue;
    if (++seen > count.maxVars) break;
    if (!pair) continue;
    const eq = pair.indexOf('=');
    pairs.push([phpUrldecode(eq < 0 ? pair : pair.slice(0, eq)), eq < 0 ? '' : phpUrldecode(pair.slice(eq + 1))]);
  }
  return phpArrayFromPairs(pairs);
}

/**
 * WP/PHP: php_register_variable_ex() for each decoded name and value, in order. A name nested deeper
 * than max_input_nesting_level drops its value and removes what its top-level name held so far.
 */
export function phpArrayFromPairs(pairs: Iterable<[string, string]>): Record<string, PhpQueryValue> {
  const root: PhpArray = { entries: new Map(), nextIndex: 0 };
  for (const [rawName, value] of pairs) {
    const name = splitName(rawName);
    if (!name) continue;
    if (name.tooDeep) root.entries.delete(name.base);
    else assign(root, [name.base, ...name.path], value);
  }
  return toObject(root);
}

/** PHP's urldecode(): `+` is a space and `%XX` a byte; a malformed escape stays as written. */
export function phpUrldecode(part: string): string {
  if (!part.includes('%')) return part.replace(/\+/g, ' ');
  const bytes: number[] = [];
  const text = Buffer.from(part.replace(/\+/g, ' '), 'utf8');
  const isHex = (b: number | undefined) => b !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(b));
  for (let i = 0; i < text.length; i++) {
    if (text[i] === 0x25 && isHex(text[i + 1]) && isHex(text[i + 2])) {
      bytes.push(parseInt(String.fromCharCode(text[i + 1] as number, text[i + 2] as number), 16));
      i += 2;
    } else {
      bytes.push(text[i] as number);
    }
  }
  // PHP keeps the bytes as they are; a JS string shows invalid UTF-8 as U+FFFD.
  return Buffer.from(bytes).toString('utf8');
}

const PLAIN_URL_TEXT = /^[A-Za-z0-9_.-]*$/;

/** PHP's urlencode(): letters, digits and `-_.` stay, a space is `+`, every other byte is `%XX`. */
export function phpUrlencode(text: string): string {
  // Most values (a status, a page number) have nothing to encode.
  if (PLAIN_URL_TEXT.test(text)) return text;
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * WP: add_query_arg( urlencode_deep( $params ), $url ): the URL's own query is parsed and re-encoded,
 * the new parameters (already encoded) replace same-named ones in place or are appended, nested
 * values become `a%5Bk%5D=v`, and an empty value loses its `=`.
 */
export function addQueryArgs(url: string, params: Array<[string, PhpQueryValue | number]>): string {
  const hash = url.indexOf('#');
  const fragment = hash < 0 ? '' : url.slice(hash);
  const withoutFragment = hash < 0 ? url : url.slice(0, hash);
  const q = withoutFragment.indexOf('?');
  const base = q < 0 ? withoutFragment : withoutFragment.slice(0, q);
  const merged = new Map<string, PhpQueryValue>();
  if (q >= 0) for (const [k, v] of Object.entries(parsePhpQuery(withoutFragment.slice(q + 1)))) merged.set(k, encodeDeep(v));
  for (const [k, v] of params) merged.set(k, typeof v === 'number' ? String(v) : encodeDeep(v));
  const query = buildQuery([...merged]).replace(/=(&|$)/g, '$1');
  return (query ? `${base}?${query}` : base) + fragment;
}

/** WP: urlencode_deep(). */
function encodeDeep(value: PhpQueryValue): PhpQueryValue {
  if (typeof value === 'string') return phpUrlencode(value);
  if (Array.isArray(value)) return value.map(encodeDeep);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeDeep(v)]));
}

/** WP: build_query() = _http_build_query() without encoding: `k=v`, nested keys as `k%5Bsub%5D`. */
function buildQuery(entries: Array<[string, PhpQueryValue]>, prefix = ''): string {
  const parts: string[] = [];
  for (const [rawKey, value] of entries) {
    const key = prefix ? `${prefix}%5B${rawKey}%5D` : rawKey;
    if (typeof value === 'string') parts.push(`${key}=${value}`);
    else parts.push(buildQuery(Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value), key));
  }
  return parts.filter((p) => p !== '').join('&');
}

interface SplitName {
  base: string;
  path: string[];
  /** More bracket levels than max_input_nesting_level. */
  tooDeep: boolean;
}

/** The top-level name (mangled as PHP does) and the bracketed keys after it; null for an empty name. */
function splitName(name: string): SplitName | null {
  // PHP skips leading spaces, then reads the name as a C string: it ends at the first NUL byte.
  const trimmed = name.replace(/^ +/, '').split('\0', 1)[0] as string;
  const open = trimmed.indexOf('[');
  const head = open < 0 ? trimmed : trimmed.slice(0, open);
  const base = head.replace(/[. ]/g, '_');
  if (open < 0) return base ? { base, path: [], tooDeep: false } : null;
  if (!base) return null;
  const path: string[] = [];
  const re = /\[([^\]]*)\]/gy;
  re.lastIndex = open;
  let match: RegExpExecArray | null;
  // Reading stops one level past the limit, so a hostile name costs no more than a legal one.
  while (path.length <= MAX_INPUT_NESTING_LEVEL && (match = re.exec(trimmed))) path.push(match[1] as string);
  if (path.length > MAX_INPUT_NESTING_LEVEL) return { base, path: [], tooDeep: true };
  // An unclosed bracket makes PHP treat the name as plain text, with the bracket turned into "_".
  if (!path.length) return { base: trimmed.replace(/[. []/g, '_'), path: [], tooDeep: false };
  return { base, path, tooDeep: false };
}

/** PHP array keys: a canonical decimal integer string is an integer key. */
function integerKey(key: string): number | null {
  return /^(?:0|-?[1-9]\d{0,17})$/.test(key) ? Number(key) : null;
}

function assign(root: PhpArray, path: string[], value: string): void {
  let target = root;
  for (let i = 0; i < path.length; i++) {
    // `name[]` takes the next free integer key: one more than the largest used (never below 0 in PHP 8.2).
    const key = path[i] === '' ? String(target.nextIndex) : (path[i] as string);
    const n = integerKey(key);
    if (n !== null && n >= target.nextIndex) target.nextIndex = n + 1;
    if (i === path.length - 1) {
      target.entries.set(key, value);
      return;
    }
    let child = target.entries.get(key);
    if (child === undefined || typeof child === 'string') {
      child = { entries: new Map(), nextIndex: 0 };
      target.entries.set(key, child);
    }
    target = child;
  }
}

/** A PHP array as JSON shows it: a list when its keys are 0..n-1 in order, else a map. */
function toValue(node: PhpNode): PhpQueryValue {
  if (typeof node === 'string') return node;
  const keys = [...node.entries.keys()];
  if (keys.every((k, i) => k === String(i))) return [...node.entries.values()].map(toValue);
  return toObject(node);
}

function toObject(node: PhpArray): Record<string, PhpQueryValue> {
  const out: Record<string, PhpQueryValue> = {};
  for (const [k, v] of node.entries) setOwn(out, k, toValue(v));
  return out;
}

/** `target[key] = value` as a plain data property, so that a name like `__proto__` is just a name, as in PHP. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
