/**
 * What the portal's sign-in routes show (docs/portal.md): allowlists, each the properties of its item
 * schema (schema/support/portal-*.ts), in its order.
 */
import { ConnectedSite } from '../sites/store';
import { PORTAL_LIMITS } from './limits';
import { PortalSession } from './sessions';

/**
 * GET /sites/<site-id>/portal/config: the site's portal settings a customer may see before sign-in,
 * and the time zone its ticket dates are in (stored as local times without a zone).
 */
export function presentPortalConfig(s: ConnectedSite, timeZone: string) {
  return {
    site_name: s.name, new_tickets: s.newTickets, message_limit: s.messageLimit, message_hint: s.messageHint,
    customer_can_resolve: s.customerCanResolve, customer_can_reopen: s.customerCanReopen, time_zone: timeZone,
  };
}

/** POST /sites/<site-id>/portal/code: the same for every address, so whether anyone has it is not told. */
export function presentCodeSent() {
  return { sent: true, expires_in: PORTAL_LIMITS.codeTtlSeconds, resend_after: PORTAL_LIMITS.resendSeconds };
}

/** POST /sites/<site-id>/portal/session: the new session, its token shown this once. */
export function presentSession(token: string, session: PortalSession) {
  return { token, email: session.email, expires_in: PORTAL_LIMITS.sessionTtlSeconds, expires_at: new Date(session.expiresAt * 1000).toISOString() };
}

/** DELETE /sites/<site-id>/portal/session. */
export function presentSignedOut() {
  return { signed_out: true };
}
