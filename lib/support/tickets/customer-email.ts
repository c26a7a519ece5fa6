/**
 * Storage map: a customer owns a ticket whose `_svc_customer_email` equals their account email.
 * "Equals" is decided as WordPress can tell addresses apart: both must be addresses is_email() accepts
 * (so printable ASCII only), and only the case of ASCII letters is folded, as the users table's
 * case-insensitive lookups (email_exists()) fold it. Nothing else is folded: no Unicode case mapping
 * (the Kelvin sign is not `k`), no compatibility normalisation (fullwidth `ｃ` or `１` are not `c` or
 * `1`), no database collation (MySQL's `_ci` collations find `ſ` equal to `s`, fullwidth letters equal
 * to ASCII ones, and ignore trailing spaces). A lookalike address therefore never owns another's ticket.
 * The same rule runs in JavaScript (one ticket) and in SQL (the list: whereOwnerEmail() in ./list-query.ts),
 * on both databases.
 */
import { isEmail } from '../../wp/formatting';
import { Site } from '../../wp/site';
import { WpUser } from '../../wp/users';

/** The form two addresses are compared in, or null for an address that owns nothing by email. */
export function ownershipEmailKey(address: string): string | null {
  const key = storedEmailKey(address);
  return key !== null && isEmail(address) ? key : null;
}

/**
 * A ticket's stored address as whereOwnerEmail() compares it in SQL (the list index keys tickets by it):
 * printable ASCII with its ASCII letters lower-cased, or null.
 */
export function storedEmailKey(address: string): string | null {
  if (!/^[\x21-\x7e]+$/.test(address)) return null;
  return address.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Whether a ticket's customer email and an account email name the same owner. */
export function sameOwnerEmail(ticketEmail: string, accountEmail: string): boolean {
  const key = ownershipEmailKey(accountEmail);
  return key !== null && ownershipEmailKey(ticketEmail) === key;
}

/**
 * The WordPress user who owns this address, or null. The users table is looked up as WordPress looks
 * it up (its collation may find lookalikes on MySQL), then held to the rule above.
 */
export async function accountOwning(site: Site, email: string): Promise<WpUser | null> {
  const user = await site.users.byEmail(email);
  return user && sameOwnerEmail(email, user.user_email) ? user : null;
}
