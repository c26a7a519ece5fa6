/**
 * WP: wp_create_nonce() / wp_verify_nonce(). A nonce is ten hex characters of an HMAC over the
 * tick (half a nonce life), the action, the user ID and the session token; it is valid in the tick
 * it was made (1) and the next one (2).
 */
import { Clock } from '../clock';
import { Salts } from '../salts';
import { hashEquals } from '../passwords';

export const NONCE_LIFE_SECONDS = 86400;

/** WP: wp_nonce_tick(). */
export function nonceTick(clock: Clock, life = NONCE_LIFE_SECONDS): number {
  return Math.ceil(clock.now() / 1000 / (life / 2));
}

export interface NonceContext {
  salts: Salts;
  clock: Clock;
}

/** WP: wp_create_nonce(): `action` -1 is written as "-1". */
export async function createNonce(ctx: NonceContext, action: string | number, userId: number, token: string): Promise<string> {
  return nonceAt(ctx.salts, nonceTick(ctx.clock), action, userId, token);
}

/** WP: wp_verify_nonce(): 1 or 2 for the current or previous tick, false otherwise (compared in constant time). */
export async function verifyNonce(ctx: NonceContext, nonce: unknown, action: string | number, userId: number, token: string): Promise<1 | 2 | false> {
  if (typeof nonce !== 'string' || nonce === '' || nonce === '0') return false;
  const tick = nonceTick(ctx.clock);
  if (hashEquals(await nonceAt(ctx.salts, tick, action, userId, token), nonce)) return 1;
  if (hashEquals(await nonceAt(ctx.salts, tick - 1, action, userId, token), nonce)) return 2;
  return false;
}

async function nonceAt(salts: Salts, tick: number, action: string | number, userId: number, token: string): Promise<string> {
  const hash = await salts.hash(`${tick}|${action}|${userId}|${token}`, 'nonce');
  return hash.slice(-12, -2);
}
