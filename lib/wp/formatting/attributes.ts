/**
 * kses's attribute parser, wp_kses_hair(): splits a tag's attribute text into name/value pairs and
 * runs URL-valued attributes through the protocol check. Used by kses.ts.
 */

import { ksesBadProtocol } from './protocols';

/** WP: wp_kses_uri_attributes(): attributes whose values are URLs and get their protocol checked. */
const URI_ATTRIBUTES = new Set([
  'action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc',
  'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns',
]);

interface ParsedAttribute {
  name: string;
  whole: string;
}

/** WP: wp_kses_hair(): the attributes of a tag, the first of each name winning; garbage is skipped. */
export function parseAttributes(input: string, protocols: readonly string[]): ParsedAttribute[] {
  const found = new Map<string, ParsedAttribute>();
  const add = (name: string, whole: string) => {
    if (!found.has(name)) found.set(name, { name, whole });
  };
  const value = (name: string, v: string) => (URI_ATTRIBUTES.has(name.toLowerCase()) ? ksesBadProtocol(v, protocols) : v);
  let rest = input;
  let mode = 0;
  let name = '';
  while (rest.length > 0) {
    let m: RegExpExecArray | null = null;
    let worked = false;
    if (mode === 0) {
      m = /^[_a-zA-Z][-_a-zA-Z0-9:.]*/.exec(rest);
      if (m) {
        name = m[0];
        rest = rest.slice(m[0].length);
        mode = 1;
        worked = true;
      }
    } else if (mode === 1) {
      if ((m = /^[ \t\n\v\f\r]*=[ \t\n\v\f\r]*/.exec(rest))) {
        rest = rest.slice(m[0].length);
        mode = 2;
        worked = true;
      } else if ((m = /^[ \t\n\v\f\r]+/.exec(rest))) {
        add(name, name);
        rest = rest.slice(m[0].length);
        mode = 0;
        worked = true;
      }
    } else if ((m = /^"([^"]*)"([ \t\n\v\f\r]+|\/?$)/.exec(rest))) {
      add(name, `${name}="${value(name, m[1] as string)}"`);
      rest = rest.replace(/^"[^"]*"([ \t\n\v\f\r]+|$)/, '');
      mode = 0;
      worked = true;
    } else if ((m = /^'([^']*)'([ \t\n\v\f\r]+|\/?$)/.exec(rest))) {
      add(name, `${name}='${value(name, m[1] as string)}'`);
      rest = rest.replace(/^'[^']*'([ \t\n\v\f\r]+|$)/, '');
      mode = 0;
      worked = true;
    } else if ((m = /^([^ \t\n\v\f\r"']+)([ \t\n\v\f\r]+|\/?$)/.exec(rest))) {
      add(name, `${name}="${value(name, m[1] as string)}"`);
      rest = rest.replace(/^[^ \t\n\v\f\r"']+([ \t\n\v\f\r]+|$)/, '');
      mode = 0;
      worked = true;
    }
    if (!worked) {
      // WP: wp_kses_html_error(): drop the malformed run and start over.
      const skipped = rest.replace(/^("[^"]*("|$)|'[^']*('|$)|[^ \t\n\v\f\r])*[ \t\n\v\f\r]*/, '');
      rest = skipped.length < rest.length ? skipped : rest.slice(1);
      mode = 0;
    }
  }
  if (mode === 1) add(name, name);
  return [...found.values()];
}
