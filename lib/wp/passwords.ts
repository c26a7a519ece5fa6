/**
 * WP: password and application-password hashing as WordPress 6.8+ does it
 * (`wp_check_password`, `wp_hash_password`, `wp_password_needs_rehash`,
 * `wp_fast_hash`, the phpass portable hashes older sites still hold, and the
 * `pass_frag` that goes into auth cookies). See docs/wordpress-compat.md
 * sections 4, 5 and 7 in the shared docs.
 *
 * Strings are hashed as their UTF-8 bytes, which is what PHP sees for a UTF-8
 * request.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { blake2b } from 'blakejs';
import { phpTrim } from './formatting/php';

/** Passwords longer than this many bytes never verify and hash to `*`. */
export const MAX_PASSWORD_BYTES = 4096;
/** bcrypt cost WordPress gets from PHP < 8.4's default. */
export const BCRYPT_COST = 10;

const WP_PREFIX = '$wp';
const FAST_HASH_PREFIX = '$generic$';
const FAST_HASH_KEY = Buffer.from('wp_fast_hash_6.8+', 'ascii');
const FAST_HASH_BYTES = 30;
const PREHASH_KEY = 'wp-sha384';

/** A bcrypt hash crypt_blowfish (PHP) accepts and bcryptjs can compute: `$2a$`, `$2b$` or `$2y$`, cost 04..31. */
const BCRYPT_SHAPE = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/**
 * Constant-time string equality in the manner of PHP's `hash_equals`: the time
 * taken depends only on the lengths, never on where the strings first differ.
 */
export function hashEquals(known: string, given: string): boolean {
  const a = Buffer.from(known, 'utf8');
  const b = Buffer.from(given, 'utf8');
  if (a.length !== b.length) {
    // Do comparable work so a mismatch in length is not answered instantly.
    crypto.timingSafeEqual(a, a);
    return false;
  }
  return crypto.timingSafeEqual(a, b);
}

function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

function md5Hex(value: string): string {
  return crypto.createHash('md5').update(value, 'utf8').digest('hex');
}

/**
 * The 64-character string WordPress 6.8+ feeds to bcrypt instead of the
 * password: base64 of the raw HMAC-SHA384 of the password, keyed with
 * `wp-sha384`. It keeps bcrypt's 72-byte input limit from mattering.
 */
export function wpPrehash(password: string): string {
  return crypto.createHmac('sha384', PREHASH_KEY).update(password, 'utf8').digest('base64');
}

/** PHP `password_verify` for bcrypt hashes; false for anything else (argon2, DES, md5-crypt…). */
async function bcryptVerify(password: string, hash: string): Promise<boolean> {
  const shape = BCRYPT_SHAPE.exec(hash);
  if (!shape) return false;
  const cost = Number(shape[1]);
  if (cost < 4 || cost > 31) return false;
  let computed: string;
  try {
    // The first 29 characters are the setting (prefix, cost, 22-char salt);
    // bcryptjs keeps the `a`/`b`/`y` letter, so the result is comparable as is.
    computed = await bcrypt.hash(password, hash.slice(0, 29));
  } catch {
    return false;
  }
  return hashEquals(hash, computed);
}

// ---------------------------------------------------------------------------
// phpass portable hashes ($P$, and $H$ which only the helper understands)
// ---------------------------------------------------------------------------

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** log2 of the md5 round count WordPress's `PasswordHash(8, true)` writes (`B`). */
const PHPASS_DEFAULT_LOG2 = 13;

/**
 * phpass's own base64: bytes are read in groups of three as a little-endian
 * number whose 6-bit digits are written lowest first; a final group of n < 3
 * bytes yields n + 1 digits.
 */
function phpassEncode(bytes: Uint8Array): string {
  let out = '';
  for (let start = 0; start < bytes.length; start += 3) {
    const size = Math.min(3, bytes.length - start);
    let value = 0;
    for (let k = 0; k < size; k++) value |= bytes[start + k]! << (8 * k);
    for (let digit = 0; digit <= size; digit++) out += ITOA64[(value >>> (6 * digit)) & 63];
  }
  return out;
}

/**
 * phpass portable hash of `password` under `setting` (at least 12 chars:
 * `$P$` or `$H$`, a cost letter from the itoa64 alphabet meaning 2^index md5
 * rounds with index 7..30, and an 8-char salt; any longer tail such as a
 * whole stored hash is ignored). A bad setting gives phpass's failure marker
 * `*0` (or `*1` when the setting itself starts with `*0`), which never equals
 * a real hash.
 */
export function phpassHash(password: string, setting: string): string {
  const failure = setting.startsWith('*0') ? '*1' : '*0';
  const id = setting.slice(0, 3);
  if (id !== '$P$' && id !== '$H$') return failure;
  const log2 = ITOA64.indexOf(setting.charAt(3));
  if (log2 < 7 || log2 > 30) return failure;
  const salt = setting.slice(4, 12);
  if (salt.length !== 8) return failure;

  const pw = Buffer.from(password, 'utf8');
  let digest = crypto.createHash('md5').update(Buffer.from(salt, 'latin1')).update(pw).digest();
  for (let rounds = 2 ** log2; rounds > 0; rounds--) {
    digest = crypto.createHash('md5').update(digest).update(pw).digest();
  }
  return setting.slice(0, 12) + phpassEncode(digest);
}

/**
 * A new `$P$` phpass hash with a random salt, as WordPress before 6.8 wrote
 * them (default cost letter `B` = 2^13 rounds). For tests and for seeding
 * pre-6.8 data; WordPress 6.8+ itself never writes these.
 */
export function makePhpassHash(password: string, log2: number = PHPASS_DEFAULT_LOG2): string {
  if (!Number.isInteger(log2) || log2 < 7 || log2 > 30) {
    throw new RangeError(`phpass cost must be an integer in 7..30, got ${log2}`);
  }
  const setting = '$P$' + ITOA64[log2] + phpassEncode(crypto.randomBytes(6));
  return phpassHash(password, setting);
}

// ---------------------------------------------------------------------------
// User passwords
// ---------------------------------------------------------------------------

/**
 * `wp_check_password` (6.8+): does `password` match the stored `users.user_pass`?
 *
 * Order: a hash of at most 32 bytes is legacy unsalted MD5 hex; otherwise a
 * password over 4096 bytes fails; `$wp…` is bcrypt of the HMAC-SHA384
 * pre-hash; `$P$` is phpass; anything else goes to bcrypt as-is. `$H$`
 * hashes therefore fail, as in WordPress 6.8+. The password is NOT trimmed
 * here (login code trims before calling, as `wp_authenticate` does).
 */
export async function checkPassword(password: string, hash: string): Promise<boolean> {
  if (byteLength(hash) <= 32) return hashEquals(hash, md5Hex(password));
  if (byteLength(password) > MAX_PASSWORD_BYTES) return false;
  if (hash.startsWith(WP_PREFIX)) return bcryptVerify(wpPrehash(password), hash.slice(WP_PREFIX.length));
  if (hash.startsWith('$P$')) return hashEquals(hash, phpassHash(password, hash));
  return bcryptVerify(password, hash);
}

/**
 * `wp_hash_password` (6.8+, bcrypt): `$wp$2y$10$` + 53 chars (63 in all), over
 * the pre-hash of the PHP-trimmed password. A password over 4096 bytes
 * (measured before trimming) hashes to `*`, which nothing verifies against.
 */
export async function hashPassword(password: string): Promise<string> {
  if (byteLength(password) > MAX_PASSWORD_BYTES) return '*';
  const salt = await bcrypt.genSalt(BCRYPT_COST); // `$2b$10$` + 22 chars
  const hashed = await bcrypt.hash(wpPrehash(phpTrim(password)), '$2y$' + salt.slice(4));
  // bcryptjs keeps the revision letter of the salt it was given; make sure.
  return WP_PREFIX + '$2y$' + hashed.slice(4);
}

/**
 * `wp_password_needs_rehash` while bcrypt is the algorithm: true for every
 * hash that is not `$wp`-prefixed (MD5, phpass, plain bcrypt, argon…); for a
 * `$wp` hash, true unless it holds a `$2y$` bcrypt of the expected cost (PHP's
 * `password_needs_rehash`).
 */
export function needsRehash(hash: string, cost: number = BCRYPT_COST): boolean {
  if (!hash.startsWith(WP_PREFIX)) return true;
  const inner = hash.slice(WP_PREFIX.length);
  const shape = BCRYPT_SHAPE.exec(inner);
  if (!shape || !inner.startsWith('$2y$')) return true;
  return Number(shape[1]) !== cost;
}

/**
 * The 4 characters of `users.user_pass` that go into auth cookies (6.8+):
 * characters 8..12 for `$P$` and `$2y$` hashes, otherwise the last 4
 * (`$wp…`, MD5, argon). A password change therefore invalidates old cookies.
 */
export function passFrag(userPass: string): string {
  if (userPass.startsWith('$P$') || userPass.startsWith('$2y$')) return userPass.slice(8, 12);
  return userPass.slice(-4);
}

// ---------------------------------------------------------------------------
// Application passwords
// ---------------------------------------------------------------------------

/**
 * `wp_fast_hash` (6.8+): `$generic$` + unpadded base64url of keyed BLAKE2b
 * (key `wp_fast_hash_6.8+`, 30-byte digest); 49 chars. Used for new
 * application passwords (and reset keys).
 */
export function wpFastHash(text: string): string {
  const digest = blake2b(Buffer.from(text, 'utf8'), FAST_HASH_KEY, FAST_HASH_BYTES);
  return FAST_HASH_PREFIX + Buffer.from(digest).toString('base64url');
}

/**
 * WordPress keeps only ASCII letters and digits of a submitted application
 * password, so the chunked display form (`abcd efgh …`) works too.
 */
export function normalizeApplicationPassword(raw: string): string {
  return raw.replace(/[^a-z0-9]/gi, '');
}

/**
 * `WP_Application_Passwords::check_password`: `$generic$` hashes compare
 * against `wpFastHash(password)` in constant time; anything else (e.g. the
 * `$P$B` hashes 5.6–6.7 wrote, which are never rehashed) goes through
 * {@link checkPassword}. Pass the password already normalized with
 * {@link normalizeApplicationPassword}.
 */
export async function checkApplicationPassword(password: string, storedHash: string): Promise<boolean> {
  if (storedHash.startsWith(FAST_HASH_PREFIX)) return hashEquals(storedHash, wpFastHash(password));
  return checkPassword(password, storedHash);
}
