/**
 * Portal sessions (docs/portal.md): a token of 32 random bytes (base64url) given once at sign-in,
 * stored as its SHA-256, valid 30 days from sign-in, revoked by deleting its row. The resolver is the
 * `principal` of the routes a signed-in customer calls.
 */
import { unixSeconds } from '../../wp/clock';
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { hashBearerSecret, newBearerSecret } from '../bearer-secrets';
import { PORTAL_LIMITS, portalEmail } from './limits';
import { deleteExpiredPortalRows, deletePortalSession, insertPortalSession, portalSessionByTokenHash } from './store';

export interface PortalSession {
  id: number;
  siteId: string;
  /** The address signed in with (trimmed, ASCII lowercase). */
  email: string;
  /** Unix seconds. */
  createdAt: number;
  expiresAt: number;
}

/** Opens a session and returns its token (shown once) with the session; expired rows are swept first. */
export async function openPortalSession(site: Site, siteId: string, rawEmail: string): Promise<{ token: string; session: PortalSession }> {
  const now = unixSeconds(site.clock);
  await deleteExpiredPortalRows(site.db, now);
  const token = newBearerSecret('base64url');
  const session = { siteId, email: portalEmail(rawEmail), createdAt: now, expiresAt: now + PORTAL_LIMITS.sessionTtlSeconds };
  const id = await insertPortalSession(site.db, { tokenHash: hashBearerSecret(token), ...session });
  return { token, session: { id, ...session } };
}

function sessionRequired(): WpError {
  return new WpError('svc_portal_session_invalid', 'Sign in to the portal.', 401);
}

/**
 * The portal session of a request to a site's portal route: the token's unexpired session on that
 * site, or 401 (no token, an unknown, revoked or expired one, or one of another site).
 */
export async function resolvePortalSession(site: Site, siteId: string, token: string | undefined): Promise<PortalSession | WpError> {
  if (!token) return sessionRequired();
  const row = await portalSessionByTokenHash(site.db, hashBearerSecret(token));
  if (!row || row.siteId !== siteId || row.expiresAt <= unixSeconds(site.clock)) return sessionRequired();
  return { id: row.id, siteId, email: row.email, createdAt: row.createdAt, expiresAt: row.expiresAt };
}

/** Signs out: the session's row is deleted, so the token fails from the next request on, in every process. */
export async function revokePortalSession(site: Site, session: PortalSession): Promise<void> {
  await deletePortalSession(site.db, session.id);
}
