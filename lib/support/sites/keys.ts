/**
 * A connected site's public identifier: the site-id, in every URL of the site's routes. Its key is a
 * bearer secret (../bearer-secrets.ts).
 */
import { randomInt } from 'node:crypto';

export const SITE_ID_LENGTH = 12;
const SITE_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new site-id: 12 characters from a CSPRNG, lowercase letters and digits (a valid post_name as it is). */
export function newSiteId(): string {
  let id = '';
  for (let i = 0; i < SITE_ID_LENGTH; i++) id += SITE_ID_ALPHABET[randomInt(SITE_ID_ALPHABET.length)];
  return id;
}

/** Whether `text` has the shape of a site-id this service issues. */
export function isSiteId(text: string): boolean {
  return /^[a-z0-9]{12}$/.test(text);
}
