/** The portal's sign-in resources and the connected site itself. */
import { presentCodeSent, presentPortalConfig, presentSession, presentSignedOut } from '../../../lib/support/portal/present';
import { presentSite } from '../../../lib/support/sites/present';
import { ConnectedSite } from '../../../lib/support/sites/store';
import { portalCodeSchema } from '../../../schema/support/portal-code';
import { portalConfigSchema } from '../../../schema/support/portal-config';
import { portalSessionSchema } from '../../../schema/support/portal-session';
import { siteSchema } from '../../../schema/support/site';
import { Presented } from './presented';

const site: ConnectedSite = {
  postId: 20, siteId: 'abcdefghijkl', keyHash: 'k'.repeat(64), createdAt: '2026-11-22 12:00:00', updatedAt: '2026-11-22 12:00:00',
  name: 'Shop', origins: ['https://shop.example'], portal: true, newTickets: true, messageLimit: 5000, messageHint: 'Your order number',
  customerCanResolve: true, customerCanReopen: false, docCollections: ['shop'],
};

export function presentPortalSchemas(): Presented[] {
  const session = { id: 1, siteId: site.siteId, email: 'customer@example.net', createdAt: 1_790_000_000, expiresAt: 1_792_592_000 };
  return [
    { schema: siteSchema, value: presentSite(site) },
    { schema: portalConfigSchema, value: presentPortalConfig(site, 'Europe/Berlin') },
    { schema: portalCodeSchema, value: presentCodeSent() },
    // POST answers the session, DELETE `signed_out`: together, every property.
    { schema: portalSessionSchema, value: { ...presentSession('s'.repeat(43), session), ...presentSignedOut() } },
  ];
}
