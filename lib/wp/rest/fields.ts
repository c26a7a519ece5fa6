/**
 * WP: rest_filter_response_fields(): `_fields=a,b.c` keeps only those members (dot paths reach into
 * nested objects), in the data's own key order, and applies to each item of a list.
 */
type FieldTree = { [key: string]: FieldTree | true };

export function filterFields(data: unknown, fieldsParam: string): unknown {
  const fields = fieldsParam.split(/[\s,]+/).map((f) => f.trim()).filter(Boolean);
  if (!fields.length) return data;
  const tree = buildTree(fields);
  return Array.isArray(data) ? data.map((item) => intersect(item, tree)) : intersect(data, tree);
}

function buildTree(fields: string[]): FieldTree {
  const tree: FieldTree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next === true) break;
      node = node[part] = next ?? {};
    }
    node[parts[parts.length - 1] as string] = true;
  }
  return tree;
}

function intersect(value: unknown, tree: FieldTree): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const rule = tree[key];
    if (rule === undefined) continue;
    out[key] = rule === true ? member : intersect(member, rule);
  }
  return out;
}
