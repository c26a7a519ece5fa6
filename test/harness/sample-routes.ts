/**
 * A test-only REST namespace (`test/v1`) and a few admin-ajax actions, mounted on an app over the
 * oracle site, so that the HTTP rules of the REST server and admin-ajax.php can be proved without
 * depending on any real route. Real WordPress users, application passwords and cookies sign in.
 */
import { Express } from 'express';
import { openSite } from '../../lib/boot';
import { Surface, createApp } from '../../lib/app';
import { memoryLogger } from '../../lib/logger';
import { AjaxRegistry } from '../../lib/wp/ajax/dispatcher';
import { registerCoreAjaxActions } from '../../lib/wp/ajax/core-actions';
import { checkAjaxReferer } from '../../lib/wp/ajax/referer';
import { wpDie, wpSendJson, wpSendJsonError, wpSendJsonSuccess } from '../../lib/wp/ajax/response';
import { fixedClock } from '../../lib/wp/clock';
import { connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { WpError } from '../../lib/wp/errors';
import { PageDeclaration, PageRegistry } from '../../lib/wp/pages';
import { RestRegistry } from '../../lib/wp/rest/registry';
import { Endpoint, RawResponse, RestResponse, RouteDeclaration, allowAnyone, requireCapability, requireSignedIn } from '../../lib/wp/rest/route';
import { ServerSentEvent, StreamResponse } from '../../lib/wp/rest/stream';
import { Site, createSite } from '../../lib/wp/site';
import { credentials, loadOracleInto, oracleConfig } from './oracle';
import { listen } from './wp-http';
import { ScratchDatabase, scratchDatabase } from './db';

export const NS = 'test/v1';
export const SITE = credentials.site_url as string;
export const API = `${SITE}/wp-json`;

/** Five items with nested members, for pagination and `_fields`. */
export const ITEMS = [1, 2, 3, 4, 5].map((id) => ({
  id,
  title: { rendered: `Item ${id}`, raw: `item ${id}` },
  tags: [id, id * 10],
  meta: { color: id % 2 ? 'red' : 'blue', size: id },
}));

export const LIMIT = { limit: 3, windowSeconds: 60 };

/** What the public GET of /things answers: the coerced params, and text that PHP escapes. */
const things: RouteDeclaration = {
  namespace: NS,
  route: '/things',
  schema: () => ({ $schema: 'http://json-schema.org/draft-04/schema#', title: 'thing', type: 'object', properties: { id: { type: 'integer' } } }),
  endpoints: [
    {
      methods: ['GET'],
      permission: allowAnyone,
      args: {
        count: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
        flag: { type: 'boolean', default: false },
        color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red' },
        ids: { type: 'array', items: { type: 'integer' }, default: [] },
        name: { type: 'string', description: 'An optional name.' },
      },
      handler: (req) => ({
        count: req.params.count, flag: req.params.flag, color: req.params.color, ids: req.params.ids,
        name: req.params.name ?? null, user: req.user.id, method: req.method,
        text: 'http://example.test/a/b é ☃ 😀 <tag> & \'q\' "dq"',
      }),
    },
    {
      methods: ['POST'],
      permission: requireSignedIn,
      args: {
        title: { type: 'string', required: true, minLength: 1 },
        amount: { type: 'integer', required: true },
        draft: { type: 'boolean', default: true },
      },
      handler: (req) => new RestResponse({ title: req.params.title, amount: req.params.amount, draft: req.params.draft, user: req.user.id }, 201),
    },
  ],
};

/** A route with a URL parameter, and a DELETE only managers may use. */
const thing: RouteDeclaration = {
  namespace: NS,
  route: '/things/(?P<id>\\d+)',
  endpoints: [
    {
      methods: ['GET'],
      permission: allowAnyone,
      args: { id: { type: 'integer' } },
      handler: (req) => ({ id: req.params.id, url_id: req.urlParams.id }),
    },
    {
      methods: ['DELETE'],
      permission: requireCapability('svc_manage'),
      args: { id: { type: 'integer' } },
      handler: (req) => ({ deleted: true, id: req.params.id }),
    },
  ],
};

/** Every source of a parameter at once: the URL's `slot` and whatever the request carries. */
const echo: RouteDeclaration = {
  namespace: NS,
  route: '/echo/(?P<slot>[\\w-]+)',
  endpoints: [{
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    permission: allowAnyone,
    args: { slot: { type: 'string' }, n: { type: 'integer' }, on: { type: 'boolean' } },
    handler: (req) => ({ method: req.method, slot: req.params.slot, n: req.params.n ?? null, on: req.params.on ?? null, params: req.params }),
  }],
};

/** A paginated collection: `page`/`per_page` over ITEMS. */
const items: RouteDeclaration = {
  namespace: NS,
  route: '/items',
  endpoints: [{
    methods: ['GET'],
    permission: allowAnyone,
    args: {
      page: { type: 'integer', default: 1, minimum: 1 },
      per_page: { type: 'integer', default: 2, minimum: 1, maximum: 100 },
      search: { type: 'string' },
    },
    handler: (req) => {
      const page = req.params.page as number;
      const perPage = req.params.per_page as number;
      const slice = ITEMS.slice((page - 1) * perPage, page * perPage);
      return new RestResponse(slice).paginate(ITEMS.length, Math.ceil(ITEMS.length / perPage));
    },
  }],
};

/** A route that accepts small bodies only. */
const upload: RouteDeclaration = {
  namespace: NS,
  route: '/upload',
  endpoints: [{
    methods: ['POST'],
    permission: allowAnyone,
    maxBodyBytes: 64 * 1024,
    handler: (req) => ({ fields: Object.keys(req.body ?? {}).length, files: req.files.map((f) => f.size) }),
  }],
};

/** A rate-limited route: LIMIT.limit requests per window per caller. */
const limited: RouteDeclaration = {
  namespace: NS,
  route: '/limited',
  endpoints: [{
    methods: ['GET'],
    permission: allowAnyone,
    rateLimit: { name: 'test.limited', ...LIMIT },
    handler: () => ({ ok: true }),
  }],
};

/**
 * Two buckets: per conversation (`?thread=`, 2 a window) and site-wide (LIMIT.limit a window),
 * as chat declares them.
 */
const bucketed: RouteDeclaration = {
  namespace: NS,
  route: '/bucketed',
  endpoints: [{
    methods: ['GET'],
    permission: allowAnyone,
    rateLimit: [
      { name: 'test.thread', limit: 2, windowSeconds: 60, key: (req) => `thread:${String(req.params.thread)}` },
      { name: 'test.site', ...LIMIT, key: () => 'site' },
    ],
    handler: () => ({ ok: true }),
  }],
};

/**
 * An event stream: `first`, then each event the test releases with `EVENT_GATE.release()`, then
 * `done`; a client that leaves ends the wait. `EVENT_GATE.closed` counts the streams whose producer was closed (finished or abandoned).
 */
export const EVENT_GATE = {
  closed: 0,
  waiting: [] as Array<() => void>,
  release(): void { for (const go of this.waiting.splice(0)) go(); },
};

async function* gatedEvents(count: number, signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
  try {
    yield { event: 'first', data: { n: 0 } };
    for (let i = 1; i < count; i++) {
      await new Promise<void>((go, stop) => {
        const onAbort = () => stop(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        EVENT_GATE.waiting.push(() => {
          signal.removeEventListener('abort', onAbort);
          go();
        });
      });
      yield { data: `line ${i}\nsecond line`, id: String(i) };
    }
    yield { event: 'done', data: {} };
  } finally {
    EVENT_GATE.closed++;
  }
}

const stream: RouteDeclaration = {
  namespace: NS,
  route: '/stream',
  // `heartbeat`: milliseconds of quiet after which a `: ping` comment is written.
  endpoints: [{ methods: ['GET'], permission: allowAnyone, handler: (req) => new StreamResponse((signal) => gatedEvents(Number(req.params.count ?? 3), signal), {}, 200, Number(req.params.heartbeat) || undefined) }],
};

/** A connected-site-like caller: `X-Test-Key: key-<site>` identifies the site; only `shop` lists an origin. */
interface SampleCaller {
  site: string;
}

const gatedEndpoint: Endpoint<SampleCaller> = {
  methods: ['GET', 'POST'],
  origins: async (req) => (req.urlParams.site === 'shop' ? ['https://shop.example'] : []),
  principal: async (req) => (req.header('x-test-key') === `key-${req.urlParams.site}`
    ? { site: req.urlParams.site as string }
    : new WpError('test_bad_key', 'The site key is not valid.', 401)),
  permission: (req) => req.principal.site !== 'closed',
  handler: (req) => ({ caller: req.principal }),
};

const gated: RouteDeclaration = { namespace: NS, route: '/gated/(?P<site>\\w+)', endpoints: [gatedEndpoint] };

/**
 * A keyed caller's route: `shop` lists an origin, CORS never allows credentials, and the body limit
 * is 8 KiB with an `X-Test-Key` header (checked later, at the principal stage) and 1 KiB without.
 */
export const KEYED_LIMITS = { withKey: 8 * 1024, withoutKey: 1024 };

const keyedEndpoint: Endpoint<SampleCaller> = {
  methods: ['POST'],
  origins: async (req) => (req.urlParams.site === 'shop' ? ['https://shop.example'] : []),
  corsCredentials: false,
  maxBodyBytes: async (_site, _url, head) => (head.header('x-test-key') ? KEYED_LIMITS.withKey : KEYED_LIMITS.withoutKey),
  args: { n: { type: 'integer' } },
  principal: async (req) => {
    const key = req.header('x-test-key');
    if (key === undefined) return { site: 'browser' };
    return key === `key-${req.urlParams.site}` ? { site: req.urlParams.site as string } : new WpError('test_bad_key', 'The site key is not valid.', 401);
  },
  permission: allowAnyone,
  handler: (req) => ({ caller: req.principal, n: req.params.n ?? null, bytes: req.rawBody?.length ?? JSON.stringify(req.body ?? {}).length }),
};

const keyed: RouteDeclaration = { namespace: NS, route: '/keyed/(?P<site>\\w+)', endpoints: [keyedEndpoint] };

/** Handlers that fail or answer nothing. */
const oddities: RouteDeclaration[] = [
  { namespace: NS, route: '/boom', endpoints: [{ methods: ['GET'], permission: allowAnyone, handler: () => { throw new Error('secret internals: db password hunter2'); } }] },
  { namespace: NS, route: '/wperror', endpoints: [{ methods: ['GET'], permission: allowAnyone, handler: () => new WpError('test_returned', 'Returned, not thrown.', 409, { why: 'test' }) }] },
  { namespace: NS, route: '/nothing', endpoints: [{ methods: ['GET'], permission: allowAnyone, handler: () => null }] },
  { namespace: NS, route: '/undefined', endpoints: [{ methods: ['GET'], permission: allowAnyone, handler: () => undefined }] },
  { namespace: NS, route: '/no-content', endpoints: [{ methods: ['DELETE', 'GET'], permission: allowAnyone, handler: () => new RestResponse({ ignored: true }, 204) }] },
  { namespace: NS, route: '/nan', endpoints: [{ methods: ['GET'], permission: allowAnyone, handler: () => ({ value: Number.NaN }) }] },
  {
    namespace: NS, route: '/raw', endpoints: [{
      methods: ['GET'], permission: allowAnyone,
      handler: () => new RawResponse(Buffer.from('raw bytes/é'), { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Disposition': 'attachment; filename="a.txt"' }, 202),
    }],
  },
];

export const SAMPLE_ROUTES: RouteDeclaration[] = [things, thing, echo, items, upload, limited, bucketed, stream, gated, keyed, ...oddities];

/** admin-ajax actions: one for both sides, one signed-in only, a nonce check, the JSON helpers. */
export function registerSampleAjaxActions(ajax: AjaxRegistry): void {
  ajax.register({
    action: 'test_echo',
    priv: (req) => wpSendJsonSuccess({ side: 'priv', user: req.user.id, action: req.action, params: req.params }),
    nopriv: (req) => wpSendJsonSuccess({ side: 'nopriv', user: req.user.id, action: req.action, params: req.params }),
  });
  ajax.register({ action: 'test_priv_only', priv: (req) => wpDie(`hello ${req.user.id}`) });
  // The pattern plugin actions use: check the nonce with verifyNonce, answer -1/403 when it fails.
  ajax.register({
    action: 'test_nonce',
    priv: async (req) => {
      const ok = await req.site.auth.verifyNonce(req.user, req.params._ajax_nonce, 'svc_ajax');
      if (!ok) return wpDie(-1, 403);
      return wpSendJsonSuccess({ tick: ok });
    },
  });
  ajax.register({ action: 'test_referer', priv: async (req) => (await checkAjaxReferer(req, 'svc_ajax', 'security')) ?? wpSendJsonSuccess() });
  ajax.register({
    action: 'test_json',
    nopriv: (req) => {
      switch (req.params.kind) {
        case 'success-empty': return wpSendJsonSuccess();
        case 'success-null': return wpSendJsonSuccess(null);
        case 'error-empty': return wpSendJsonError();
        case 'error-data': return wpSendJsonError({ reason: 'bad/thing é' }, 422);
        case 'error-wperror': return wpSendJsonError(new WpError('svc_bad', 'It went wrong.', 400, { extra: 1 }));
        case 'plain': return wpSendJson([1, 'two'], 201);
        default: return wpDie('custom', 418);
      }
    },
  });
  ajax.register({ action: 'test_boom', nopriv: () => { throw new Error('ajax secret internals'); } });
  ajax.register({ action: 'test_small', nopriv: (req) => wpDie(`got ${String(req.params.data ?? '').length}`), maxBodyBytes: 1024 });
}

/** A page with an ETag whose text is `?text=`; `?none` leaves the request to the 404. */
export const SAMPLE_PAGE: PageDeclaration = {
  path: '/test/page/:name',
  etag: true,
  handler: async (req) => (req.query.none !== undefined ? null : {
    status: 200, headers: { 'Content-Type': 'text/plain; charset=UTF-8' }, body: `${req.params.name}: ${String(req.query.text ?? '')}\n`,
  }),
};

export function sampleSurface(): Surface {
  const rest = new RestRegistry();
  const ajax = new AjaxRegistry();
  registerCoreAjaxActions(ajax);
  for (const route of SAMPLE_ROUTES) rest.register(route);
  registerSampleAjaxActions(ajax);
  const pages = new PageRegistry();
  pages.register(SAMPLE_PAGE);
  return { rest, ajax, pages };
}

export interface SampleOracle {
  site: Site;
  app: Express;
  clock: ReturnType<typeof fixedClock>;
  logger: ReturnType<typeof memoryLogger>;
  scratch: ScratchDatabase;
  surface: Surface;
  /** A second Site and app over a second connection to the same database (another "process"). */
  openTwin(): Promise<{ site: Site; app: Express }>;
  close(): Promise<void>;
}

/**
 * The sample oracle listening on a loopback port, for tests that speak raw HTTP: opened before the
 * enclosing describe's tests and closed after them. Read `oracle` and `port` inside the tests.
 */
export function servedSampleOracle(): { readonly oracle: SampleOracle; readonly port: number } {
  const served = {} as { oracle: SampleOracle; port: number; close(): Promise<void> };
  before(async () => {
    served.oracle = await openSampleOracle();
    Object.assign(served, await listen(served.oracle.app));
  });
  after(async () => {
    await served.close();
    await served.oracle.close();
  });
  return served;
}

/** The oracle database served by an app whose only routes are the sample ones, at the recorded time. */
export async function openSampleOracle(): Promise<SampleOracle> {
  const scratch = await scratchDatabase();
  await loadOracleInto(scratch);
  const clock = fixedClock(credentials.generated_at * 1000);
  const logger = memoryLogger();
  const config = oracleConfig(scratch);
  const { site } = await openSite(config, { logger, clock });
  const surface = sampleSurface();
  const twins: Site[] = [];
  return {
    site, app: createApp(site, surface), clock, logger, scratch, surface,
    async openTwin() {
      const db = connect({ target: config.db, tables: new Tables({ prefix: config.tablePrefix }) });
      const twin = createSite(config, db, clock, logger);
      twins.push(twin);
      return { site: twin, app: createApp(twin, sampleSurface()) };
    },
    async close() {
      for (const twin of twins) await twin.db.close();
      await site.close();
      await scratch.drop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Credentials real WordPress issued for the oracle
// ---------------------------------------------------------------------------------------------

const sessions = credentials.sessions as Record<string, any>;
const appPasswords = credentials.application_passwords as Record<string, any>;

/** `Authorization` header of a user's application password. */
export const basicAuth = (login: string): string => appPasswords[login].basic_auth_header;
/** The logged-in cookie header of a user's session. */
export const loggedInCookie = (login: string): string => sessions[login].logged_in_cookie.header;
/** The auth (wp-admin) cookie header of a user's session. */
export const authCookie = (login: string): string => sessions[login].auth_cookie.header;
/** The wp_rest nonce WordPress made for a user's session. */
export const restNonce = (login: string): string => sessions[login].rest_nonce;
/** Another nonce WordPress made for a user's session. */
export const sessionNonce = (login: string, action: string): string => sessions[login].nonces[action];
