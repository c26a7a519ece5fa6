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
import { sweepExpiredPortalRows } from './sweep';

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
  await sweepExpiredPortalRows(site);
  const token = newBearerSecret('base64url');
  const now = unixSeconds(site.clock);
  const row = { token_hash: hashBearerSecret(token), site_id: siteId, email: portalEmail(rawEmail), created_at: now, expires_at: now + PORTAL_LIMITS.sessionTtlSeconds };
  const [id] = await site.db.knex(site.db.tables.plugin('svc', 'portal_sessions')).insert(row);
  return { token, session: { id: Number(id), siteId, email: row.email, createdAt: now, expiresAt: row.expires_at } };
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
  const row = await site.db.knex(site.db.tables.plugin('svc', 'portal_sessions')).where({ token_hash: hashBearerSecret(token) }).first();
  if (!row || String(row.site_id) !== siteId || Number(row.expires_at) <= unixSeconds(site.clock)) return sessionRequired();
  return { id: Number(row.id), siteId, email: String(row.email), createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) };
}

/** Signs out: the session's row is deleted, so the token fails from the next request on, in every process. */
export async function revokePortalSession(site: Site, session: PortalSession): Promise<void> {
  await site.db.knex(site.db.tables.plugin('svc', 'portal_sessions')).where({ id: session.id }).del();
}
