/**
 * One Understudy process serving a whole real WordPress 6.1 network (Debian's package, run by PHP on
 * the same MariaDB database), configured by nothing but the network's own wp-config.php: a
 * subdirectory network (the main site, /two/, /three/, a site mapped to its own domain, an archived
 * /four/) and a subdomain network. Customers sign in through PHP's wp-login.php on each site; PHP's
 * cookies and REST nonces are what Understudy accepts there, and what PHP and Understudy answer for
 * the same request (users/me, the site index, each address shape, an archived site) is compared. A
 * ticket written through Understudy on /two/ is read by PHP on /two/ (through $wpdb and get_post(),
 * in a must-use probe: the plugins themselves are not installed in PHP) and not on /three/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scratchDatabase } from '../harness/db';
import { NetworkAnswer, requestAt } from '../harness/network';
import { ORACLE_SALTS } from '../harness/oracle';
import { NetworkSiteSpec, NetworkUser, RunningNetwork, cookieHeader, startWordPressNetwork, wordpressNetworkSkipReason } from '../harness/wordpress-network';
import { StartedServe, startServe } from '../deploy/serve-harness';

const CUSTOMER: NetworkUser = { login: 'customer', password: 'customer-pass-1234', roles: { 2: 'subscriber', 3: 'subscriber' } };
/** A super admin who is a member of the main site only. */
const BOSS: NetworkUser = { login: 'boss', password: 'boss-pass-1234', roles: { 1: 'editor' }, superAdmin: true, applicationPassword: true };

/** A site of a built network as a browser reaches it. */
interface SiteAddress {
  blogId: number;
  host: string;
  /** The site's path, with its slashes (`/two/`). */
  path: string;
}

interface Built {
  net: RunningNetwork;
  server: StartedServe;
}

/** A test's own must-use probe: the support tickets PHP sees on the site a request reached. */
const PROBE_TOKEN = randomBytes(16).toString('hex');
const TICKETS_PROBE = `<?php
// Test fixture: the support tickets of the site this request reached, read through $wpdb and get_post().
add_action( 'plugins_loaded', function () {
	if ( ! isset( $_SERVER['HTTP_X_UNDERSTUDY_TICKETS'] ) || ! hash_equals( '${PROBE_TOKEN}', $_SERVER['HTTP_X_UNDERSTUDY_TICKETS'] ) ) {
		return;
	}
	global $wpdb;
	$ids = $wpdb->get_col( $wpdb->prepare( "SELECT ID FROM {$wpdb->posts} WHERE post_type = %s ORDER BY ID", 'svc_ticket' ) );
	$tickets = array();
	foreach ( $ids as $id ) {
		$post = get_post( (int) $id );
		$tickets[] = array( 'id' => $post->ID, 'title' => $post->post_title, 'author' => (int) $post->post_author, 'status' => $post->post_status );
	}
	header( 'Content-Type: application/json' );
	echo wp_json_encode( array( 'blog_id' => get_current_blog_id(), 'table' => $wpdb->posts, 'tickets' => $tickets ) );
	exit;
}, 0 );
`;

describe('one Understudy process against a real WordPress network', function () {
  this.timeout(300_000);
  /** What `after` undoes, newest first. */
  const cleanups: Array<() => Promise<unknown>> = [];
  let subdirectory: Built;
  let subdomain: Built;

  async function build(domain: string, isSubdomain: boolean, sites: NetworkSiteSpec[]): Promise<Built> {
    const scratch = await scratchDatabase();
    cleanups.push(() => scratch.drop());
    if (scratch.target.client !== 'mysql') throw new Error('unreachable: the skip reason covers SQLite');
    const net = await startWordPressNetwork({
      db: scratch.target, salts: ORACLE_SALTS, domain, subdomain: isSubdomain, sites, users: [CUSTOMER, BOSS], muPlugins: { 'understudy-tickets.php': TICKETS_PROBE },
    });
    cleanups.push(() => net.close());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-wpnet-data-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    // The network's own wp-config.php and no WP_BLOG_ID: the whole network.
    const server = await startServe(['serve', '--port=0'], { WP_CONFIG_PATH: net.configFile, UNDERSTUDY_DATA_DIR: dataDir });
    cleanups.push(() => server.stop());
    return { net, server };
  }

  before(async function () {
    const skip = wordpressNetworkSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    subdirectory = await build('network.test', false, [{ path: '/two/' }, { path: '/three/' }, { path: '/', domain: 'mapped.test' }, { path: '/four/', archived: true }]);
    subdomain = await build('example.test', true, [{ path: '/', domain: 'two.example.test' }, { path: '/', domain: 'three.example.test' }]);
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const php = async (b: Built, host: string, uri: string, headers: Record<string, string> = {}): Promise<NetworkAnswer> => {
    const res = await b.net.request(uri, { headers: { host, ...headers } });
    return { status: res.status, headers: res.headers, text: res.body };
  };
  const ours = (b: Built, host: string, uri: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    requestAt(b.server.url, host, { path: uri, ...init });

  const subdirectorySites: SiteAddress[] = [
    { blogId: 1, host: 'network.test', path: '/' }, { blogId: 2, host: 'network.test', path: '/two/' },
    { blogId: 3, host: 'network.test', path: '/three/' }, { blogId: 4, host: 'mapped.test', path: '/' },
  ];
  const subdomainSites: SiteAddress[] = [
    { blogId: 1, host: 'example.test', path: '/' }, { blogId: 2, host: 'two.example.test', path: '/' }, { blogId: 3, host: 'three.example.test', path: '/' },
  ];

  /** Signs a user (the customer unless told) in through PHP's wp-login.php on the site, with a nonce PHP made there. */
  async function signIn(b: Built, site: SiteAddress, user = CUSTOMER): Promise<Record<string, string>> {
    const { cookies } = await b.net.signIn(user.login, user.password, site.path, site.host);
    const nonce = await b.net.restNonce(cookies, site.path, site.host);
    return { cookie: cookieHeader(cookies), 'x-wp-nonce': nonce };
  }

  /** The same answer from both: status, and every field both return equal. */
  function assertSameJson(phpAnswer: NetworkAnswer, ourAnswer: NetworkAnswer, what: string, fields?: readonly string[]): Record<string, unknown> {
    assert.equal(ourAnswer.status, phpAnswer.status, `${what}: ${ourAnswer.text.slice(0, 300)}`);
    const theirs = JSON.parse(phpAnswer.text) as Record<string, unknown>;
    const mine = JSON.parse(ourAnswer.text) as Record<string, unknown>;
    const shared = (fields ?? Object.keys(theirs)).filter((key) => key in mine);
    assert.deepEqual(pick(mine, shared), pick(theirs, shared), what);
    return theirs;
  }

  for (const [shape, sites, network] of [['subdirectory', subdirectorySites, () => subdirectory], ['subdomain', subdomainSites, () => subdomain]] as const) {
    describe(`the ${shape} network`, () => {
      for (const site of sites) {
        const at = `${site.host}${site.path}`;

        it(`${at}: PHP's cookie and nonce from that site's wp-login.php sign the customer in; users/me answered alike, linking to that site's author page`, async () => {
          const b = network();
          const headers = await signIn(b, site);
          const uri = `${site.path}wp-json/wp/v2/users/me`;
          const phpMe = await php(b, site.host, uri, headers);
          const ourMe = await ours(b, site.host, uri, { headers });
          const theirs = assertSameJson(phpMe, ourMe, `users/me at ${at}`);
          assert.deepEqual(Object.keys(JSON.parse(ourMe.text)), Object.keys(theirs), 'the same fields, in the same order');
          assert.equal(theirs.id, b.net.userIds[CUSTOMER.login]);
          // WordPress puts /blog before the permalinks of a subdirectory network's main site.
          const front = shape === 'subdirectory' && site.blogId === 1 ? 'blog/' : '';
          assert.equal(theirs.link, `http://${at}${front}author/${CUSTOMER.login}/`);

          const ajax = `${site.path}wp-admin/admin-ajax.php?action=rest-nonce`;
          const phpNonce = await php(b, site.host, ajax, { cookie: headers.cookie as string });
          const ourNonce = await ours(b, site.host, ajax, { headers: { cookie: headers.cookie as string } });
          assert.deepEqual([ourNonce.status, ourNonce.text], [phpNonce.status, phpNonce.text], `${ajax} on ${site.host}`);
        });

        it(`${at}: users/me?context=edit through ?rest_route= (that site's roles and capabilities) alike for the customer and a super admin`, async () => {
          const b = network();
          for (const user of [CUSTOMER, BOSS]) {
            const headers = await signIn(b, site, user);
            const uri = `${site.path}?rest_route=/wp/v2/users/me&context=edit`;
            const phpMe = await php(b, site.host, uri, headers);
            const ourMe = await ours(b, site.host, uri, { headers });
            const theirs = assertSameJson(phpMe, ourMe, `${user.login}'s users/me?context=edit at ${at}`);
            assert.deepEqual(Object.keys(JSON.parse(ourMe.text)), Object.keys(theirs), 'the same fields, in the same order');
            assert.deepEqual(theirs.roles, user.roles[site.blogId] ? [user.roles[site.blogId]] : []);
          }
        });

        it(`${at}: the site index (name, description, url, home, namespaces, authentication) as PHP answers it`, async () => {
          const b = network();
          const uri = `${site.path}wp-json/`;
          const phpIndex = await php(b, site.host, uri);
          const ourIndex = await ours(b, site.host, uri);
          assertSameJson(phpIndex, ourIndex, `index at ${at}`, INDEX_FIELDS);
          const theirIndex = JSON.parse(phpIndex.text) as SiteIndex;
          const ourIndexBody = JSON.parse(ourIndex.text) as SiteIndex;
          assert.ok(ourIndexBody.namespaces.includes('wp/v2') && theirIndex.namespaces.includes('wp/v2'), ourIndex.text.slice(0, 300));
          // The core routes Understudy serves, described as PHP describes them there (links to this site's address).
          const coreRoutes = Object.keys(ourIndexBody.routes).filter((route) => route.startsWith('/wp/v2/'));
          assert.ok(coreRoutes.includes('/wp/v2/users/me'), coreRoutes.join(' '));
          // The `locale` argument lists the languages installed beside PHP (Debian's package installs dozens).
          assert.deepEqual(pick(ourIndexBody.routes, coreRoutes), pick(theirIndex.routes, coreRoutes));
          assert.match(JSON.stringify(ourIndexBody.routes['/wp/v2/users/me']), /"enum":\["","en_US","ar",/);
        });
      }
    });
  }

  describe('the address shapes of /two/ and the archived /four/', () => {
    const host = 'network.test';

    it('answers users/me alike through /two/wp-json/ and /two/?rest_route=', async () => {
      const headers = await signIn(subdirectory, subdirectorySites[1] as SiteAddress);
      for (const uri of ['/two/wp-json/wp/v2/users/me', '/two/?rest_route=/wp/v2/users/me', '/two?rest_route=/wp/v2/users/me']) {
        assertSameJson(await php(subdirectory, host, uri, headers), await ours(subdirectory, host, uri, { headers }), uri);
      }
      for (const uri of ['/two/wp-json/', '/two/?rest_route=/']) {
        assertSameJson(await php(subdirectory, host, uri), await ours(subdirectory, host, uri), uri, INDEX_FIELDS);
      }
    });

    it("makes the same nonce at /two/wp-admin/admin-ajax.php?action=rest-nonce as PHP, which each accepts from the other", async () => {
      const { cookie } = await signIn(subdirectory, subdirectorySites[1] as SiteAddress);
      const uri = '/two/wp-admin/admin-ajax.php?action=rest-nonce';
      const theirs = await php(subdirectory, host, uri, { cookie });
      const mine = await ours(subdirectory, host, uri, { headers: { cookie } });
      assert.deepEqual([mine.status, mine.text], [theirs.status, theirs.text]);
      assert.match(mine.text, /^[0-9a-f]{10}$/);
      assert.equal((await php(subdirectory, host, '/three/wp-json/wp/v2/users/me', { cookie, 'x-wp-nonce': mine.text })).status, 200);
      assert.equal((await ours(subdirectory, host, '/three/wp-json/wp/v2/users/me', { headers: { cookie, 'x-wp-nonce': theirs.text } })).status, 200);
      const signedOut = '/two/wp-admin/admin-ajax.php?action=rest-nonce';
      const phpOut = await php(subdirectory, host, signedOut);
      const ourOut = await ours(subdirectory, host, signedOut);
      assert.deepEqual([ourOut.status, ourOut.text], [phpOut.status, phpOut.text], 'signed out');
    });

    it('answers the archived /four/ 410 in every shape, as PHP answers it', async () => {
      const headers = await signIn(subdirectory, subdirectorySites[1] as SiteAddress);
      for (const uri of ['/four/wp-json/wp/v2/users/me', '/four/?rest_route=/wp/v2/users/me', '/four/wp-json/']) {
        const json = { ...headers, accept: 'application/json' };
        assertSameJson(await php(subdirectory, host, uri, json), await ours(subdirectory, host, uri, { headers: json }), `${uri} as JSON`);
        const theirs = await php(subdirectory, host, uri, headers);
        const mine = await ours(subdirectory, host, uri, { headers });
        assert.equal(mine.status, theirs.status, uri);
        assert.equal(mine.status, 410);
        assert.match(mine.headers['content-type'] ?? '', /^text\/html/);
        assert.ok(mine.text.includes('This site has been archived or suspended.') && theirs.text.includes('This site has been archived or suspended.'), uri);
      }
      const boss = await signIn(subdirectory, subdirectorySites[0] as SiteAddress, BOSS);
      for (const uri of ['/four/wp-json/wp/v2/users/me', '/four/?rest_route=/wp/v2/users/me']) {
        assertSameJson(await php(subdirectory, host, uri, boss), await ours(subdirectory, host, uri, { headers: boss }), `${uri}: a super admin signed in by cookie passes`);
      }
      // ms_site_check() looks at the cookie alone: a super admin's application password opens /two/, not the archived /four/.
      const basic = { authorization: `Basic ${Buffer.from(`${BOSS.login}:${subdirectory.net.appPasswords[BOSS.login]}`).toString('base64')}`, accept: 'application/json' };
      for (const uri of ['/two/wp-json/wp/v2/users/me?context=edit', '/four/wp-json/wp/v2/users/me']) {
        assertSameJson(await php(subdirectory, host, uri, basic), await ours(subdirectory, host, uri, { headers: basic }), `${uri} by application password`);
      }
      assert.equal((await ours(subdirectory, host, '/four/wp-json/wp/v2/users/me', { headers: basic })).status, 410);
      const ajax = '/four/wp-admin/admin-ajax.php?action=rest-nonce';
      const theirs = await php(subdirectory, host, ajax, headers);
      const mine = await ours(subdirectory, host, ajax, { headers });
      assert.deepEqual([mine.status, mine.text], [theirs.status, theirs.text]);
      assert.equal(mine.status, 410);
    });
  });

  it('answers the addresses that name no site as PHP does: a path on the main site, an unknown subdomain, another host', async () => {
    const cases: Array<[Built, string, string]> = [
      [subdirectory, 'network.test', '/nosuch/wp-json/'], [subdirectory, 'other.test', '/two/wp-json/'],
      [subdomain, 'nosuch.example.test', '/wp-json/'], [subdomain, 'other.test', '/?rest_route=/'],
    ];
    for (const [b, host, uri] of cases) {
      const theirs = await php(b, host, uri);
      const mine = await ours(b, host, uri);
      assert.deepEqual([mine.status, mine.headers.location], [theirs.status, theirs.headers.location], `${host}${uri}`);
    }
  });

  it('a language installed beside PHP, chosen through Understudy on /two/, is the locale PHP then shows', async () => {
    const headers = await signIn(subdirectory, subdirectorySites[1] as SiteAddress);
    const chosen = await ours(subdirectory, 'network.test', '/two/wp-json/wp/v2/users/me', {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ locale: 'de_DE' }),
    });
    assert.equal(chosen.status, 200, chosen.text);
    const locale = async () => (JSON.parse((await php(subdirectory, 'network.test', '/three/?rest_route=/wp/v2/users/me&context=edit', headers)).text) as { locale: string }).locale;
    assert.equal(await locale(), 'de_DE');
    // Back to the site's language: PHP words its messages (wp_die() through admin-ajax.php) in the user's, Understudy in English only.
    const reset = await ours(subdirectory, 'network.test', '/two/wp-json/wp/v2/users/me', {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ locale: '' }),
    });
    assert.equal(reset.status, 200, reset.text);
    assert.equal(await locale(), 'en_US');
  });

  it('a ticket written through Understudy on /two/ is read by PHP on /two/ and not on /three/', async () => {
    const headers = await signIn(subdirectory, subdirectorySites[1] as SiteAddress);
    const created = await ours(subdirectory, 'network.test', '/two/wp-json/support/v1/tickets', {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ subject: 'Written on two', body: 'Hello from site 2' }),
    });
    assert.equal(created.status, 201, created.text);
    const ticket = JSON.parse(created.text) as { id: number };
    const seen = async (sitePath: string) => JSON.parse((await php(subdirectory, 'network.test', sitePath, { 'x-understudy-tickets': PROBE_TOKEN })).text) as {
      blog_id: number; table: string; tickets: Array<{ id: number; title: string; author: number }>;
    };
    const two = await seen('/two/');
    assert.deepEqual([two.blog_id, two.table], [2, 'wp_2_posts']);
    assert.deepEqual(two.tickets.map(({ id, title, author }) => ({ id, title, author })), [{ id: ticket.id, title: 'Written on two', author: subdirectory.net.userIds[CUSTOMER.login] }]);
    const three = await seen('/three/');
    assert.deepEqual([three.blog_id, three.tickets], [3, []]);
    assert.deepEqual((await seen('/')).tickets, [], 'nor on the main site');
  });
});

interface SiteIndex {
  namespaces: string[];
  routes: Record<string, unknown>;
}

/** The index fields Understudy implements, compared with PHP's. */
const INDEX_FIELDS = ['name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'authentication', 'site_logo', 'site_icon', 'site_icon_url'] as const;

function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}
