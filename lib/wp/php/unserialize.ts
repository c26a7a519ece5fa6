/**
 * PHP's unserialize(): the two entry points (one returns undefined on malformed input, one throws)
 * and their options. The parsing itself is the Reader in reader.ts.
 */

import { Reader } from './reader';
import { PhpUnserializeError } from './unserialize-error';
import type { PhpValue } from './values';

/** Options for unserialize. */
export interface UnserializeOptions {
  /** Accept bytes after the value, as PHP's unserialize() does (it only warns, since 8.3). Default false. */
  allowTrailingData?: boolean;
}

/** Parses a PHP-serialized string; returns `undefined` when it is malformed (never throws). */
export function unserialize(input: string, options: UnserializeOptions = {}): PhpValue | undefined {
  try {
    return unserializeOrThrow(input, options);
  } catch (err) {
    if (err instanceof PhpUnserializeError) return undefined;
    throw err;
  }
}

/** Parses a PHP-serialized string; throws {@link PhpUnserializeError} when it is malformed. */
export function unserializeOrThrow(input: string, options: UnserializeOptions = {}): PhpValue {
  if (typeof input !== 'string') throw new PhpUnserializeError('input is not a string', 0);
  const reader = new Reader(input);
  let value: PhpValue;
  try {
    value = reader.value();
  } catch (err) {
    // Near PHP's 4096-level limit the JS stack may run out first (it depends on the caller's depth);
    // report that as malformed input rather than crashing.
    if (err instanceof RangeError) throw new PhpUnserializeError('nesting too deep', reader.pos);
    throw err;
  }
  if (reader.pos !== input.length && !options.allowTrailingData) reader.fail('unexpected data after the value');
  return value;
}
