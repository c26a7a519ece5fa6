/**
 * `understudy nginx`: the configuration made from a routing file. (Real nginx runs it in
 * test/deploy/nginx.test.ts.)
 */
import assert from 'node:assert/strict';
import { buildSurface } from '../../../lib/app';
import { nginxConfig, whatGoesToUnderstudy } from '../../../lib/proxy/nginx';
import { createRouting } from '../../../lib/proxy/routing';
import { cli } from '../../cli/cli-harness';

describe('understudy nginx', () => {
  const surface = buildSurface();

  it('by default sends Understudy\'s own namespaces and no WordPress core route', () => {
    assert.deepEqual(whatGoesToUnderstudy(surface, createRouting({}, surface)), { namespaces: ['support/v1', 'frm'], routes: [] });
  });

  it('follows the routing file: a namespace all passed stays with PHP; a core route named for shadow goes alone', () => {
    const routing = createRouting({ namespaces: { frm: 'pass' }, routes: { '/wp/v2/users/me': 'shadow' } }, surface);
    assert.deepEqual(whatGoesToUnderstudy(surface, routing), { namespaces: ['support/v1'], routes: ['/wp/v2/users/me'] });
    const config = nginxConfig(surface, routing, { understudy: '127.0.0.1:9000', routesLabel: 'routes.json' });
    assert.match(config.http, /server "127\.0\.0\.1:9000";/);
    assert.match(config.http, /map \$args \$understudy_rest_query \{/);
    assert.match(config.server, /location ~\* \^\/\(\?:index\\\.php\/\)\?wp-json\/wp\/v2\/users\/me\/\?\$ \{/);
    assert.doesNotMatch(config.server, /wp-json\/frm/);
    assert.match(config.server, /location = \/wp-admin\/admin-ajax\.php \{/);
  });

  it('keeps a namespace holding a passed route whole: the proxy behind passes that route itself', () => {
    const routing = createRouting({ routes: { '/support/v1/tickets/*/attachments/*': 'pass' } }, surface);
    assert.deepEqual(whatGoesToUnderstudy(surface, routing).namespaces, ['support/v1', 'frm']);
  });

  it('prints one part or both, and refuses a bad --understudy', async () => {
    const http = await cli(['nginx', '--part=http', '--understudy=127.0.0.1:8181'], {});
    assert.equal(http.status, 0, http.stderr);
    assert.match(http.stdout, /^# understudy nginx: the http \{\} part \(routing: the defaults\)/);
    assert.doesNotMatch(http.stdout, /location/);
    const both = await cli(['proxy', 'nginx'], {});
    assert.match(both.stdout, /upstream understudy \{[\s\S]*location = \/wp-admin\/admin-ajax\.php/);
    const bad = await cli(['nginx', '--understudy=http://x'], {});
    assert.deepEqual([bad.status, bad.stderr], [1, 'Error: --understudy must be host:port, [ipv6]:port or unix:/path (no spaces, quotes, \';\', \'{\' or \'}\'), got "http://x"\n']);
  });
});
