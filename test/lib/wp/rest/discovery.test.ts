/**
 * The REST API's self-description: the site index (`GET /wp-json/`), a namespace index
 * (`GET /wp-json/test/v1`), and OPTIONS on a route, as WP_REST_Server builds them.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { API, NS, SITE, SampleOracle, basicAuth, openSampleOracle } from '../../../harness/sample-routes';
import { assertRestError, assertRestHeaders, exchange } from '../../../harness/wp-http';

const THINGS_ROUTE = {
  namespace: NS,
  methods: ['GET', 'POST'],
  endpoints: [
    {
      methods: ['GET'],
      args: {
        count: { type: 'integer', default: 10, minimum: 1, maximum: 100, required: false },
        flag: { type: 'boolean', default: false, required: false },
        color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red', required: false },
        ids: { type: 'array', items: { type: 'integer' }, default: [], required: false },
        name: { type: 'string', description: 'An optional name.', required: false },
      },
    },
    {
      methods: ['POST'],
      args: {
        title: { type: 'string', minLength: 1, required: true },
        amount: { type: 'integer', required: true },
        draft: { type: 'boolean', default: true, required: false },
      },
    },
  ],
  _links: { self: [{ href: `${API}/test/v1/things` }] },
};

describe('REST discovery: index, namespace index, OPTIONS', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });
  const get = (url: string) => request(oracle.app).get(url);

  describe('GET /wp-json/', () => {
    it('describes the site from its options, in WordPress\'s key order', async () => {
      const res = await get('/wp-json/');
      assert.equal(res.status, 200);
      assertRestHeaders(res);
      assert.deepEqual(Object.keys(res.body), [
        'name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'namespaces', 'authentication', 'routes',
        'site_logo', 'site_icon', 'site_icon_url', '_links',
      ]);
      assert.equal(res.body.name, 'WP Oracle');
      assert.equal(res.body.description, 'Reference oracle for the wp-json / admin-ajax re-implementation');
      assert.equal(res.body.url, SITE);
      assert.equal(res.body.home, SITE);
      assert.equal(res.body.gmt_offset, '0');
      assert.equal(res.body.timezone_string, '');
      assert.deepEqual([res.body.site_logo, res.body.site_icon, res.body.site_icon_url], [0, 0, '']);
      assert.deepEqual(res.body._links, { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
      assert.equal(res.headers.allow, 'GET');
      assert.equal((await get('/wp-json')).text, res.text, 'with or without the slash');
      assert.equal((await get('/?rest_route=/')).text, res.text);
    });

    it('lists the namespaces and the application-password endpoint of this local site', async () => {
      const res = await get('/wp-json/');
      assert.deepEqual(res.body.namespaces, [NS]);
      assert.deepEqual(res.body.authentication, {
        'application-passwords': { endpoints: { authorization: `${SITE}/wp-admin/authorize-application.php` } },
      });
    });

    it('lists every route by its pattern, with methods, endpoint args and self links for fixed routes', async () => {
      const res = await get('/wp-json/');
      const routes = res.body.routes;
      assert.deepEqual(Object.keys(routes).slice(0, 5), ['/', '/test/v1', '/test/v1/things', '/test/v1/things/(?P<id>\\d+)', '/test/v1/echo/(?P<slot>[\\w-]+)']);
      assert.deepEqual(routes['/'], {
        namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
        _links: { self: [{ href: `${API}/` }] },
      });
      // Exactly THINGS_ROUTE: in the view context there is no schema.
      assert.deepEqual(routes['/test/v1/things'], THINGS_ROUTE);
      assert.deepEqual(routes['/test/v1/things/(?P<id>\\d+)'], {
        namespace: NS, methods: ['GET', 'DELETE'],
        endpoints: [
          { methods: ['GET'], args: { id: { type: 'integer', required: false } } },
          { methods: ['DELETE'], args: { id: { type: 'integer', required: false } } },
        ],
      });
      assert.deepEqual(routes['/test/v1/upload'].endpoints, [{ methods: ['POST'], args: [] }], 'no args is an empty list');
      assert.ok(res.text.includes('"\\/test\\/v1\\/things\\/(?P<id>\\\\d+)":{'), 'the pattern, escaped as PHP escapes it');
    });

    it('adds each route\'s schema with context=help', async () => {
      const res = await get('/wp-json/?context=help');
      assert.deepEqual(res.body.routes['/test/v1/things'].schema, {
        $schema: 'http://json-schema.org/draft-04/schema#', title: 'thing', type: 'object', properties: { id: { type: 'integer' } },
      });
      assert.deepEqual(Object.keys(res.body.routes['/test/v1/things']), ['namespace', 'methods', 'endpoints', 'schema', '_links']);
    });

    it('links the active theme for users who may edit content', async () => {
      const admin = await get('/wp-json/').set('Authorization', basicAuth('admin'));
      assert.deepEqual(admin.body._links, {
        help: [{ href: 'https://developer.wordpress.org/rest-api/' }],
        'wp:active-theme': [{ href: `${API}/wp/v2/themes/twentytwentythree` }],
        curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
      });
      const customer = await get('/wp-json/').set('Authorization', basicAuth('customer1'));
      assert.deepEqual(Object.keys(customer.body._links), ['help']);
    });
  });

  describe('GET /wp-json/<namespace>', () => {
    it('lists the namespace\'s routes with a link up to the index', async () => {
      const res = await get('/wp-json/test/v1');
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['namespace', 'routes', '_links']);
      assert.equal(res.body.namespace, NS);
      assert.deepEqual(Object.keys(res.body.routes), [
        '/test/v1', '/test/v1/things', '/test/v1/things/(?P<id>\\d+)', '/test/v1/echo/(?P<slot>[\\w-]+)', '/test/v1/items', '/test/v1/upload',
        '/test/v1/limited', '/test/v1/bucketed', '/test/v1/stream', '/test/v1/gated/(?P<site>\\w+)', '/test/v1/keyed/(?P<site>\\w+)', '/test/v1/boom', '/test/v1/wperror', '/test/v1/nothing', '/test/v1/undefined', '/test/v1/no-content', '/test/v1/nan', '/test/v1/raw',
      ]);
      assert.deepEqual(res.body.routes['/test/v1'], {
        namespace: NS, methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { namespace: { default: NS, required: false }, context: { default: 'view', required: false } } }],
        _links: { self: [{ href: `${API}/test/v1` }] },
      });
      assert.deepEqual(res.body.routes['/test/v1/things'], THINGS_ROUTE);
      assert.deepEqual(res.body._links, { up: [{ href: `${API}/` }] });
      assert.equal((await get('/wp-json/test/v1/')).text, res.text);
    });

    it('reads the namespace and context from its parameters, as get_namespace_index() does', async () => {
      const help = await get('/wp-json/test/v1?context=help');
      assert.ok(help.body.routes['/test/v1/things'].schema);
      const other = await get('/wp-json/test/v1?namespace=nope/v9');
      assertRestError(other, 404, 'rest_invalid_namespace', 'The specified namespace could not be found.');
    });
  });

  describe('OPTIONS', () => {
    it('describes the matched route with its schema, and Allow for this caller', async () => {
      const res = await request(oracle.app).options('/wp-json/test/v1/things');
      assert.equal(res.status, 200);
      assertRestHeaders(res);
      assert.deepEqual(Object.keys(res.body), ['namespace', 'methods', 'endpoints', 'schema', '_links']);
      assert.deepEqual({ ...res.body, schema: undefined }, { ...THINGS_ROUTE, schema: undefined });
      assert.equal(res.headers.allow, 'GET');
      const signedIn = await request(oracle.app).options('/wp-json/test/v1/things').set('Authorization', basicAuth('agent1'));
      assert.equal(signedIn.headers.allow, 'GET, POST');
      const captured = JSON.parse(exchange('OPTIONS users/me').response.body as string);
      assert.deepEqual(Object.keys(captured), Object.keys(res.body));
    });

    it('describes a route with URL parameters without a self link', async () => {
      const res = await request(oracle.app).options('/wp-json/test/v1/things/12').set('Authorization', basicAuth('manager1'));
      assert.deepEqual(Object.keys(res.body), ['namespace', 'methods', 'endpoints']);
      assert.equal(res.headers.allow, 'GET, DELETE');
    });

    it('answers 200 [] without Allow for an unknown route', async () => {
      const res = await request(oracle.app).options('/wp-json/test/v1/nope');
      assert.equal(res.status, 200);
      assert.equal(res.text, '[]');
      assert.equal(res.headers.allow, undefined);
    });

    it('is reached through ?_method=OPTIONS too, and authentication errors come first', async () => {
      const viaQuery = await get('/wp-json/test/v1/things?_method=OPTIONS');
      assert.deepEqual(viaQuery.body.methods, ['GET', 'POST']);
      const badNonce = await request(oracle.app).options('/wp-json/test/v1/things').set('X-WP-Nonce', 'deadbeef00');
      assertRestError(badNonce, 403, 'rest_cookie_invalid_nonce');
    });
  });
});
