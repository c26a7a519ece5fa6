/**
 * WP-CLI's `option patch` on a decoded PHP value: follow a key path through arrays and objects, then
 * set or remove the last key. Works on copies: the decoded value is shared with the option cache.
 */
import { PhpArray, PhpFloat, PhpObject, PhpValue } from '../wp/php';
import { CliError } from './args';
import { isContainer } from './format';

export type PatchAction = 'insert' | 'update' | 'delete';

/** The patched copy of `container`. `update` and `delete` need every key to exist; `insert` creates missing ones as arrays. */
export function patchValue(container: PhpValue, keys: readonly string[], action: PatchAction, value: PhpValue): PhpValue {
  const [key, ...rest] = keys as [string, ...string[]];
  if (!isContainer(container)) {
    if (action === 'insert') throw new CliError(`Cannot create key "${key}" on data type ${phpType(container)}`);
    throw new CliError(`No data exists for key "${key}"`);
  }
  const exists = hasKey(container, key);
  if (!exists && action !== 'insert') throw new CliError(`No data exists for key "${key}"`);
  if (rest.length === 0) return action === 'delete' ? withoutKey(container, key) : withKey(container, key, value);
  const child = exists ? (childAt(container, key) as PhpValue) : new PhpArray();
  return withKey(container, key, patchValue(child, rest, action, value));
}

function hasKey(container: PhpValue[] | PhpArray | PhpObject, key: string): boolean {
  if (container instanceof PhpObject) return propertyKey(container, key) !== undefined;
  return toArray(container).has(key);
}

function childAt(container: PhpValue[] | PhpArray | PhpObject, key: string): PhpValue | undefined {
  if (container instanceof PhpObject) {
    const property = propertyKey(container, key);
    return property === undefined ? undefined : container.properties.get(property);
  }
  return toArray(container).get(key);
}

function withKey(container: PhpValue[] | PhpArray | PhpObject, key: string, value: PhpValue): PhpArray | PhpObject {
  if (container instanceof PhpObject) {
    const copy = new PhpObject(container.className, container.properties);
    copy.properties.set(propertyKey(container, key) ?? key, value);
    return copy;
  }
  return new PhpArray(toArray(container)).set(key, value);
}

function withoutKey(container: PhpValue[] | PhpArray | PhpObject, key: string): PhpArray | PhpObject {
  if (container instanceof PhpObject) {
    const copy = new PhpObject(container.className, container.properties);
    copy.properties.delete(propertyKey(container, key) as string | number);
    return copy;
  }
  const copy = new PhpArray(toArray(container));
  copy.delete(key);
  return copy;
}

/** A list seen as a PHP array (keys 0..n-1), so string keys from the command line address it. */
function toArray(container: PhpValue[] | PhpArray): PhpArray {
  return container instanceof PhpArray ? container : new PhpArray(container.map((item, i) => [i, item] as const));
}

/** An object's property as stored (a public name, or an int-like name stored as an int). */
function propertyKey(object: PhpObject, key: string): string | number | undefined {
  if (object.properties.has(key)) return key;
  const asInt = /^(0|-?[1-9][0-9]*)$/.test(key) ? Number(key) : undefined;
  return asInt !== undefined && object.properties.has(asInt) ? asInt : undefined;
}

/** PHP's gettype() names, as WP-CLI's message uses them. */
function phpType(value: PhpValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'double';
  if (typeof value === 'bigint') return 'integer';
  return value instanceof PhpFloat ? 'double' : 'object';
}
