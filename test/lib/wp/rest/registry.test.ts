/**
 * The route table (register_rest_route() and match_request_to_handler()): how full routes are built,
 * what registering a route twice does, and which route and endpoint a request reaches.
 */
import assert from 'node:assert/strict';
import { RestRegistry } from '../../../../lib/wp/rest/registry';
import { Endpoint, HttpMethod, allowAnyone } from '../../../../lib/wp/rest/route';

const endpoint = (methods: HttpMethod[], tag: string): Endpoint => ({ methods, permission: allowAnyone, handler: () => tag });

describe('RestRegistry', () => {
  it('builds the full route as "/" + namespace + "/" + route, slashes trimmed', () => {
    const registry = new RestRegistry();
    registry.register({ namespace: '/a/v1/', route: 'items/', endpoints: [endpoint(['GET'], 'items')] });
    registry.register({ namespace: 'a/v1', route: '/items/(?P<id>\\d+)', endpoints: [endpoint(['GET'], 'item')] });
    assert.deepEqual(registry.all.map((r) => r.fullRoute), ['/', '/a/v1', '/a/v1/items', '/a/v1/items/(?P<id>\\d+)']);
    assert.deepEqual(registry.namespaces, ['a/v1']);
    assert.equal(registry.match('/a/v1/items', 'GET')?.endpoint.handler({} as never), 'items');
    assert.deepEqual(registry.match('/A/V1/Items/12', 'GET')?.urlParams, { id: '12' });
  });

  it('matches a path asked before anew once a route is registered, and hands each request its own URL parameters', () => {
    const registry = new RestRegistry();
    registry.register({ namespace: 'a/v1', route: '/items/(?P<id>\\d+)', endpoints: [endpoint(['GET'], 'item')] });
    assert.equal(registry.match('/a/v1/items/7', 'POST'), null);
    registry.register({ namespace: 'a/v1', route: '/items/(?P<id>\\d+)', endpoints: [endpoint(['POST'], 'change')] });
    assert.equal(registry.match('/a/v1/items/7', 'POST')?.endpoint.handler({} as never), 'change');
    const first = registry.match('/a/v1/items/7', 'GET');
    if (first) first.urlParams.id = 'changed by a handler';
    assert.deepEqual(registry.match('/a/v1/items/7', 'GET')?.urlParams, { id: '7' });
  });

  it('refuses a route without a namespace, a route or a permission check', () => {
    const registry = new RestRegistry();
    assert.throws(() => registry.register({ namespace: '/', route: '/x', endpoints: [endpoint(['GET'], 'x')] }), /namespaced/);
    assert.throws(() => registry.register({ namespace: 'a/v1', route: '', endpoints: [endpoint(['GET'], 'x')] }), /Route must be specified/);
    assert.throws(() => registry.register({ namespace: 'a/v1', route: '/x', endpoints: [{ methods: ['GET'], handler: () => 1 } as unknown as Endpoint] }), /permission/);
  });

  it('adds the endpoints of a route registered again to the same route', () => {
    const registry = new RestRegistry();
    registry.register({ namespace: 'a/v1', route: '/me', endpoints: [endpoint(['GET'], 'read')] });
    registry.register({ namespace: 'a/v1', route: 'me/', endpoints: [endpoint(['POST', 'PUT'], 'write')], schema: () => ({ title: 'me' }) });
    const routes = registry.all.filter((r) => r.fullRoute === '/a/v1/me');
    assert.equal(routes.length, 1);
    assert.deepEqual(routes[0]?.endpoints.map((e) => e.methods), [['GET'], ['POST', 'PUT']]);
    assert.deepEqual(routes[0]?.declaration.schema?.(), { title: 'me' });
    assert.equal(registry.match('/a/v1/me', 'PUT')?.endpoint.handler({} as never), 'write');
  });

  it('takes the first route and endpoint that serve the method, HEAD falling back to GET', () => {
    const registry = new RestRegistry();
    registry.register({ namespace: 'a/v1', route: '/(?P<slug>[a-z]+)', endpoints: [endpoint(['POST'], 'slug-post')] });
    registry.register({ namespace: 'a/v1', route: '/items', endpoints: [endpoint(['GET'], 'items-get')] });
    assert.equal(registry.match('/a/v1/items', 'POST')?.endpoint.handler({} as never), 'slug-post');
    assert.equal(registry.match('/a/v1/items', 'GET')?.endpoint.handler({} as never), 'items-get');
    assert.equal(registry.match('/a/v1/items', 'HEAD')?.endpoint.handler({} as never), 'items-get');
    assert.equal(registry.match('/a/v1/items', 'DELETE'), null);
  });

  it('tries the routes of every namespace that prefixes the path, in registration order', () => {
    const registry = new RestRegistry();
    // Namespace `a` prefixes `a/v1/...` too (WordPress compares plain prefixes), so its catch-all comes first.
    registry.register({ namespace: 'a', route: '/(?P<rest>.+)', endpoints: [endpoint(['GET'], 'a-rest')] });
    registry.register({ namespace: 'a/v1', route: '/items', endpoints: [endpoint(['GET'], 'a-v1-items')] });
    assert.equal(registry.match('/a/v1/items', 'GET')?.endpoint.handler({} as never), 'a-rest');
    assert.deepEqual(registry.match('/a/v1/items', 'GET')?.urlParams, { rest: 'v1/items' });
    assert.equal(registry.match('/', 'GET')?.route.fullRoute, '/', 'no namespace prefixes "/": every route is tried');
    assert.equal(registry.match('/b/v1', 'GET'), null);
  });

  it('reads the blog a route names by itself only from the route a request reaches', () => {
    const registry = new RestRegistry();
    const blogOfUrl = (params: Record<string, string>) => (/^site-(\d+)$/.exec(params.key ?? '') ? Number(params.key?.slice(5)) : null);
    registry.register({ namespace: 'a/v1', route: '/hooks/site-1', endpoints: [endpoint(['POST'], 'first')] });
    registry.register({ namespace: 'a/v1', route: '/hooks/(?P<key>[\\w-]+)', endpoints: [endpoint(['POST'], 'hook')], blogOfUrl });
    assert.equal(registry.blogNamedBy('/a/v1/hooks/site-3'), 3);
    assert.equal(registry.blogNamedBy('/A/V1/HOOKS/site-3'), 3, 'matched without regard to case, as WordPress matches');
    assert.equal(registry.blogNamedBy('/a/v1/hooks/site-1'), null, 'an earlier route that names no blog serves this path');
    assert.equal(registry.blogNamedBy('/a/v1/hooks/nobody'), null);
    assert.equal(registry.blogNamedBy('/a/v1/other/site-3'), null);
  });
});
