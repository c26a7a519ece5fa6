/**
 * User names: sanitize_user() and validate_username().
 */

import { removeAccents } from './accents';
import { PCRE_SPACE, phpEmpty, phpLooseEqualStrings, phpTrim } from './php';
import { stripAllTags } from './tags';

const SPACE_RUNS = new RegExp(`${PCRE_SPACE}+`, 'g');

/**
 * WP: sanitize_user(): tags, accents, octets and entities out; with `strict`, only `a-z0-9 _.-@`;
 * trimmed, and each run of ASCII white space made one space (a no-break space stays as it is).
 */
export function sanitizeUser(input: string, strict = false): string {
  let name = stripAllTags(input);
  name = removeAccents(name);
  name = name.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '');
  name = name.replace(/&.+?;/g, '');
  if (strict) name = name.replace(/[^a-z0-9 _.\-@]/gi, '');
  name = phpTrim(name);
  return name.replace(SPACE_RUNS, ' ');
}

/** WP: validate_username(): sanitizing it strictly would not change it, and it is not empty. */
export function isValidUsername(username: string): boolean {
  const sanitized = sanitizeUser(username, true);
  return phpLooseEqualStrings(sanitized, username) && !phpEmpty(sanitized);
}
