/**
 * support/v1 customer portal sign-in (contract sections 2 "Portal session", 4, 5; docs/portal.md):
 * - GET /sites/<site-id>/portal/config: what the portal shows before sign-in.
 * - POST /sites/<site-id>/portal/code: emails a 6-digit code (through the job queue).
 * - POST /sites/<site-id>/portal/session: exchanges address and code for a 30-day token.
 * - DELETE /sites/<site-id>/portal/session: signs out (the token in Authorization or X-Svc-Portal).
 * Every portal route answers 404 `portal_disabled` first of all while the site's portal is off (the
 * route's `gate`); browsers may call only from the site's listed addresses, without credentials.
 */
import { sendPortalCode, consumePortalCode, invalidCode } from '../../lib/support/portal/codes';
import { PORTAL_LIMITS, portalEmail } from '../../lib/support/portal/limits';
import { bearerSecretOf } from '../../lib/support/bearer-secrets';
import { PortalCustomer, portalCustomer, portalOr404 } from '../../lib/support/portal/customer';
import { openPortalSession, resolvePortalSession, revokePortalSession } from '../../lib/support/portal/sessions';
import { ConnectedSite } from '../../lib/support/sites/store';
import { storageAvailability } from '../../lib/support/storage-check';
import { siteTimeZone } from '../../lib/wp/dates';
import { WpError } from '../../lib/wp/errors';
import { visitorBucket } from '../../lib/wp/http/address-key';
import { TypedArgs } from '../../lib/wp/rest/args';
import { ParamsOf, argsForOperation } from '../../lib/wp/rest/item-schema';
import { RequestHead, RestRequest, RestResponse, RouteDeclaration, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { portalOperations } from '../../schema/support/portal-args';
import { NAMESPACE, SUPPORT_SCHEMAS } from './common';
import { connectedSiteOf } from './connected-site';

/** The portal's request bodies are a few fields. */
export const PORTAL_MAX_BODY_BYTES = 16 * 1024;

type SiteParams = ParamsOf<typeof portalOperations.site, typeof SUPPORT_SCHEMAS, 'site_id'>;
type CodeParams = ParamsOf<typeof portalOperations.code, typeof SUPPORT_SCHEMAS, 'site_id'>;
type SessionParams = ParamsOf<typeof portalOperations.session, typeof SUPPORT_SCHEMAS, 'site_id'>;

const siteArgs: TypedArgs<SiteParams> = argsForOperation(portalOperations.site, SUPPORT_SCHEMAS, 'create');
const codeArgs: TypedArgs<CodeParams> = argsForOperation(portalOperations.code, SUPPORT_SCHEMAS, 'create');
const sessionArgs: TypedArgs<SessionParams> = argsForOperation(portalOperations.session, SUPPORT_SCHEMAS, 'create');

/** Every portal route's first check: the site exists (404 `svc_site_not_found`) and its portal is on (404 `portal_disabled`). */
async function portalGate(head: RequestHead): Promise<WpError | null> {
  const found = portalOr404(await connectedSiteOf(head));
  return found instanceof WpError ? found : null;
}

/** The site's listed addresses, with its portal on or off: a listed page can read why it is refused. */
async function portalOrigins(head: RequestHead): Promise<string[]> {
  return (await connectedSiteOf(head))?.origins ?? [];
}

/** The site the URL names, its portal on (the gate has said so). */
async function portalSite(req: RestRequest): Promise<ConnectedSite> {
  const found = portalOr404(await connectedSiteOf(req));
  if (found instanceof WpError) throw found;
  return found;
}

/**
 * The principal of the routes a signed-in customer calls (sign-out, and the portal's ticket routes):
 * the token's session on this site as a customer of it, or 401.
 */
export async function portalCustomerOf(req: RestRequest): Promise<PortalCustomer | WpError> {
  const token = bearerSecretOf(req.header('authorization'), req.header('x-svc-portal'));
  const session = await resolvePortalSession(req.site, req.urlParams.site_id ?? '', token);
  return session instanceof WpError ? session : portalCustomer(session, await portalSite(req));
}

/** What every portal route shares: origins, no credentials, the token header, small bodies. */
export const portalEndpointBase = {
  origins: portalOrigins,
  corsCredentials: false,
  corsHeaders: ['X-Svc-Portal'],
  maxBodyBytes: PORTAL_MAX_BODY_BYTES,
} as const;

export const portalRouteBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'private, no-store' },
  availability: storageAvailability,
  gate: portalGate,
};

export const portalConfig: RouteDeclaration = {
  ...portalRouteBase,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/config',
  endpoints: [
    endpoint<SiteParams>({
      ...portalEndpointBase,
      methods: ['GET'],
      args: siteArgs,
      permission: allowAnyone,
      async handler(req) {
        const s = await portalSite(req);
        return {
          site_name: s.name, new_tickets: s.newTickets, message_limit: s.messageLimit, message_hint: s.messageHint,
          customer_can_resolve: s.customerCanResolve, customer_can_reopen: s.customerCanReopen, time_zone: await siteTimeZone(req.site.options),
        };
      },
    }),
  ],
};

export const portalCode: RouteDeclaration = {
  ...portalRouteBase,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/code',
  endpoints: [
    endpoint<CodeParams>({
      ...portalEndpointBase,
      methods: ['POST'],
      args: codeArgs,
      permission: allowAnyone,
      rateLimit: [
        { name: 'portal.code.email', limit: PORTAL_LIMITS.codesPerEmailHour, windowSeconds: 3600, key: (req) => `${req.urlParams.site_id}:${portalEmail(req.params.email)}` },
        { name: 'portal.code.ip', limit: PORTAL_LIMITS.codesPerIpHour, windowSeconds: 3600, key: (req) => visitorBucket(req.ip) },
      ],
      async handler(req) {
        await sendPortalCode(req.site, await portalSite(req), req.params.email);
        // The same answer for every address: whether anyone has it is not told.
        return new RestResponse({ sent: true, expires_in: PORTAL_LIMITS.codeTtlSeconds, resend_after: PORTAL_LIMITS.resendSeconds }, 202);
      },
    }),
  ],
};

export const portalSession: RouteDeclaration = {
  ...portalRouteBase,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/session',
  endpoints: [
    endpoint<SessionParams>({
      ...portalEndpointBase,
      methods: ['POST'],
      args: sessionArgs,
      permission: allowAnyone,
      rateLimit: { name: 'portal.session.ip', limit: PORTAL_LIMITS.signInsPerIp, windowSeconds: PORTAL_LIMITS.signInWindowSeconds, key: (req) => visitorBucket(req.ip) },
      async handler(req) {
        const s = await portalSite(req);
        if (!(await consumePortalCode(req.site, s.siteId, req.params.email, req.params.code.trim()))) throw invalidCode();
        const { token, session } = await openPortalSession(req.site, s.siteId, req.params.email);
        return new RestResponse({ token, email: session.email, expires_in: PORTAL_LIMITS.sessionTtlSeconds, expires_at: new Date(session.expiresAt * 1000).toISOString() }, 201);
      },
    }),
    endpoint<SiteParams, PortalCustomer>({
      ...portalEndpointBase,
      methods: ['DELETE'],
      args: siteArgs,
      principal: portalCustomerOf,
      permission: allowAnyone,
      async handler(req) {
        await revokePortalSession(req.site, req.principal.session);
        return { signed_out: true };
      },
    }),
  ],
};
