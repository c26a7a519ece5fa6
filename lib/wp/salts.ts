/**
 * WP: wp_salt() and wp_hash(). A scheme's secret is `{SCHEME}_KEY . {SCHEME}_SALT`; a constant that is
 * empty, the sample placeholder, or shared with another constant is unusable, and WordPress then falls
 * back to a random value kept in the `{scheme}_key` / `{scheme}_salt` site options (created on first use).
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SALT_CONSTANTS = [
  'AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY',
  'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT',
] as const;
export type SaltConstant = (typeof SALT_CONSTANTS)[number];
export type SaltConstants = Partial<Record<SaltConstant, string>>;
export type SaltScheme = 'auth' | 'secure_auth' | 'logged_in' | 'nonce';

const PLACEHOLDER = 'put your unique phrase here';

/** Where a missing secret is kept: the site options, as WordPress keeps them. */
export interface SaltOptionStore {
  getSiteOption(name: string): Promise<unknown>;
  addSiteOption(name: string, value: string): Promise<void>;
}

export class Salts {
  private readonly usable: SaltConstants;
  private readonly cache = new Map<SaltScheme, Promise<string>>();

  constructor(constants: SaltConstants, private readonly store: SaltOptionStore) {
    this.usable = usableConstants(constants);
  }

  /** The secret of a scheme: key followed by salt. */
  salt(scheme: SaltScheme): Promise<string> {
    let pending = this.cache.get(scheme);
    if (!pending) {
      pending = Promise.all([this.part(scheme, 'key'), this.part(scheme, 'salt')]).then(([k, s]) => k + s);
      pending.catch(() => this.cache.delete(scheme));
      this.cache.set(scheme, pending);
    }
    return pending;
  }

  /** WP: wp_hash(): hex HMAC-MD5 of `data` keyed with the scheme's secret. */
  async hash(data: string, scheme: SaltScheme): Promise<string> {
    return createHmac('md5', await this.salt(scheme)).update(data).digest('hex');
  }

  private async part(scheme: SaltScheme, kind: 'key' | 'salt'): Promise<string> {
    const constant = this.usable[`${scheme.toUpperCase()}_${kind.toUpperCase()}` as SaltConstant];
    if (constant !== undefined) return constant;
    const optionName = `${scheme}_${kind}`;
    const stored = await this.store.getSiteOption(optionName);
    if (typeof stored === 'string' && stored !== '') return stored;
    const generated = generateSecret(64);
    await this.store.addSiteOption(optionName, generated);
    // Another process may have won the race to create it: read back what is stored.
    const winner = await this.store.getSiteOption(optionName);
    return typeof winner === 'string' && winner !== '' ? winner : generated;
  }
}

/** Drops constants WordPress would not use: empty, the placeholder, or a value another constant repeats. */
export function usableConstants(constants: SaltConstants): SaltConstants {
  const counts = new Map<string, number>();
  for (const name of SALT_CONSTANTS) {
    const value = constants[name];
    if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const usable: SaltConstants = {};
  for (const name of SALT_CONSTANTS) {
    const value = constants[name];
    if (value && value !== PLACEHOLDER && counts.get(value) === 1) usable[name] = value;
  }
  return usable;
}

/** WP: wp_generate_password($length, true, true): letters, digits and punctuation. */
export function generateSecret(length: number): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_ []{}<>~`+=,.;:/?|';
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % chars.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < limit && out.length < length) out += chars[byte % chars.length];
    }
  }
  return out;
}
