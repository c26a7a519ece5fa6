/**
 * WP: get_available_languages(): the languages installed beside WordPress, the `.mo` files of
 * WP_LANG_DIR (those of the admin screens, of a network's admin and the city names left out), in the
 * order glob() lists them. The `locale` a user may choose is one of them, `en_US` or ''.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WpConfigFile } from './types';

/** The installed languages of the WordPress that `cfg` configures; [] when its folder cannot be known or read. */
export function installedLanguages(cfg: Pick<WpConfigFile, 'file' | 'constants' | 'dynamic'>): string[] {
  const dir = languageDir(cfg);
  if (!dir) return [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.mo')).map((name) => name.slice(0, -'.mo'.length))
    .filter((name) => !['continents-cities', 'ms-', 'admin-'].some((prefix) => name.startsWith(prefix)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * WP: wp_set_lang_dir(): WP_LANG_DIR when wp-config.php defines it; else WP_CONTENT_DIR's `languages`
 * (WP_CONTENT_DIR defaulting to ABSPATH's `wp-content`) when it is a folder or when ABSPATH has no
 * `wp-includes/languages`; else that. ABSPATH is wp-config.php's own folder unless the file defines it.
 * Null when a folder is computed at run time or relative (to PHP's working directory, which Understudy cannot see).
 */
function languageDir(cfg: Pick<WpConfigFile, 'file' | 'constants' | 'dynamic'>): string | null {
  const langDir = folderConstant(cfg, 'WP_LANG_DIR');
  if (langDir !== undefined) return langDir;
  const abspath = folderConstant(cfg, 'ABSPATH');
  if (abspath === null) return null;
  const root = abspath ?? path.dirname(path.resolve(cfg.file));
  const contentDir = folderConstant(cfg, 'WP_CONTENT_DIR');
  if (contentDir === null) return null;
  const inContent = path.join(contentDir ?? path.join(root, 'wp-content'), 'languages');
  const inIncludes = path.join(root, 'wp-includes', 'languages');
  return isDir(inContent) || !isDir(inIncludes) ? inContent : inIncludes;
}

/** A folder wp-config.php defines: undefined when it does not, null when Understudy cannot know it. */
function folderConstant(cfg: Pick<WpConfigFile, 'constants' | 'dynamic'>, name: string): string | null | undefined {
  if (!Object.prototype.hasOwnProperty.call(cfg.constants, name)) return undefined;
  const value = cfg.constants[name];
  return typeof value === 'string' && cfg.dynamic?.[name] === undefined && path.isAbsolute(value) ? value : null;
}

function isDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
