/** Route keys: what replay results, rules and proxy routing are grouped and matched by. */
import assert from 'node:assert/strict';
import { buildSurface } from '../../../lib/app';
import { routeGlob, routeKeyOf, targetOf } from '../../../lib/replay/route-key';

describe('route keys', () => {
  const { rest } = buildSurface();

  it('finds the REST route of pretty, index.php and ?rest_route= URLs, as lib/app.ts routes them', () => {
    assert.deepEqual(targetOf('http://x.test/wp-json/wp/v2/users/me/'), { kind: 'rest', path: '/wp/v2/users/me' });
    assert.deepEqual(targetOf('/index.php/wp-json/wp/v2/users/me?context=edit'), { kind: 'rest', path: '/wp/v2/users/me' });
    assert.deepEqual(targetOf('/?rest_route=%2Fwp%2Fv2%2Fusers%2Fme'), { kind: 'rest', path: '/wp/v2/users/me' });
    assert.deepEqual(targetOf('/wp-json'), { kind: 'rest', path: '/' });
    assert.deepEqual(targetOf('/about/?x=1'), { kind: 'page', path: '/about/' });
  });

  it('reads rest_route as WordPress does: any PHP spelling of the name, the last one, the body before the path, front controllers only', () => {
    const tickets = { kind: 'rest', path: '/support/v1/tickets' };
    for (const url of [
      '/?rest_route=/%73upport/v1/tickets', '/?%72est_route=/support/v1/tickets', '/?rest.route=/support/v1/tickets', '/?rest+route=/support/v1/tickets',
      '/?rest[route=/support/v1/tickets', '/?+rest_route%00x=/support/v1/tickets', '/?rest_route=/wp/v2/posts&rest_route=/support/v1/tickets',
      '/wp-js%6Fn/%2573upport/v1/tickets', '//wp-json/support/v1/tickets/', '/wp-json/wp/v2/posts&rest_route=/support/v1/tickets', '/indexXphp/wp-json/support/v1/tickets',
    ]) assert.deepEqual(targetOf(url), tickets, url);
    assert.deepEqual(targetOf('/?rest_route[]=/support/v1/tickets'), { kind: 'rest', path: '/', invalid: true });
    const form = 'application/x-www-form-urlencoded';
    assert.deepEqual(targetOf('/wp-json/wp/v2/posts', 'POST', 'rest_route=/support/v1/tickets', form), tickets);
    assert.deepEqual(targetOf('/?rest_route=/wp/v2/posts', 'POST', 'rest_route=/support/v1/tickets', form), { kind: 'rest', path: '/wp/v2/posts' });
    assert.deepEqual(targetOf('/', 'POST', 'rest_route=/support/v1/tickets', 'application/json'), { kind: 'page', path: '/' });
    assert.deepEqual(targetOf('/wp-login.php?rest_route=/support/v1/tickets'), { kind: 'page', path: '/wp-login.php' });
    assert.deepEqual(targetOf('/wp-admin/admin-ajax.php?rest_route=/support/v1/tickets&action=a'), { kind: 'ajax', action: 'a' });
  });

  it('leaves rest_route under /wp-admin/ to PHP: the dashboard, its pages, admin-ajax.php with a path after it', () => {
    for (const path of ['/wp-admin/', '/wp-admin', '/wp-admin/network/', '/wp-%61dmin/', '//wp-admin//user/', '/x/../wp-admin/', '/wp-admin/nothing/', '/wp-admin/admin-ajax.php/x']) {
      assert.deepEqual(targetOf(`${path}?rest_route=/support/v1/tickets`), { kind: 'page', path }, path);
      assert.deepEqual(targetOf(path, 'POST', 'rest_route=/support/v1/tickets', 'application/x-www-form-urlencoded'), { kind: 'page', path }, `${path} (body)`);
    }
    assert.deepEqual(targetOf('/wp-admin-x/?rest_route=/support/v1/tickets'), { kind: 'rest', path: '/support/v1/tickets' }, 'only the wp-admin directory');
  });

  it('takes the admin-ajax action from a POST body before the query, as $_REQUEST does', () => {
    assert.deepEqual(targetOf('/wp-admin/admin-ajax.php?action=a'), { kind: 'ajax', action: 'a' });
    assert.deepEqual(targetOf('/wp-admin/admin-ajax.php?action=a', 'POST', 'action=b&x=1', 'application/x-www-form-urlencoded'), { kind: 'ajax', action: 'b' });
    assert.deepEqual(targetOf('/wp-admin/admin-ajax.php?action=a', 'GET', 'action=b'), { kind: 'ajax', action: 'a' });
    const multipart = '--XX\r\nContent-Disposition: form-data; name="action"\r\n\r\nfrm_form_submit\r\n--XX--\r\n';
    assert.deepEqual(targetOf('/wp-admin/admin-ajax.php', 'POST', multipart, 'multipart/form-data; boundary=XX'), { kind: 'ajax', action: 'frm_form_submit' });
    assert.equal(routeKeyOf(targetOf('/wp-admin/admin-ajax.php')), 'admin-ajax:(none)');
  });

  it('names REST routes as Understudy declares them, and collapses ids on routes it does not know', () => {
    assert.equal(routeKeyOf(targetOf('/wp-json/wp/v2/users/me'), rest), '/wp/v2/users/me');
    assert.equal(routeKeyOf(targetOf('/wp-json/wp/v2/posts/17/revisions/3'), rest), '/wp/v2/posts/{id}/revisions/{id}');
    assert.equal(routeKeyOf(targetOf('/wp-json/x/v1/chat/123e4567-e89b-12d3-a456-426614174000')), '/x/v1/chat/{uuid}');
    assert.equal(routeKeyOf(targetOf('/shop/')), 'page:/shop/');
  });

  it('matches route globs: * within a segment, ** across segments', () => {
    assert.ok(routeGlob('/support/v1/tickets/*').test('/support/v1/tickets/{id}'));
    assert.ok(!routeGlob('/support/v1/tickets/*').test('/support/v1/tickets/{id}/messages'));
    assert.ok(routeGlob('/support/v1/**').test('/support/v1/tickets/{id}/messages'));
    assert.ok(routeGlob('admin-ajax:frm_*').test('admin-ajax:frm_form_submit'));
  });
});
