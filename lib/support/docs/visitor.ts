/**
 * A public caller of the docs routes, known only by a keyed hash of its address key (an IPv6 address
 * by its /64: lib/wp/http/address-key.ts, as the other per-address limits count): HMAC-SHA-256 with a
 * key derived from the site's salts (wp_salt('auth'), as the portal derives its keys), so the votes
 * and rate-limit tables never hold an address, and the hash cannot be reversed by trying every
 * address without the salts. Changing the salts starts every visitor afresh.
 */
import { createHmac } from 'node:crypto';
import { addressKey } from '../../wp/http/address-key';
import { Site } from '../../wp/site';

export interface DocVisitor {
  /** Lowercase hex HMAC-SHA-256 of the address key (64 characters). */
  hash: string;
}

export async function docVisitor(site: Site, address: string): Promise<DocVisitor> {
  const key = createHmac('sha256', await site.salts.salt('auth')).update('svc-docs-visitor').digest();
  return { hash: createHmac('sha256', key).update(addressKey(address)).digest('hex') };
}
