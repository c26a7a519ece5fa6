/**
 * WP: the parts of WP_Rewrite that shape a pretty link: the permalink structure's front (what comes
 * before its first tag) and whether links end with a slash.
 */

/**
 * WP: WP_Rewrite::$front: the structure up to its first `%tag%`: `/` for `/%postname%/`, `/blog/` on
 * the main site of a subdirectory network (WordPress puts `/blog` before its structure), `/index.php/`
 * for PATHINFO links, '' when the structure has no tag.
 */
export function permalinkFront(structure: string): string {
  const tag = structure.indexOf('%');
  return tag < 0 ? '' : structure.slice(0, tag);
}

/** WP: user_trailingslashit(): a link ends with a slash exactly when the permalink structure does. */
export function userTrailingSlashIt(link: string, structure: string): string {
  const bare = link.replace(/[/\\]+$/, '');
  return structure.endsWith('/') ? `${bare}/` : bare;
}
