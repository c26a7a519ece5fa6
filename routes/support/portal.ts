/**
 * support/v1 customer portal sign-in (contract sections 2 "Portal session", 4, 5; docs/portal.md):
 * - GET /sites/<site-id>/portal/config: what the portal shows before sign-in.
 * - POST /sites/<site-id>/portal/code: emails a 6-digit code (through the job queue).
 * - POST /sites/<site-id>/portal/session: exchanges address and code for a 30-day token.
 * - DELETE /sites/<site-id>/portal/session: signs out (the token in Authorization or X-Svc-Portal).
 * Every portal route's subject is the site its URL names; it answers 404 `portal_disabled` first of
 * all while the site's portal is off (the route's `gate`); browsers may call only from the site's
 * listed addresses, without credentials.
 */
import { bearerSecretOf } from '../../lib/support/bearer-secrets';
import { sendPortalCode, consumePortalCode, invalidCode } from '../../lib/support/portal/codes';
import { PortalCustomer, portalCustomerOf, portalOr404 } from '../../lib/support/portal/customer';
import { PORTAL_LIMITS, portalEmail } from '../../lib/support/portal/limits';
import { presentCodeSent, presentPortalConfig, presentSession, presentSignedOut } from '../../lib/support/portal/present';
import { openPortalSession, revokePortalSession } from '../../lib/support/portal/sessions';
import { ConnectedSite } from '../../lib/support/sites/store';
import { siteTimeZone } from '../../lib/wp/dates';
import { WpError } from '../../lib/wp/errors';
import { visitorBucket } from '../../lib/wp/http/address-key';
import { ArgsParams, operations, routeSchema } from '../../lib/wp/rest/item-schema';
import { RequestHead, RestRequest, RestResponse, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { portalOperations } from '../../schema/support/portal-args';
import { portalCodeSchema } from '../../schema/support/portal-code';
import { portalConfigSchema } from '../../schema/support/portal-config';
import { portalSessionSchema } from '../../schema/support/portal-session';
import { UrlSite, siteOfUrl, supportRoute } from './kit';

/** The portal's request bodies are a few fields. */
export const PORTAL_MAX_BODY_BYTES = 16 * 1024;

/** The args of each portal operation (schema/support/portal-args.ts). */
export const portalArgs = operations(portalOperations, SUPPORT_SCHEMAS, ['site_id', 'id', 'file_id']);

/** What every portal route shares: its subject, the site the URL names, and the gate on it. */
export const portalRoute = { subject: siteOfUrl, gate: portalGate };

/** What every portal endpoint shares: the site's origins, no credentials, the token header, small bodies. */
export const portalEndpoint = {
  origins: portalOrigins,
  corsCredentials: false,
  corsHeaders: ['X-Svc-Portal'],
  maxBodyBytes: PORTAL_MAX_BODY_BYTES,
} as const;

export const portalConfig = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/config',
  schema: routeSchema(portalConfigSchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ ...portalEndpoint, methods: ['GET'], args: portalArgs.site, permission: allowAnyone, handler: config })],
});

export const portalCode = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/code',
  schema: routeSchema(portalCodeSchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({
      ...portalEndpoint, methods: ['POST'], args: portalArgs.code, permission: allowAnyone, handler: sendCode,
      rateLimit: [
        { name: 'portal.code.email', limit: PORTAL_LIMITS.codesPerEmailHour, windowSeconds: 3600, key: (req) => `${req.urlParams.site_id}:${portalEmail(req.params.email)}` },
        { name: 'portal.code.ip', limit: PORTAL_LIMITS.codesPerIpHour, windowSeconds: 3600, key: (req) => visitorBucket(req.ip) },
      ],
    }),
  ],
});

export const portalSession = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/session',
  schema: routeSchema(portalSessionSchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({
      ...portalEndpoint, methods: ['POST'], args: portalArgs.session, permission: allowAnyone, handler: signIn,
      rateLimit: { name: 'portal.session.ip', limit: PORTAL_LIMITS.signInsPerIp, windowSeconds: PORTAL_LIMITS.signInWindowSeconds, key: (req) => visitorBucket(req.ip) },
    }),
    endpoint({ ...portalEndpoint, methods: ['DELETE'], args: portalArgs.site, principal: signedInCustomer, handler: signOut }),
  ],
});

type PortalRequest<O extends keyof typeof portalArgs, P = unknown> = RestRequest<P, ArgsParams<(typeof portalArgs)[O]>, UrlSite>;

/** Every portal route's first check: the site exists (404 `svc_site_not_found`) and its portal is on (404 `portal_disabled`). */
async function portalGate(head: RequestHead<UrlSite>): Promise<WpError | null> {
  const found = portalOr404(head.subject);
  return found instanceof WpError ? found : null;
}

/** The site's listed addresses, with its portal on or off: a listed page can read why it is refused. */
async function portalOrigins(head: RequestHead<UrlSite>): Promise<string[]> {
  return head.subject?.origins ?? [];
}

/** The site the URL names, its portal on (the gate has said so). */
function portalSite(req: RequestHead<UrlSite>): ConnectedSite {
  const found = portalOr404(req.subject);
  if (found instanceof WpError) throw found;
  return found;
}

/** The signed-in customer: the session of the token in `Authorization: Bearer` or `X-Svc-Portal`. */
export function signedInCustomer(req: RequestHead<UrlSite>): Promise<PortalCustomer | WpError> {
  return portalCustomerOf(req.site, req.subject, bearerSecretOf(req.header('authorization'), req.header('x-svc-portal')));
}

async function config(req: PortalRequest<'site'>): Promise<Record<string, unknown>> {
  return presentPortalConfig(portalSite(req), await siteTimeZone(req.site.options));
}

async function sendCode(req: PortalRequest<'code'>): Promise<RestResponse> {
  await sendPortalCode(req.site, portalSite(req), req.params.email);
  // The same answer for every address: whether anyone has it is not told.
  return new RestResponse(presentCodeSent(), 202);
}

async function signIn(req: PortalRequest<'session'>): Promise<RestResponse> {
  const s = portalSite(req);
  if (!(await consumePortalCode(req.site, s.siteId, req.params.email, req.params.code.trim()))) throw invalidCode();
  const { token, session } = await openPortalSession(req.site, s.siteId, req.params.email);
  return new RestResponse(presentSession(token, session), 201);
}

async function signOut(req: PortalRequest<'site', PortalCustomer>): Promise<Record<string, unknown>> {
  await revokePortalSession(req.site, req.principal.session);
  return presentSignedOut();
}
