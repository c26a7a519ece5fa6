/**
 * The customer behind a portal session (docs/portal.md): the address they proved with a code, on one
 * connected site, as a ticket actor scoped to that site. The session proves an address, not an
 * account, so tickets are theirs by address only: a WordPress user's tickets under an older address
 * are not shown in the portal. The route hands over what the request carries; nothing here reads HTTP.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { Actor } from '../tickets/actor';
import { siteNotFound } from '../sites/caller';
import { ConnectedSite } from '../sites/store';
import { PortalSession, resolvePortalSession } from './sessions';

export interface PortalCustomer {
  session: PortalSession;
  site: ConnectedSite;
  actor: Actor;
}

export function portalDisabled(): WpError {
  return new WpError('portal_disabled', 'The customer portal is not available for this site.', 404);
}

/** The site a portal route names, or why it has no portal: 404 `svc_site_not_found` or `portal_disabled`. */
export function portalOr404(found: ConnectedSite | null): ConnectedSite | WpError {
  if (!found) return siteNotFound();
  return found.portal ? found : portalDisabled();
}

export function portalCustomer(session: PortalSession, site: ConnectedSite): PortalCustomer {
  const actor: Actor = {
    userId: 0, name: '', email: session.email, agent: false, manager: false, customerView: false,
    portal: { siteId: site.siteId, customerCanResolve: site.customerCanResolve, customerCanReopen: site.customerCanReopen },
  };
  return { session, site, actor };
}

/**
 * The caller of the routes a signed-in customer calls (sign-out, the portal's ticket routes; `found`:
 * the site the URL names): the session of `token` on that site, as a customer of it; 401 without a
 * valid session, 404 when the site or its portal is not there.
 */
export async function portalCustomerOf(site: Site, found: ConnectedSite | null, token: string | undefined): Promise<PortalCustomer | WpError> {
  const portal = portalOr404(found);
  if (portal instanceof WpError) return portal;
  const session = await resolvePortalSession(site, portal.siteId, token);
  return session instanceof WpError ? session : portalCustomer(session, portal);
}
