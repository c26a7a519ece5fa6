/**
 * PHP JSON: a string literal as json_encode() writes it (the escaping rules are in the file comment
 * of ../php-json.ts). HEX is shared with the decoder's \u escape reader.
 */

export const HEX = '0123456789abcdef';

/** A PHP JSON string literal for `text`. */
export function phpJsonString(text: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let escape: string | undefined;
    if (unit >= 0x80 || unit < 0x20) {
      escape = SHORT_ESCAPES[unit] ?? `\\u${HEX[unit >> 12]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
    } else if (unit === 0x22) {
      escape = '\\"';
    } else if (unit === 0x5c) {
      escape = '\\\\';
    } else if (unit === 0x2f) {
      escape = '\\/';
    }
    if (escape !== undefined) {
      out += text.slice(start, i) + escape;
      start = i + 1;
    }
  }
  return out + text.slice(start) + '"';
}

const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
