/**
 * Route args: of all the errors ajv reports for a value (allErrors on), pick the one WordPress would
 * have met first walking the value, so that only that one is reported.
 */
import type { ErrorObject } from 'ajv';

/**
 * The error WordPress meets first. It walks a value depth first (object properties and array items in
 * the value's order) and at each node checks: the type; required properties; the children (and
 * forbidden extra properties); multipleOf, then bounds, then (for `integer`) the fraction; minimum and maximum
 * lengths, items, properties; pattern and uniqueItems; enum; format.
 */
export function firstError(errors: readonly ErrorObject[], root: unknown): ErrorObject {
  let best = errors[0];
  let bestRank = rank(best, root);
  for (const err of errors.slice(1)) {
    const r = rank(err, root);
    if (compareRanks(r, bestRank) < 0) [best, bestRank] = [err, r];
  }
  return best;
}

function rank(err: ErrorObject, root: unknown): number[] {
  const key: number[] = [];
  let data = root;
  for (const seg of pointerSegments(err.instancePath)) {
    key.push(2, childIndex(data, seg));
    data = (data as Record<string, unknown>)[seg];
  }
  const schema = err.parentSchema as Record<string, unknown>;
  switch (err.keyword) {
    case 'type':
      // rest_validate_integer_value_from_schema() checks number rules before the fraction.
      key.push(...(schema.type === 'integer' && typeof data === 'number' ? [3, 2] : [0]));
      break;
    case 'required':
      key.push(1, (schema.required as string[]).indexOf(err.params.missingProperty));
      break;
    case 'additionalProperties':
      key.push(2, childIndex(data, err.params.additionalProperty));
      break;
    case 'multipleOf':
      key.push(3, 0);
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      key.push(3, 1);
      break;
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      key.push(3);
      break;
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      key.push(4);
      break;
    case 'pattern':
    case 'uniqueItems':
      key.push(5);
      break;
    case 'enum':
      key.push(7);
      break;
    case 'format':
      key.push(8);
      break;
    default:
      key.push(9);
  }
  return key;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function childIndex(data: unknown, key: string): number {
  return Array.isArray(data) ? Number(key) : Object.keys(data as object).indexOf(key);
}

export function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
