/**
 * A route's subject (lib/wp/rest/route.ts `subject`): what its URL names, resolved once right after
 * matching and handed to every later stage; an endpoint that declares a principal needs no
 * permission of its own (`requirePrincipal`); a rate limit's size may be a function of the request.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Express } from 'express';
import { createApp } from '../../../../lib/app';
import { unixSeconds } from '../../../../lib/wp/clock';
import { WpError } from '../../../../lib/wp/errors';
import { AjaxRegistry } from '../../../../lib/wp/ajax/dispatcher';
import { PageRegistry } from '../../../../lib/wp/pages';
import { RestRegistry } from '../../../../lib/wp/rest/registry';
import { RouteDeclaration, allowAnyone } from '../../../../lib/wp/rest/route';
import { SampleOracle, openSampleOracle } from '../../../harness/sample-routes';
import { assertRestError } from '../../../harness/wp-http';

const NS = 'subject/v1';

/** A shelf the URL names: `known` exists (listing one origin), `gone` is refused by the resolver, any other is null. */
interface Shelf {
  name: string;
  origins: string[];
}

/** Every stage that asked for the subject, and how often the resolver ran, per request. */
const seen = { resolved: 0, stages: [] as string[] };

const shelfRoute: RouteDeclaration<Shelf | null> = {
  namespace: NS,
  route: '/shelves/(?P<shelf>\\w+)',
  async subject(head) {
    seen.resolved += 1;
    const name = head.urlParams.shelf ?? '';
    if (name === 'gone') return new WpError('test_shelf_gone', 'This shelf is gone.', 410);
    return name === 'known' ? { name, origins: ['https://shelf.example'] } : null;
  },
  async gate(head) {
    seen.stages.push(`gate:${head.subject?.name}`);
    return null;
  },
  endpoints: [{
    methods: ['POST'],
    args: { n: { type: 'integer' } },
    async origins(head) {
      seen.stages.push(`origins:${head.subject?.name}`);
      return head.subject?.origins ?? [];
    },
    async maxBodyBytes(_site, _url, head) {
      seen.stages.push(`body:${head.subject?.name}`);
      return 64;
    },
    async headCredential(head) {
      seen.stages.push(`credential:${head.subject?.name}`);
      return null;
    },
    async principal(req) {
      seen.stages.push(`principal:${req.subject?.name}`);
      return req.subject ? { reader: req.subject.name } : new WpError('test_no_shelf', 'No shelf has this name.', 404);
    },
    permission(req) {
      seen.stages.push(`permission:${req.subject?.name}`);
      return true;
    },
    rateLimit: {
      name: 'test.shelf', limit: 1000, windowSeconds: 60,
      key(req) {
        seen.stages.push(`rate:${req.subject?.name}`);
        return String(req.subject?.name);
      },
    },
    handler(req) {
      seen.stages.push(`handler:${req.subject?.name}`);
      return { subject: req.subject, principal: req.principal };
    },
  }],
};

/** A reader of a shelf: the principal alone decides (no permission declared). */
const readerRoute: RouteDeclaration<Shelf | null> = {
  namespace: NS,
  route: '/readers/(?P<shelf>\\w+)',
  subject: async (head) => (head.urlParams.shelf === 'known' ? { name: 'known', origins: [] } : null),
  endpoints: [{
    methods: ['GET'],
    principal: async (req) => (req.header('x-reader') === 'ok' && req.subject ? { reader: 'ok' } : new WpError('test_bad_reader', 'Not a reader.', 401)),
    handler: (req) => req.principal,
  }],
};

/** The option that sizes the sized route's limit: requests per minute. */
const LIMIT_OPTION = 'test_subject_limit';

const sizedRoute: RouteDeclaration = {
  namespace: NS,
  route: '/sized',
  endpoints: [{
    methods: ['GET'],
    permission: allowAnyone,
    rateLimit: {
      name: 'test.sized',
      limit: async (req) => Number(await req.site.options.get(LIMIT_OPTION, 2)),
      windowSeconds: () => 60,
      key: () => 'all',
    },
    handler: () => ({ ok: true }),
  }],
};

describe('REST route subjects', function () {
  let oracle: SampleOracle;
  let app: Express;
  before(async () => {
    oracle = await openSampleOracle();
    const rest = new RestRegistry();
    for (const route of [shelfRoute, readerRoute, sizedRoute]) rest.register(route);
    app = createApp(oracle.site, { rest, ajax: new AjaxRegistry(), pages: new PageRegistry() });
  });
  after(async () => { await oracle.close(); });
  beforeEach(() => {
    seen.resolved = 0;
    seen.stages = [];
  });

  it('resolves the subject once per request, however many stages ask, and hands it to each', async () => {
    const res = await request(app).post(`/wp-json/${NS}/shelves/known`).set('Origin', 'https://shelf.example').send({ n: 1 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { subject: { name: 'known', origins: ['https://shelf.example'] }, principal: { reader: 'known' } });
    assert.equal(res.headers['access-control-allow-origin'], 'https://shelf.example');
    assert.equal(seen.resolved, 1);
    // The permission is asked again for the Allow header, as WordPress does.
    assert.deepEqual(seen.stages, [
      'origins:known', 'gate:known', 'body:known', 'credential:known', 'principal:known', 'permission:known', 'rate:known', 'handler:known', 'permission:known',
    ]);
  });

  it('lets a later stage answer a subject that is not there (null), as the route decides', async () => {
    const res = await request(app).post(`/wp-json/${NS}/shelves/other`).send({ n: 1 });
    assertRestError(res, 404, 'test_no_shelf');
    assert.equal(seen.resolved, 1);
    assert.deepEqual(seen.stages, ['origins:undefined', 'gate:undefined', 'body:undefined', 'credential:undefined', 'principal:undefined']);
  });

  it("answers the resolver's error before the body is read and before any other stage, varying on Origin", async () => {
    // A body over the endpoint's 64 bytes would be 413 had the body stage been reached; a bad argument 400.
    const res = await request(app).post(`/wp-json/${NS}/shelves/gone`).set('Origin', 'https://shelf.example').send({ n: 'x', pad: 'y'.repeat(200) });
    assertRestError(res, 410, 'test_shelf_gone', 'This shelf is gone.');
    assert.equal(res.headers.vary, 'Origin');
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(seen.resolved, 1);
    assert.deepEqual(seen.stages, []);
  });

  it("resolves a preflight's subject for its origins; a preflight still describes a route whose subject is refused", async () => {
    const res = await request(app).options(`/wp-json/${NS}/shelves/known`).set('Origin', 'https://shelf.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(res.headers['access-control-allow-origin'], 'https://shelf.example');
    assert.equal(seen.resolved, 1);
    const refused = await request(app).options(`/wp-json/${NS}/shelves/gone`).set('Origin', 'https://shelf.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(refused.status, 200);
    assert.equal(refused.body.namespace, NS);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
  });

  it('lets the principal alone decide on an endpoint that declares no permission', async () => {
    assert.deepEqual((await request(app).get(`/wp-json/${NS}/readers/known`).set('X-Reader', 'ok')).body, { reader: 'ok' });
    assertRestError(await request(app).get(`/wp-json/${NS}/readers/known`), 401, 'test_bad_reader');
    assertRestError(await request(app).get(`/wp-json/${NS}/readers/other`).set('X-Reader', 'ok'), 401, 'test_bad_reader');
  });

  it('sizes a declared limit by a setting, read on every request', async () => {
    const now = unixSeconds(oracle.clock);
    // The start of a fresh minute: the three steps below share one window.
    oracle.clock.set((now - (now % 60) + 600) * 1000);
    const hit = async () => (await request(app).get(`/wp-json/${NS}/sized`)).status;
    assert.deepEqual([await hit(), await hit(), await hit()], [200, 200, 429]);
    await oracle.site.options.update(LIMIT_OPTION, '4');
    assert.deepEqual([await hit(), await hit()], [200, 429]);
    await oracle.site.options.update(LIMIT_OPTION, '1');
    assert.equal(await hit(), 429);
  });
});
