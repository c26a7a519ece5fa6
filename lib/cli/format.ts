/**
 * Printing values and lists the way WP-CLI prints them: `--format=json` is PHP's json_encode (so `/`
 * comes out as `\/`, as WP-CLI writes it), tables use WP-CLI's ASCII borders, CSV follows fputcsv.
 * Arrays printed without a format are shown as indented JSON without PHP's escaping, for reading.
 */
import { phpJsonEncode } from '../wp/php/json';
import { PhpArray, PhpFloat, PhpObject, PhpValue, phpFloatToString } from '../wp/php';

/** True for the values that print as JSON rather than as text: PHP arrays and objects. */
export function isContainer(value: unknown): value is PhpValue[] | PhpArray | PhpObject {
  return Array.isArray(value) || value instanceof PhpArray || value instanceof PhpObject;
}

/** A scalar as PHP's `echo` would print it (true → `1`, false and null → nothing). */
export function phpText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === true) return '1';
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof PhpFloat) return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : phpFloatToString(value);
  return String(value);
}

/** json_encode() of a stored value: PHP arrays keep their key order; lists stay lists. */
export function phpJson(value: PhpValue): string {
  return phpJsonEncode(jsonable(value));
}

/** Indented JSON for people: key order kept, nothing escaped that need not be. */
export function readableJson(value: PhpValue): string {
  return pretty(jsonable(value), '');
}

/** The shape php-json encodes as PHP would: a Map is a PHP array, a plain object a PHP object. */
function jsonable(value: PhpValue): unknown {
  if (Array.isArray(value)) return value.map(jsonable);
  if (value instanceof PhpArray) return new Map(Array.from(value, ([key, item]) => [key, jsonable(item)]));
  if (value instanceof PhpObject) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value.properties) {
      // json_encode shows public properties only (private and protected names start with NUL).
      if (!(typeof key === 'string' && key.startsWith('\0'))) out[String(key)] = jsonable(item);
    }
    return out;
  }
  if (value === null || typeof value !== 'object' || value instanceof PhpFloat) return value;
  return null; // C:, E:, r: values have no JSON form
}

function pretty(value: unknown, indent: string): string {
  const inner = `${indent}    `;
  if (value instanceof Map) {
    const entries = Array.from(value.entries());
    if (entries.every(([key], i) => key === i)) return pretty(entries.map(([, item]) => item), indent);
    return wrap('{', '}', entries.map(([key, item]) => `${JSON.stringify(String(key))}: ${pretty(item, inner)}`), indent);
  }
  if (Array.isArray(value)) return wrap('[', ']', value.map((item) => pretty(item, inner)), indent);
  if (value instanceof PhpFloat) return String(value.value);
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object') {
    return wrap('{', '}', Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pretty(item, inner)}`), indent);
  }
  return JSON.stringify(value) ?? 'null';
}

function wrap(open: string, close: string, parts: string[], indent: string): string {
  if (!parts.length) return open + close;
  return `${open}\n${indent}    ${parts.join(`,\n${indent}    `)}\n${indent}${close}`;
}

export type Row = Record<string, string | number>;

/** WP-CLI's ASCII table: `+---+` rules, cells padded to the widest value of their column. */
export function asciiTable(fields: readonly string[], rows: readonly Row[]): string[] {
  const cells = rows.map((row) => fields.map((field) => String(row[field] ?? '')));
  const widths = fields.map((field, i) => Math.max(width(field), ...cells.map((row) => width(row[i] as string))));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const render = (values: readonly string[]) => `| ${values.map((v, i) => v + ' '.repeat((widths[i] as number) - width(v))).join(' | ')} |`;
  return [rule, render(fields), rule, ...cells.map(render), rule];
}

/** Lines of CSV as PHP's fputcsv writes them: a field is quoted when it holds `,` `"` `\` whitespace. */
export function csvLines(fields: readonly string[], rows: readonly Row[]): string[] {
  const cell = (value: string | number | undefined) => {
    const text = String(value ?? '');
    return /[,"\\\n\r\t ]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [fields.map(cell).join(','), ...rows.map((row) => fields.map((field) => cell(row[field])).join(','))];
}

/** Display width in characters (code points), as the table pads by. */
function width(text: string): number {
  return Array.from(text).length;
}
