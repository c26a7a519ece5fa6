/**
 * The relay signature (contract section 5). The signed text is five lines joined by "\n": `v1`, the
 * route key, the timestamp, the delivery ID and the lowercase hex SHA-256 of the raw body; the
 * signature is `v1=` + hex HMAC-SHA256 of it under the mailbox's relay secret. Binding the route key
 * stops a signed message being replayed into another mailbox; the timestamp bounds replays in time and
 * the delivery ID (stored with the receipt) makes a replay inside that window store nothing new.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { WpError } from '../../wp/errors';

export const SIGNATURE_TOLERANCE_SECONDS = 300;
const DELIVERY_ID = /^[A-Za-z0-9-]{16,64}$/;
const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^v1=([0-9a-fA-F]{64})$/;

export interface RelayHeaders {
  timestamp: string | undefined;
  deliveryId: string | undefined;
  signature: string | undefined;
}

/** The `X-Svc-Signature` value for a request (what a relay computes; tests and docs use it too). */
export function relaySignature(secret: string, routeKey: string, timestamp: string, deliveryId: string, body: Buffer): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  const signed = ['v1', routeKey, timestamp, deliveryId, bodyHash].join('\n');
  return `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`;
}

/**
 * Checks the three headers against the body; returns the delivery ID when all hold, else a 401 naming
 * what failed (never anything about the expected value). The digests are compared in constant time.
 */
export function verifyRelaySignature(
  secret: string, routeKey: string, headers: RelayHeaders, body: Buffer, nowSeconds: number,
): { deliveryId: string } | WpError {
  const refused = checkRelayHeaders(secret, headers, nowSeconds);
  if (refused) return refused;
  const { timestamp, deliveryId, signature } = headers as { [K in keyof RelayHeaders]: string };
  const given = SIGNATURE.exec(signature.trim()) as RegExpExecArray;
  const expected = Buffer.from(relaySignature(secret, routeKey, timestamp, deliveryId, body).slice(3), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given[1] as string, 'hex'))) {
    return invalidSignature('invalid_signature', 'The signature does not match.');
  }
  return { deliveryId };
}

/**
 * What can be checked without the body (so before reading it): the three headers present, well
 * formed and fresh, and a secret to check against; the 401 naming what failed, or null.
 */
export function checkRelayHeaders(secret: string, headers: RelayHeaders, nowSeconds: number): WpError | null {
  const { timestamp, deliveryId, signature } = headers;
  if (!timestamp || !deliveryId || !signature) {
    return invalidSignature('missing_headers', 'X-Svc-Timestamp, X-Svc-Delivery and X-Svc-Signature are required.');
  }
  if (!TIMESTAMP.test(timestamp)) return invalidSignature('invalid_timestamp', 'X-Svc-Timestamp must be Unix time in seconds.');
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    return invalidSignature('stale_timestamp', `X-Svc-Timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds away from the server clock.`);
  }
  if (!DELIVERY_ID.test(deliveryId)) {
    return invalidSignature('invalid_delivery_id', 'X-Svc-Delivery must be 16 to 64 letters, digits and hyphens.');
  }
  // An empty secret (a mailbox written without one) must never verify anything.
  if (!SIGNATURE.test(signature.trim()) || !secret) return invalidSignature('invalid_signature', 'The signature does not match.');
  return null;
}

function invalidSignature(reason: string, message: string): WpError {
  return new WpError('svc_invalid_signature', message, 401, { reason });
}
