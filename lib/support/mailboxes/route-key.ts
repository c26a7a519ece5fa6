/**
 * Mailbox keys and route keys. A mailbox key is the `svc_mailbox` post's `post_name`; the route key
 * that webhook URLs carry is `site-<blog-id>-<mailbox-key>`, so a key names one mailbox of the whole
 * network: a process serving the network hands a mail route to the blog its key names, whichever
 * site's address it came to (docs/mail-intake.md, "Mail on a network"); each site answers only for
 * its own keys.
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

/** The blog ID a well-formed route key names (on a network, the blog that serves it), or null. */
export function blogOfRouteKey(routeKey: string): number | null {
  const match = ROUTE_KEY.exec(routeKey);
  return match ? Number(match[1]) : null;
}
