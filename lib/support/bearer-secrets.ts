/**
 * The support desk's bearer secrets: mailbox tokens, site keys and portal session tokens. Each is
 * 32 random bytes shown once when issued and kept only as its SHA-256 (storage map: secrets only ever
 * compared are stored as hashes); a plain hash suffices because the secret is random, not something a
 * person chose. The stored digest is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new secret: 32 random bytes, hex unless the caller's format says otherwise. Store `hashBearerSecret()` of it. */
export function newBearerSecret(encoding: 'hex' | 'base64url' = 'hex'): string {
  return randomBytes(32).toString(encoding);
}

/** Lowercase hex SHA-256 of the secret, as stored. */
export function hashBearerSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `storedHash`; the digests are compared in constant time. */
export function bearerSecretMatches(secret: string, storedHash: string): boolean {
  if (!secret || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return timingSafeEqual(Buffer.from(hashBearerSecret(secret), 'hex'), Buffer.from(storedHash, 'hex'));
}

/**
 * The secret a request carries: `Authorization: Bearer <secret>`, else the route's own header (for
 * where a proxy strips Authorization); undefined when it carries neither. An Authorization of another
 * scheme (an application password's Basic) carries no secret.
 */
export function bearerSecretOf(authorization: string | undefined, ownHeader: string | undefined): string | undefined {
  const value = authorization?.trim();
  if (value && /^Bearer(\s|$)/i.test(value)) return value.slice(6).trim();
  return ownHeader?.trim();
}
