/**
 * A requester nothing proved (docs/support-desk.md, "Unverified requesters"): anyone may give an
 * address that is not theirs. When the address has an account, the ticket is that account's and
 * carries the account's own name, never the caller's; without one, the name given is all there is.
 */
import { Site } from '../../wp/site';
import { accountOwning } from './customer-email';

export interface UnprovenRequester {
  /** The account owning the address, or 0. */
  userId: number;
  name: string;
}

/** Read before the write's transaction (which on SQLite holds the only connection). */
export async function unprovenRequester(site: Site, email: string, givenName: string): Promise<UnprovenRequester> {
  const account = await accountOwning(site, email);
  return { userId: account?.ID ?? 0, name: account?.display_name || givenName };
}
