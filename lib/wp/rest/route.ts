/**
 * The shape of a REST route declaration, after register_rest_route(): a namespace, a route pattern
 * with named groups, and endpoints that each name their methods, permission check, arguments (JSON
 * Schema) and handler. Routes declare; the server validates, authorizes, dispatches and renders.
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
 * query, the headers and the connection. An endpoint's `origins` and a `maxBodyBytes` function see
 * this much, because they are decided before the body is read.
 */
export interface RequestHead {
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
  /**
   * What `make` answers, made once per request under `key` and shared by all its stages: a mailbox
   * that a relay's headers, its signature and its handler each need is read once.
   */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/**
 * What a handler and a permission check see of the request. `P` is the caller when it is not a
 * WordPress user (a mailbox, a connected site, a portal session), as the endpoint's principal
 * resolver identified it. `A` is the params as the endpoint's args validated them (TypedArgs).
 */
export interface RestRequest<P = unknown, A extends object = Params> extends RequestHead {
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

/**
 * Identifies a caller that is not (only) a WordPress user from its credential (a token, a signature,
 * a key): the caller, or the WpError that refuses it (401 a bad credential, 404 an unknown resource).
 */
export type PrincipalResolver<P> = (req: RestRequest) => Promise<P | WpError>;

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

/** A rate limit, asked after the principal and permission stages: `req.principal` is resolved. */
export interface RateLimitSpec<A extends object = Params, P = unknown> {
  /** Bucket name, e.g. `tickets.create`. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** Whose bucket this request counts against (defaults to the user ID, else the address). */
  key?(req: RestRequest<P, A>): string;
  /**
   * True for a request the limit does not apply to, asked after the permission check and before
   * counting: such a request is neither counted nor refused. For retries that can only replay an
   * answer already stored (a repeated `request_key`), so a client retrying past the limit still gets
   * its stored answer. Only say true for requests the handler cannot turn into new work.
   */
  exempt?(req: RestRequest<P, A>): boolean | Promise<boolean>;
  /**
   * `exact` (the default) commits each request's count before answering. `batched` decides from the
   * shared total as last read plus this process's own count and writes counts every FLUSH_MS
   * (lib/wp/rate-limit.ts): only for limits where being that late across processes is harmless, such
   * as anonymous reads; never for sign-in codes or password guesses.
   */
  counting?: 'exact' | 'batched';
}

/**
 * One endpoint of a route, typed by its principal `P` and by the params `A` its args validate. Its
 * checks and handler are declared as methods so that endpoints typed differently
 * (`Endpoint<Mailbox>`, `Endpoint<unknown, TicketParams<'update'>>`) fit a route's list of endpoints;
 * declare a typed one with endpoint(), which checks that its handler reads only what its args give.
 */
export interface Endpoint<P = unknown, A extends object = Params> {
  methods: HttpMethod[];
  /** Who the caller is when not a WordPress user, resolved at the permission stage before `permission`. */
  principal?(req: RestRequest): Promise<P | WpError>;
  /**
   * The browser origins allowed to call (e.g. a connected site's listed addresses), asked as soon as
   * the endpoint is matched, before the body is read: every answer of the route, errors included,
   * then varies on Origin and names in CORS exactly the request's origin when it is listed (and no
   * other), and a request from any other origin is refused at the origin stage. Requests without an
   * Origin (servers) are left to the principal and permission.
   */
  origins?(req: RequestHead): Promise<string[]>;
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
  /** Required: public endpoints say so with `allowAnyone`. */
  permission(req: RestRequest<P, A>): boolean | WpError | Promise<boolean | WpError>;
  args?: TypedArgs<A>;
  handler(req: RestRequest<P, A>): unknown;
  /**
   * The checks of a credential the request's head carries (a key, a token, a signature's headers)
   * that need no body, run before the body is read: the WpError that refuses the request (401 a
   * wrong credential, 404 an unknown resource), or null to go on. So a credential that buys a larger
   * body (`maxBodyBytes` as a function of the head) is proved before that body is read, and a wrong
   * one costs the server no body at all. The principal stage still identifies the caller.
   */
  headCredential?(head: RequestHead): Promise<WpError | null>;
  /**
   * Largest request body accepted, in bytes (default DEFAULT_MAX_BODY_BYTES of ../http/body), or a
   * function giving it for the matched URL (e.g. a limit stored with the resource the URL names) and
   * the request's head (e.g. whether a credential header is present, proved by `headCredential`),
   * asked before the body is read.
   */
  maxBodyBytes?: number | ((site: Site, urlParams: Record<string, string>, head: RequestHead) => Promise<number>);
  /** Keep the body as raw bytes (`rawBody`) instead of decoding it. */
  rawBody?: boolean;
  /** One bucket, or several (per conversation, per address, site-wide) that each count the request. */
  rateLimit?: RateLimitSpec<A, P> | RateLimitSpec<A, P>[];
}

/**
 * An endpoint whose permission check, handler and rate limits see `req.params` as its `args` type
 * them: `A` is inferred from `args` alone. The handler is checked strictly here: one that expects a
 * param the args do not give (or give another type) does not compile.
 */
export function endpoint<A extends object, P = unknown>(
  declared: Endpoint<P, NoInfer<A>> & { args: TypedArgs<A>; handler: (req: RestRequest<P, NoInfer<A>>) => unknown },
): Endpoint<P, A> {
  return declared;
}

export interface RouteDeclaration {
  namespace: string;
  /** Pattern after the namespace, with WordPress-style named groups: `/tickets/(?P<id>\\d+)`. */
  route: string;
  endpoints: Endpoint[];
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
  gate?(head: RequestHead): Promise<WpError | null>;
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

/** Signed-in users only. */
export const requireSignedIn: PermissionCheck = (req) => req.user.id > 0;

/** Users with a capability. */
export function requireCapability(capability: string): PermissionCheck {
  return (req) => req.user.can(capability);
}
