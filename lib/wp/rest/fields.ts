/**
 * WP: rest_filter_response_fields(): `_fields=a,b.c` keeps only those members (dot paths reach into
 * nested objects), in the data's own key order, and applies to each item of a list.
 */
import { PhpQueryValue, setOwn } from '../http/php-query';
import { PhpJsonEncoded } from '../php/json';

type FieldTree = { [key: string]: FieldTree | true };

/** WP: wp_parse_list(): a list as is, a string split on commas and whitespace; each field trimmed. */
export function parseFieldList(fieldsParam: unknown): string[] {
  const list = Array.isArray(fieldsParam)
    ? fieldsParam.map((f) => (typeof f === 'string' ? f : ''))
    : typeof fieldsParam === 'string' ? fieldsParam.split(/[\s,]+/) : [];
  return list.map((f) => f.trim()).filter((f) => f !== '');
}

export function filterFields(data: unknown, fieldsParam: PhpQueryValue | unknown): unknown {
  const fields = parseFieldList(fieldsParam);
  if (!fields.length) return data;
  const tree = buildTree(fields);
  return Array.isArray(data) ? data.map((item) => intersect(item, tree)) : intersect(data, tree);
}

function buildTree(fields: string[]): FieldTree {
  // Prototype-free nodes: a field named `__proto__` or `toString` is just a name.
  const tree: FieldTree = Object.create(null);
  for (const field of fields) {
    const parts = field.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      // WP (`break 2`): a sub-field of a field already kept whole ends the reading of the list, so
      // `_fields=a,a.b,c` keeps only `a`. Surprising, but it is what clients of WordPress get.
      if (next === true) return tree;
      node = node[part] = next ?? Object.create(null);
    }
    node[parts[parts.length - 1] as string] = true;
  }
  return tree;
}

/**
 * WP: _rest_array_intersect_key_recursive(): members named in the tree; a nested PHP array (a JS
 * object or list) is filtered again by its sub-tree, so a list under a dot path keeps only the
 * indexes named (usually none); scalars are kept as they are.
 */
function intersect(encoded: unknown, tree: FieldTree): unknown {
  // A kept encoding is filtered as the value it holds.
  const value = encoded instanceof PhpJsonEncoded ? encoded.value : encoded;
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const kept = value.flatMap((item, i) => (tree[String(i)] === undefined ? [] : [[i, item] as const]));
    const isList = kept.every(([i], n) => i === n);
    const filtered = kept.map(([i, item]) => [i, nested(item, tree[String(i)] as FieldTree | true)] as const);
    return isList ? filtered.map(([, item]) => item) : Object.fromEntries(filtered);
  }
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const rule = tree[key];
    if (rule === undefined) continue;
    setOwn(out, key, nested(member, rule));
  }
  return out;
}

function nested(member: unknown, rule: FieldTree | true): unknown {
  return rule === true || !member || typeof member !== 'object' ? member : intersect(member, rule);
}
