/**
 * `$ref` in the schemas of schema/: a schema names another document by its `$id`, and a place in it
 * by a JSON Pointer (`common#/$defs/id`, `ticket#/properties/status`, or `message` for a whole
 * document). WordPress has no `$ref` (its arg validator and its OPTIONS output see plain schemas), so
 * refs are resolved here, once, before args are compiled (one ajv validator per arg, see ./args) and
 * before an item schema is shown.
 *
 * A `$ref` stands for its target's keywords, in the target's order, at the place the `$ref` is
 * written. A keyword written beside the `$ref` replaces the target's value of it; it keeps the place
 * where it first appears (so `{"description": …, "$ref": …}` puts the description first).
 */

/** A schema document that others can `$ref`: any JSON Schema object with an `$id`. */
export interface SchemaDocument {
  readonly $id: string;
}

type Json = Readonly<Record<string, unknown>>;

/** The schema `node` with every `$ref` in it (and in its targets) replaced by what it names. */
export function resolveRefs<T>(node: T, documents: readonly SchemaDocument[]): T {
  return resolve(node, documents, []) as T;
}

/** What `ref` names, as written (its own `$ref`s not resolved). Throws for an unknown document or place. */
export function refTarget(ref: string, documents: readonly SchemaDocument[]): unknown {
  const hash = ref.indexOf('#');
  const id = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  const document = documents.find((d) => d.$id === id);
  if (!document) throw new Error(`$ref "${ref}": no schema document has $id "${id}"`);
  if (pointer !== '' && !pointer.startsWith('/')) throw new Error(`$ref "${ref}": only JSON Pointer fragments are supported`);
  let at: unknown = document;
  for (const segment of pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (!isObject(at) || !Object.hasOwn(at, segment)) throw new Error(`$ref "${ref}": "${segment}" not found`);
    at = at[segment];
  }
  return at;
}

/**
 * `node`'s keywords with `target`'s in place of its `$ref`: the node's own keywords win, each at the
 * place it first appears (before the `$ref`, or in the target's order, or after).
 */
export function mergeRef(node: Json, target: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref') {
      for (const [k, v] of Object.entries(target)) if (!Object.hasOwn(out, k)) out[k] = Object.hasOwn(node, k) ? node[k] : v;
    } else if (!Object.hasOwn(out, key)) {
      out[key] = value;
    }
  }
  return out;
}

function resolve(node: unknown, documents: readonly SchemaDocument[], trail: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => resolve(item, documents, trail));
  if (!isObject(node)) return node;
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) own[key] = key === '$ref' ? value : resolve(value, documents, trail);
  const ref = own.$ref;
  if (ref === undefined) return own;
  if (typeof ref !== 'string') throw new Error('$ref must be a string');
  if (trail.includes(ref)) throw new Error(`$ref cycle: ${[...trail, ref].join(' → ')}`);
  const target = resolve(refTarget(ref, documents), documents, [...trail, ref]);
  if (!isObject(target)) throw new Error(`$ref "${ref}" does not name a schema object`);
  return mergeRef(own, target);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
