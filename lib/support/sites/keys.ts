/**
 * A connected site's identifiers and credential (storage map: secrets only ever compared are stored as
 * hashes). The site-id is public (it is in every URL); the site key is a server credential, 32 random
 * bytes shown once when it is issued and kept only as its SHA-256: a plain hash suffices because the
 * key is random, not something a person chose.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

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

/** A new site key: 32 random bytes, hex. Shown once; store `hashSiteKey()` of it. */
export function newSiteKey(): string {
  return randomBytes(32).toString('hex');
}

/** Lowercase hex SHA-256 of the key, as stored in `_svc_key_hash`. */
export function hashSiteKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether `key` hashes to `storedHash`; the digests are compared in constant time. */
export function siteKeyMatches(key: string, storedHash: string): boolean {
  if (!key || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return timingSafeEqual(Buffer.from(hashSiteKey(key), 'hex'), Buffer.from(storedHash, 'hex'));
}
