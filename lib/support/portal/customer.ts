/**
 * The customer behind a portal session (docs/portal.md): the address they proved with a code, on one
 * connected site, as a ticket actor scoped to that site. The session proves an address, not an
 * account, so tickets are theirs by address only: a WordPress user's tickets under an older address
 * are not shown in the portal.
 */
import { WpError } from '../../wp/errors';
import { Actor } from '../tickets/actor';
import { siteNotFound } from '../sites/caller';
import { ConnectedSite } from '../sites/store';
import { PortalSession } from './sessions';

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
