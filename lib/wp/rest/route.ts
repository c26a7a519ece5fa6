/**
 * The shape of a REST route declaration, after register_rest_route(): a namespace, a route pattern
 * with named groups, and endpoints that each name their methods, permission check, arguments (JSON
 * Schema) and handler. Routes declare; the server validates, authorizes, dispatches and renders.
 * A route may also declare its `subject`, what its URL names (a connected site, a conversation, a
 * mailbox), resolved once right after matching and handed to every later stage.
 */
import type { CurrentUser } from '../auth/current-user';
import type { UploadedFile } from '../http/multipart';
import type { WpError } from '../errors';
import type { Site } from '../site';
import type { TypedArgs } from './args';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The params of a request whose endpoint declares no typed args: values to check before use. */
export type Params = Record<string, unknown>;

/**
 * What is known of a request before its body is read and its caller authenticated: the URL, the
 * query, the headers, the connection and the route's subject (`S`). A route's gate, an endpoint's
 * `origins`, `headCredential` and a `maxBodyBytes` function see this much, because they are decided
 * before the body is read.
 */
export interface RequestHead<S = unknown> {
  method: HttpMethod;
  /** The path after the REST prefix, e.g. `/support/v1/tickets/5`. */
  path: string;
  urlParams: Record<string, string>;
  query: Record<string, unknown>;
  ip: string;
  /** The connection is HTTPS (WordPress's is_ssl()). */
  secure: boolean;
  site: Site;
  /** A request header by case-insensitive name. */
  header(name: string): string | undefined;
  /** What the URL names, as the route's `subject` resolver found it (undefined when it declares none). */
  subject: S;
}

/**
 * What a handler and a permission check see of the request. `P` is the caller when it is not a
 * WordPress user (a mailbox, a connected site, a portal session), as the endpoint's principal
 * resolver identified it. `A` is the params as the endpoint's args validated them (TypedArgs). `S` is
 * the route's subject.
 */
export interface RestRequest<P = unknown, A extends object = Params, S = unknown> extends RequestHead<S> {
  /**
   * Validated and coerced arguments merged with the rest, in WordPress's order (JSON, body, query,
   * URL, defaults). Typed as the endpoint's args declare them (undeclared ones are there, untyped).
   */
  params: A;
  /** The decoded JSON or form body, or null. */
  body: Record<string, unknown> | null;
  rawBody: Buffer | null;
  files: UploadedFile[];
  user: CurrentUser;
  /** The caller the endpoint's principal resolver identified (undefined when it declares none). */
  principal: P;
}

/** A permission check: true to go on; false becomes rest_forbidden (401 signed out, 403 signed in). */
export type PermissionCheck<P = unknown> = (req: RestRequest<P>) => boolean | WpError | Promise<boolean | WpError>;

/** A handler's answer when it needs a status, headers or pagination; plain values become a 200. */
export class RestResponse {
  constructor(
    public data: unknown,
    public status = 200,
    public headers: Record<string, string> = {},
  ) {}

  /** WP: the collection headers X-WP-Total and X-WP-TotalPages (the server adds the Link header). */
  paginate(total: number, totalPages: number): this {
    this.headers['X-WP-Total'] = String(total);
    this.headers['X-WP-TotalPages'] = String(totalPages);
    return this;
  }
}

/** A body the server sends as it is (attachments): not JSON-encoded, not filtered. */
export class RawResponse {
  constructor(
    public body: Buffer,
    public headers: Record<string, string>,
    public status = 200,
  ) {}
}

/**
 * A size of a rate limit: a number, or one decided per request (e.g. read from a setting). Written as
 * a method's type so that limits typed by their endpoint's params fit a list of endpoints, as the
 * endpoint's own methods do.
 */
export type LimitSize<A extends object = Params, P = unknown, S = unknown> =
  | number
  | { size(req: RestRequest<P, A, S>): number | Promise<number> }['size'];

/** A rate limit, asked after the principal and permission stages: `req.principal` is resolved. */
export interface RateLimitSpec<A extends object = Params, P = unknown, S = unknown> {
  /** Bucket name, e.g. `tickets.create`. */
  name: string;
  /** Requests allowed per window: a number, or a function of the request when a setting decides it. */
  limit: LimitSize<A, P, S>;
  /** The window's length in seconds, likewise. */
  windowSeconds: LimitSize<A, P, S>;
  /** Whose bucket this request counts against (defaults to the user ID, else the address). */
  key?(req: RestRequest<P, A, S>): string;
  /**
   * True for a request the limit does not apply to, asked after the permission check and before
   * counting: such a request is neither counted nor refused. For retries that can only replay an
   * answer already stored (a repeated `request_key`), so a client retrying past the limit still gets
   * its stored answer, and for requests the handler will refuse anyway. Only say true for requests
   * the handler cannot turn into new work.
   */
  exempt?(req: RestRequest<P, A, S>): boolean | Promise<boolean>;
  /**
   * `exact` (the default) commits each request's count before answering. `batched` decides from the
   * shared total as last read plus this process's own count and writes counts every FLUSH_MS
   * (lib/wp/rate-limit.ts): only for limits where being that late across processes is harmless, such
   * as anonymous reads; never for sign-in codes or password guesses.
   */
  counting?: 'exact' | 'batched';
}

/**
 * One endpoint of a route, typed by its principal `P`, by the params `A` its args validate and by
 * its route's subject `S`. Its checks and handler are declared as methods so that endpoints typed
 * differently (`Endpoint<Mailbox>`, `Endpoint<unknown, TicketParams<'update'>>`) fit a route's list of
 * endpoints; declare a typed one with endpoint(), which checks that its handler reads only what its
 * args give.
 */
export interface Endpoint<P = unknown, A extends object = Params, S = unknown> {
  methods: HttpMethod[];
  /**
   * Who the caller is when not a WordPress user, from the credential the request carries (a token,
   * a signature, a key) and the route's subject: the caller, or the WpError that refuses it (401 a
   * bad credential, 404 an unknown resource). Resolved after the arguments, before `permission`.
   */
  principal?(req: RestRequest<unknown, Params, S>): Promise<P | WpError>;
  /**
   * The browser origins allowed to call (e.g. a connected site's listed addresses), asked as soon as
   * the endpoint is matched, before the body is read: every answer of the route, errors included,
   * then varies on Origin and names in CORS exactly the request's origin when it is listed (and no
   * other), and a request from any other origin is refused at the origin stage. Requests without an
   * Origin (servers) are left to the principal and permission. (NoInfer, here and in `permission`:
   * the caller's and the subject's types come from the stages that produce or need them, so that
   * shared checks, `allowAnyone` or a route's origins, need not name them.)
   */
  origins?(req: RequestHead<NoInfer<S>>): Promise<string[]>;
  /**
   * Whether CORS answers to a listed origin allow credentials (`Access-Control-Allow-Credentials:
   * true`, so a browser may send and read cookies). Default true, as WordPress sends it; say false for
   * endpoints whose callers never sign in with cookies (a key, a token), so that no browser sends a
   * visitor's cookies along. Only endpoints with `origins` use it.
   */
  corsCredentials?: boolean;
  /**
   * Request headers, besides WordPress's own, that a listed origin's browser may send (named in
   * `Access-Control-Allow-Headers`), e.g. a token header. Only endpoints with `origins` use it.
   */
  corsHeaders?: readonly string[];
  /**
   * Who may call. Required, except of an endpoint that declares a `principal`: its permission is then
   * `requirePrincipal` unless it says more. Public endpoints say so with `allowAnyone`.
   */
  permission?(req: RestRequest<NoInfer<P>, A, NoInfer<S>>): boolean | WpError | Promise<boolean | WpError>;
  args?: TypedArgs<A>;
  handler(req: RestRequest<P, A, S>): unknown;
  /**
   * The checks of a credential the request's head carries (a key, a token, a signature's headers)
   * that need no body, run before the body is read: the WpError that refuses the request (401 a
   * wrong credential, 404 an unknown resource), or null to go on. So a credential that buys a larger
   * body (`maxBodyBytes` as a function of the head) is proved before that body is read, and a wrong
   * one costs the server no body at all. The principal stage still identifies the caller.
   */
  headCredential?(head: RequestHead<S>): Promise<WpError | null>;
  /**
   * Largest request body accepted, in bytes (default DEFAULT_MAX_BODY_BYTES of ../http/body), or a
   * function giving it for the matched URL (e.g. a limit stored with the resource the URL names) and
   * the request's head (e.g. whether a credential header is present, proved by `headCredential`),
   * asked before the body is read.
   */
  maxBodyBytes?: number | { limit(site: Site, urlParams: Record<string, string>, head: RequestHead<S>): Promise<number> }['limit'];
  /** Keep the body as raw bytes (`rawBody`) instead of decoding it. */
  rawBody?: boolean;
  /** One bucket, or several (per conversation, per address, site-wide) that each count the request. */
  rateLimit?: RateLimitSpec<A, P, S> | RateLimitSpec<A, P, S>[];
}

/**
 * An endpoint whose permission check, handler and rate limits see `req.params` as its `args` type
 * them: `A` is inferred from `args` alone. The handler is checked strictly here: one that expects a
 * param the args do not give (or give another type) does not compile.
 */
export function endpoint<A extends object, P = unknown, S = unknown>(
  declared: Endpoint<P, NoInfer<A>, S> & { args: TypedArgs<A>; handler: (req: RestRequest<P, NoInfer<A>, S>) => unknown },
): Endpoint<P, A, S> {
  return declared;
}

/** A route, typed by its subject `S` (what its URL names; undefined when it declares none). */
export interface RouteDeclaration<S = unknown> {
  namespace: string;
  /** Pattern after the namespace, with WordPress-style named groups: `/tickets/(?P<id>\\d+)`. */
  route: string;
  endpoints: Endpoint<unknown, Params, S>[];
  /**
   * What the URL names (a connected site, a conversation, a mailbox), resolved once per request right
   * after matching, before anything else asks (gate, origins, body limit, principal, permission, rate
   * limits, handler): each sees it as `subject`. A WpError is the answer, before the body is read (it
   * carries the route's Vary: Origin but names no origin). Resolve a subject that may be missing to
   * null instead when a later stage must answer that (after the args, with CORS), as it did before.
   */
  subject?(head: RequestHead<undefined>): Promise<S | WpError>;
  /** The item schema shown by OPTIONS. */
  schema?: () => Record<string, unknown>;
  /** Headers every answer of this route carries (e.g. Cache-Control on ticket routes). */
  headers?: Record<string, string>;
  /** A condition the route needs (e.g. working storage), checked right after matching. */
  availability?: Availability;
  /**
   * A condition of the matched URL (e.g. a feature switched off for the resource it names), checked
   * first of all: right after the route's origins are listed (so the answer carries its CORS) and
   * before the body is read, authentication and arguments. An error is the answer.
   */
  gate?(head: RequestHead<S>): Promise<WpError | null>;
  /**
   * On a network served by one process: the blog whose route this URL names, whichever site's address
   * it reached (a mail webhook's route key names its blog); null or absent: the address's own site.
   * Read from the URL alone, before any site is opened (lib/network-route.ts).
   */
  blogOfUrl?(urlParams: Record<string, string>): number | null;
}

/** A route's dependency on something that can be down: checked first, and consulted when anything fails. */
export interface Availability {
  /** An error to answer with instead of serving, or null to go on. */
  check(site: Site): Promise<WpError | null>;
  /** The answer for a failure caused by the dependency (e.g. a lost database), or null for others. */
  onFailure(err: unknown): WpError | null;
}

/** The permission of a public endpoint, named so that being public is a visible decision. */
export const allowAnyone: PermissionCheck = () => true;

/**
 * The permission of an endpoint whose principal decides who may call: the principal stage has
 * refused every other caller, so its resolved caller may. The default of an endpoint that declares
 * a principal and no permission.
 */
export const requirePrincipal: PermissionCheck = (req) => req.principal !== undefined;

/** Signed-in users only. */
export const requireSignedIn: PermissionCheck = (req) => req.user.id > 0;

/** Users with a capability. */
export function requireCapability(capability: string): PermissionCheck {
  return (req) => req.user.can(capability);
}
