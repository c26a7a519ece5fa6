/**
 * Which password hash to write, so that the live PHP site sharing the database can verify it:
 * WordPress 6.8 (database version 60421) writes and reads `$wp$` bcrypt; older versions read only
 * phpass `$P$B` (and MD5). A site older than 6.8 therefore gets phpass hashes from Understudy too.
 */
import { OptionStore } from './options';
import { phpTrim } from './formatting/php';
import { MAX_PASSWORD_BYTES, hashPassword, makePhpassHash } from './passwords';

export const WP_68_DB_VERSION = 60421;

export async function hashPasswordForSite(options: OptionStore, password: string): Promise<string> {
  const dbVersion = Number(await options.get('db_version', 0)) || 0;
  if (dbVersion >= WP_68_DB_VERSION) return hashPassword(password);
  // WP before 6.8: wp_hash_password() trims, then phpass with 8192 rounds; an over-long password hashes to '*'.
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return '*';
  return makePhpassHash(phpTrim(password));
}
