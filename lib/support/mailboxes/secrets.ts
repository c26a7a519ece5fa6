/**
 * A mailbox's two credentials (storage map: secrets only compared are stored as hashes, secrets used
 * as keys as configured). The mailbox token is only ever compared, so only its SHA-256 is stored: a
 * plain hash suffices because the token is 32 random bytes, not something a person chose. The relay
 * secret is an HMAC key and must be kept as it is.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new mailbox token: 32 random bytes, hex. Shown once; store `hashToken()` of it. */
export function newMailboxToken(): string {
  return randomBytes(32).toString('hex');
}

/** A new relay secret: 32 random bytes, hex. */
export function newRelaySecret(): string {
  return randomBytes(32).toString('hex');
}

/** Lowercase hex SHA-256 of the token, as stored in `_svc_token_hash`. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` hashes to `storedHash`; the digests are compared in constant time. */
export function tokenMatches(token: string, storedHash: string): boolean {
  if (!token || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return timingSafeEqual(Buffer.from(hashToken(token), 'hex'), Buffer.from(storedHash, 'hex'));
}
