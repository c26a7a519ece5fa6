/**
 * Tag stripping: PHP's strip_tags(), wp_strip_all_tags(), wp_pre_kses_less_than() and
 * sanitize_text_field(), which is built from them.
 */

import { escHtml } from './entities';
import { phpTrim } from './php';

/**
 * PHP strip_tags() with no allowed tags, approximately: a `<` followed by a non-space character opens
 * a tag that runs to the next `>` outside quotes (nested `<` deepen it); comments run to `-->`; an
 * unclosed tag swallows the rest. A `<` followed by whitespace is text.
 */
export function phpStripTags(input: string): string {
  let out = '';
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch !== '<' || i + 1 >= input.length || /[ \t\n\v\f\r]/.test(input[i + 1] as string)) {
      if (!(ch === '<' && i + 1 >= input.length)) out += ch;
      i++;
      continue;
    }
    if (input.startsWith('<!--', i)) {
      const close = input.indexOf('-->', i + 4);
      i = close < 0 ? input.length : close + 3;
      continue;
    }
    let depth = 1;
    let quote = '';
    i++;
    while (i < input.length && depth > 0) {
      const c = input[i] as string;
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '<') {
        depth++;
      } else if (c === '>') {
        depth--;
      }
      i++;
    }
  }
  return out;
}

/** WP: wp_strip_all_tags(): script and style elements with their content, then every tag; trimmed. */
export function stripAllTags(input: string, removeBreaks = false): string {
  let text = removeScriptsAndStyles(input, /<(script|style)/gi, (name) => new RegExp(`</${name}>`, 'gi'));
  text = phpStripTags(text);
  if (removeBreaks) text = text.replace(/[\r\n\t ]+/g, ' ');
  return phpTrim(text);
}

/**
 * Removes each element that `opening` (global, the tag name its group 1) starts and `closing(name)`
 * (global) ends, as `opening[^>]*>[\s\S]*?closing` would, case-insensitively: WordPress's
 * `<(script|style)[^>]*?>.*?</\1>`. The regex retries from every later `<script` when an element
 * never ends, scanning to the end of the text each time (quadratic); this searches for each tag
 * name's end once and remembers that it has none.
 */
export function removeScriptsAndStyles(input: string, opening: RegExp, closing: (name: string) => RegExp): string {
  const open = new RegExp(opening.source, opening.flags);
  const unclosed = new Set<string>();
  let out = '';
  let from = 0;
  for (let m = open.exec(input); m; m = open.exec(input)) {
    const name = (m[1] as string).toLowerCase();
    if (unclosed.has(name)) continue;
    const tagEnd = input.indexOf('>', open.lastIndex);
    // No `>` after this start: none after a later one either.
    if (tagEnd < 0) break;
    const close = closing(name);
    close.lastIndex = tagEnd + 1;
    const end = close.exec(input);
    if (!end) {
      unclosed.add(name);
      continue;
    }
    out += input.slice(from, m.index);
    from = end.index + end[0].length;
    open.lastIndex = from;
  }
  return out + input.slice(from);
}

/** WP: wp_pre_kses_less_than(): a `<` that never reaches a `>` (before the next `<`) is escaped. */
export function preKsesLessThan(input: string): string {
  return input.replace(/<[^>]*?(?:(?=<)|>|$)/g, (piece) => (piece.includes('>') ? piece : escHtml(piece)));
}

/** WP: sanitize_text_field(): no tags, no line breaks or runs of whitespace, no percent-encoded octets. */
export function sanitizeTextField(value: unknown): string {
  if (value !== null && typeof value === 'object') return '';
  let text = value === undefined || value === null ? '' : value === true ? '1' : value === false ? '' : String(value);
  if (text.includes('<')) {
    text = preKsesLessThan(text);
    text = stripAllTags(text);
    text = text.replace(/<\n/g, '&lt;\n');
  }
  text = phpTrim(text.replace(/[\r\n\t ]+/g, ' '));
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(text); m; m = /%[a-f0-9]{2}/i.exec(text)) {
    text = text.split(m[0]).join('');
    found = true;
  }
  if (found) text = phpTrim(text.replace(/ +/g, ' '));
  return text;
}
