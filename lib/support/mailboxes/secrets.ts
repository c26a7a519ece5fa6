/**
 * A mailbox's relay secret (storage map: secrets used as keys are kept as configured). It is an HMAC
 * key and must be kept as it is; the mailbox's other credential, its token, is a bearer secret
 * (../bearer-secrets.ts), stored only as its hash.
 */
import { randomBytes } from 'node:crypto';

/** A new relay secret: 32 random bytes, hex. */
export function newRelaySecret(): string {
  return randomBytes(32).toString('hex');
}
