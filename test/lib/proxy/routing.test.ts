/**
 * Proxy routing: the plugins' namespaces and actions are served by default, WordPress core and pages
 * pass, and a routing file overrides per namespace, route or action, refusing what Understudy lacks.
 */
import assert from 'node:assert/strict';
import { buildSurface } from '../../../lib/app';
import { Routing, createRouting } from '../../../lib/proxy/routing';
import { routeKeyOf, targetOf } from '../../../lib/replay/route-key';

const surface = buildSurface();
const decide = (routing: Routing, url: string, method = 'GET', body?: string) => {
  const target = targetOf(url, method, body, body ? 'application/x-www-form-urlencoded' : undefined);
  return routing.decide(target, routeKeyOf(target, surface.rest));
};

describe('proxy routing', () => {
  it('serves the plugins\' namespaces and actions by default and passes WordPress core and pages', () => {
    const routing = createRouting({}, surface);
    assert.equal(decide(routing, '/wp-json/support/v1/tickets/12'), 'serve');
    assert.equal(decide(routing, '/?rest_route=/support/v1/tickets'), 'serve');
    assert.equal(decide(routing, '/wp-json/frm/forms'), 'serve');
    assert.equal(decide(routing, '/wp-admin/admin-ajax.php', 'POST', 'action=frm_form_submit'), 'serve');
    assert.equal(decide(routing, '/wp-json/wp/v2/users/me'), 'pass', 'core route, even though Understudy has it');
    assert.equal(decide(routing, '/wp-json/'), 'pass', 'the index lists every plugin on the site');
    assert.equal(decide(routing, '/wp-json/wp/v2/posts'), 'pass');
    assert.equal(decide(routing, '/wp-admin/admin-ajax.php?action=rest-nonce'), 'pass', 'core action');
    assert.equal(decide(routing, '/wp-admin/admin-ajax.php?action=heartbeat'), 'pass', 'another plugin\'s action');
    assert.equal(decide(routing, '/shop/cart/'), 'pass');
  });

  it('lets a route override its namespace, and a namespace override the default', () => {
    const routing = createRouting({
      namespaces: { 'support/v1': 'shadow', frm: 'pass' },
      routes: { '/support/v1/tickets/{id}/attachments/*': 'pass', '/wp/v2/users/me': 'shadow' },
      ajax: { 'frm_*': 'shadow' },
    }, surface);
    assert.equal(decide(routing, '/wp-json/support/v1/tickets'), 'shadow');
    assert.equal(decide(routing, '/wp-json/support/v1/tickets/3/attachments/9'), 'pass');
    assert.equal(decide(routing, '/wp-json/frm/forms'), 'pass');
    assert.equal(decide(routing, '/wp-json/wp/v2/users/me'), 'shadow');
    assert.equal(decide(routing, '/wp-admin/admin-ajax.php?action=frm_admin_action'), 'shadow');
  });

  it('keeps shadow writes off unless the database is stated to be a copy', () => {
    assert.equal(createRouting({}, surface).shadow.writes, false);
    assert.throws(() => createRouting({ shadow: { writes: true } }, surface), /databaseIsCopy/);
    assert.equal(createRouting({ shadow: { writes: true, databaseIsCopy: true } }, surface).shadow.writes, true);
  });

  it('refuses to serve or shadow what Understudy does not answer, and malformed files', () => {
    assert.throws(() => createRouting({ namespaces: { 'shop/v1': 'serve' } }, surface), /no namespace "shop\/v1" to serve/);
    assert.throws(() => createRouting({ routes: { '/wp/v2/posts': 'shadow' } }, surface), /no route matching "\/wp\/v2\/posts" to shadow/);
    assert.throws(() => createRouting({ ajax: { heartbeat: 'serve' } }, surface), /no admin-ajax action "heartbeat"/);
    assert.doesNotThrow(() => createRouting({ routes: { '/wp/v2/posts': 'pass' } }, surface));
    assert.throws(() => createRouting({ namespaces: { 'support/v1': 'proxy' } }, surface, 'routes.json'), /routes\.json is not a valid routing file/);
  });
});
