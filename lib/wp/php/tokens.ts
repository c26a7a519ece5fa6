/**
 * The token grammar of PHP's var_unserializer as sticky regexes, plus the decoding of a `d:` token.
 * Split from reader.ts so the cursor there holds only the walking logic.
 */

import { PhpFloat } from './values';

// Sticky token patterns, matched at the reader's position. They follow PHP's var_unserializer grammar.
export const UINT_COLON = /([0-9]+):/y;
export const UINT_COLON_QUOTE = /([0-9]+):"/y;
export const UINT_SEMI = /([0-9]+);/y;
export const INT_SEMI = /([+-]?[0-9]+);/y;
export const BOOL_SEMI = /([01]);/y;
export const FLOAT_SEMI = /([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|NAN|-?INF);/y;
// PHP accepts class names made of these bytes (any byte >= 0x80, i.e. any non-ASCII character).
export const CLASS_NAME = /^[A-Za-z0-9_\\\u0080-\uffff]+$/;

export function parseFloatToken(text: string): number | PhpFloat {
  const value = text === 'NAN' ? NaN : text === 'INF' ? Infinity : text === '-INF' ? -Infinity : Number(text);
  // Integral floats (and -0) must stay floats: as plain numbers they would come back out as `i:`.
  return Number.isInteger(value) ? new PhpFloat(value) : value;
}
