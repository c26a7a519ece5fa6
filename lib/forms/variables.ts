/**
 * Submitted values inside admin-written templates: `[name]` (or `[address.city]` for a nested
 * `address[city]` field) is replaced by the value, passed through an escape chosen by where it lands
 * (URL-encoded in a redirect, HTML-escaped in an HTML email, flattened to one line in a header).
 * `[all]` lists every field. An unknown name becomes an empty string, as in the plugin family.
 */
import { isCleanAddress } from '../mail/address';
import { escHtml } from '../wp/formatting';
import type { FieldValue, SubmissionData } from './store';

export type Escape = (text: string) => string;

const VARIABLE = /\[([a-zA-Z0-9\-._]+)\]/g;

/** Replaces `[field]` variables in `template`; `[all]` (when no field is named `all`) becomes `allFields(data, escape, allJoin)`. */
export function replaceDataVariables(template: string, data: SubmissionData, escape: Escape, allJoin = '\n'): string {
  return template.replace(VARIABLE, (_match, name: string) => {
    if (name === 'all' && !Object.hasOwn(data, 'all')) return allFields(data, escape, allJoin);
    return escape(fieldText(valueAt(data, name)));
  });
}

/** Every field as `name: value` lines, escaped. */
export function allFields(data: SubmissionData, escape: Escape, join = '\n'): string {
  return Object.entries(data).map(([name, value]) => `${escape(name)}: ${escape(fieldText(value))}`).join(join);
}

/** A value as text: lists and maps are joined with `, ` (checkbox groups), as the family shows them. */
export function fieldText(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return (Array.isArray(value) ? value : Object.values(value)).map(fieldText).join(', ');
}

/** A field by name: `email`, a nested `address[city]` or its dotted form `address.city`. */
export function valueAt(data: SubmissionData, name: string): FieldValue | undefined {
  if (Object.hasOwn(data, name)) return data[name];
  const path = name.includes('[') ? name.replace(/\]/g, '').split('[') : name.split('.');
  let current: FieldValue | undefined = data;
  for (const key of path) {
    // Own keys only: a field named `constructor` must not reach Object's prototype.
    if (current === undefined || typeof current === 'string' || !Object.hasOwn(current, key)) return undefined;
    current = Array.isArray(current) ? current[Number(key)] : current[key];
  }
  return current;
}

/** HTML text escaping: WordPress's esc_html(), which keeps entities already in the text (`&amp;` stays `&amp;`). */
export const escapeHtml: Escape = (text) => escHtml(text);

/** One header-safe line: tags and line breaks removed, so a value cannot add a header. */
export const headerText: Escape = (text) => text.replace(/<[^>]*>/g, '').replace(/[\r\n]+/g, ' ').trim();

/**
 * A value in an address template (`[name] <[email]>`): one line, kept as it is when it is an address
 * (or a comma-separated list of them, as a checkbox group of departments gives), else made a quoted
 * string, so that whatever a name holds stays a display name and cannot add a recipient or a group.
 */
export const addressText: Escape = (text) => {
  const line = headerText(text);
  if (line === '' || line.split(',').every((part) => isCleanAddress(part.trim()))) return line;
  return `"${line.replace(/["\\]/g, '\\$&')}"`;
};

/** A URL component (a redirect's `[field]`). */
export const urlEncode: Escape = (text) => encodeURIComponent(text);

export const noEscape: Escape = (text) => text;
