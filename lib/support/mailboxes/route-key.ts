/**
 * Mailbox keys and route keys. A mailbox key is the `svc_mailbox` post's `post_name`; the route key
 * that webhook URLs carry is `site-<blog-id>-<mailbox-key>`, so one relay can feed the mailboxes of
 * several sites of a network and each site only answers for its own.
 */

/** Lowercase letters, digits and hyphens, starting with a letter or digit: a WordPress slug that fits a route key. */
const MAILBOX_KEY = /^[a-z0-9][a-z0-9-]{0,62}$/;
const ROUTE_KEY = /^site-(\d{1,10})-([a-z0-9][a-z0-9-]{0,62})$/;

export function isMailboxKey(key: string): boolean {
  return MAILBOX_KEY.test(key);
}

export function routeKeyOf(blogId: number, mailboxKey: string): string {
  return `site-${blogId}-${mailboxKey}`;
}

/**
 * The mailbox key a route key names on this blog, or null when it is malformed or names another blog
 * (that blog's mailboxes are not ours to answer for: the caller gets the same 404 as for a missing one).
 */
export function mailboxKeyOf(routeKey: string, blogId: number): string | null {
  const match = ROUTE_KEY.exec(routeKey);
  if (!match || Number(match[1]) !== blogId) return null;
  return match[2] as string;
}
