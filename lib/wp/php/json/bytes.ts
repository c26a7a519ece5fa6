/**
 * PHP JSON: byte-level helpers of the decoder's scanner: digits, four hex digits of a \u escape, and
 * the length of a well-formed UTF-8 sequence.
 */
export function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

export function hex4(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const d = at + i < b.length ? hexDigit(b[at + i] as number) : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** 0-9, a-f or A-F as its value, or -1; compared, not looked up, as every \u escape reads four. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Length of the well-formed UTF-8 sequence at `at` (no overlongs, surrogates or > U+10FFFF), or 0.
 * Plain comparisons, no closure or call per byte: this runs for every non-ASCII byte of a body before
 * any sign-in check, and a helper function made 8 MiB of `é` cost the event loop over five seconds.
 */
export function utf8Length(b: Uint8Array, at: number): number {
  const c = b[at] as number;
  if (c < 0x80) return 1;
  const n = b.length;
  // A byte past the end reads as -1, which is in no range below.
  const c1 = at + 1 < n ? (b[at + 1] as number) : -1;
  if (c >= 0xc2 && c <= 0xdf) return isContinuation(c1) ? 2 : 0;
  const c2 = at + 2 < n ? (b[at + 2] as number) : -1;
  if (c >= 0xe0 && c <= 0xef) return inRange(c1, c === 0xe0 ? 0xa0 : 0x80, c === 0xed ? 0x9f : 0xbf) && isContinuation(c2) ? 3 : 0;
  const c3 = at + 3 < n ? (b[at + 3] as number) : -1;
  if (c >= 0xf0 && c <= 0xf4) return inRange(c1, c === 0xf0 ? 0x90 : 0x80, c === 0xf4 ? 0x8f : 0xbf) && isContinuation(c2) && isContinuation(c3) ? 4 : 0;
  return 0;
}

function isContinuation(c: number): boolean {
  return c >= 0x80 && c <= 0xbf;
}

function inRange(c: number, lo: number, hi: number): boolean {
  return c >= lo && c <= hi;
}
