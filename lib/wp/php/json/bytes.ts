/**
 * PHP JSON: byte-level helpers of the decoder's scanner: digits, four hex digits of a \u escape, and
 * the length of a well-formed UTF-8 sequence.
 */
import { HEX } from './string';

export function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

export function hex4(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const c = b[at + i];
    const d = c === undefined ? -1 : HEX.indexOf(String.fromCharCode(c).toLowerCase());
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Length of the well-formed UTF-8 sequence at `at` (no overlongs, surrogates or > U+10FFFF), or 0. */
export function utf8Length(b: Uint8Array, at: number): number {
  const c = b[at];
  const t = (i: number, lo = 0x80, hi = 0xbf) => b[at + i] !== undefined && b[at + i] >= lo && b[at + i] <= hi;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return t(1) ? 2 : 0;
  if (c === 0xe0) return t(1, 0xa0) && t(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return t(1) && t(2) ? 3 : 0;
  if (c === 0xed) return t(1, 0x80, 0x9f) && t(2) ? 3 : 0;
  if (c === 0xf0) return t(1, 0x90) && t(2) && t(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return t(1) && t(2) && t(3) ? 4 : 0;
  if (c === 0xf4) return t(1, 0x80, 0x8f) && t(2) && t(3) ? 4 : 0;
  return 0;
}
