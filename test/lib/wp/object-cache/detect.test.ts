/**
 * Which object cache a site runs, as Understudy decides at start: from wp-config.php and the
 * object-cache.php drop-in beside it (a fake WordPress tree in a temporary folder, with header-only
 * drop-ins written here), or from the OBJECT_CACHE setting, which also overrides what was detected.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSiteConfig } from '../../../../lib/wp/config';
import { chooseObjectCache } from '../../../../lib/wp/object-cache/detect';
import { ObjectCacheSetting } from '../../../../lib/wp/object-cache/setting';
import { readWpConfig } from '../../../../lib/wp/wp-config';
import { TEST_SALTS } from '../../../cli/cli-harness';

const SITE = { tablePrefix: 'wp_', blogId: 1, multisite: false };

/** Drop-in headers as the two covered drop-ins and two others begin (no code: only the header comment). */
const HEADERS = {
  redis: '<?php\n/**\n * Plugin Name: Redis Object Cache Drop-In\n * Plugin URI: https://wordpress.org/plugins/redis-cache/\n * Version: 2.6.3\n */\n',
  memcached: '<?php\n\n/*\nPlugin Name: Memcached\nDescription: Memcached backend.\nVersion: 4.0.0\nPlugin URI: https://wordpress.org/plugins/memcached/\n*/\n',
  pro: '<?php\n/*\n * Plugin Name: Object Cache Pro (Drop-in)\n * Plugin URI: https://objectcache.pro\n */\n',
  otherMemcached: '<?php\n/*\nPlugin Name: Memcached\nPlugin URI: https://example.test/another-memcached/\n*/\n',
};

const DB = "define( 'DB_NAME', 'blog' ); define( 'DB_USER', 'blog' ); define( 'DB_PASSWORD', 'pw' ); define( 'DB_HOST', '127.0.0.1' );";
const KEYS = Object.entries(TEST_SALTS).map(([name, value]) => `define( '${name}', '${value}' );`).join('\n');

let root: string;

/** A WordPress tree: wp-config.php with `body`, and `files` (relative path → content) beside it. */
function site(body: string, files: Record<string, string> = {}, configAt = 'site/wp-config.php'): string {
  const config = path.join(root, configAt);
  fs.mkdirSync(path.dirname(config), { recursive: true });
  fs.writeFileSync(config, `<?php\n${DB}\n${KEYS}\n$table_prefix = 'wp_';\n${body}\nif ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }\n`);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return config;
}

function detect(config: string, setting?: string): ObjectCacheSetting {
  return chooseObjectCache({ wpConfig: readWpConfig(config), site: SITE, setting }).setting;
}

describe('lib/wp/object-cache: which object cache the site runs', () => {
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-object-cache-')); });
  afterEach(() => { fs.rmSync(root, { recursive: true, force: true }); });

  it('reads the Redis Object Cache drop-in and every constant it takes from wp-config.php', () => {
    const config = site(`
      define( 'WP_REDIS_HOST', 'cache.internal' );
      define( 'WP_REDIS_PORT', '6380' );
      define( 'WP_REDIS_DATABASE', 3 );
      define( 'WP_REDIS_PASSWORD', 'redis-secret' );
      define( 'WP_REDIS_TIMEOUT', 0.5 );
      define( 'WP_REDIS_READ_TIMEOUT', 2 );
      define( 'WP_REDIS_PREFIX', 'shop-cache:' );
      define( 'WP_CACHE_KEY_SALT', 'ignored-when-a-prefix-is-set' );
      define( 'WP_REDIS_SELECTIVE_FLUSH', true );
      define( 'WP_REDIS_GLOBAL_GROUPS', [ 'users', 'site-options' ] );
      define( 'WP_REDIS_IGNORED_GROUPS', array( 'counts', 'plugins' ) );
      define( 'WP_REDIS_UNFLUSHABLE_GROUPS', [ 'userlogins', 'svc-sessions' ] );`, { 'site/wp-content/object-cache.php': HEADERS.redis });
    assert.deepEqual(detect(config), {
      kind: 'redis', scheme: 'tcp', host: 'cache.internal', port: 6380, database: 3, password: 'redis-secret',
      timeoutSeconds: 0.5, readTimeoutSeconds: 2, prefix: 'shop-cache:', selectiveFlush: true,
      globalGroups: ['users', 'site-options'], ignoredGroups: ['counts', 'plugins'], unflushableGroups: ['userlogins', 'svc-sessions'], ...SITE,
    });
  });

  it('fills in the Redis drop-in\'s defaults, takes WP_CACHE_KEY_SALT as the prefix, a socket and a [user, password] pair', () => {
    const config = site(`
      define( 'WP_CACHE_KEY_SALT', 'salted:' );
      define( 'WP_REDIS_SCHEME', 'unix' );
      define( 'WP_REDIS_PATH', '/run/redis/redis.sock' );
      define( 'WP_REDIS_PASSWORD', [ 'wp', 'pass' ] );`, { 'site/wp-content/object-cache.php': HEADERS.redis });
    assert.deepEqual(detect(config), {
      kind: 'redis', scheme: 'unix', host: '127.0.0.1', port: 6379, path: '/run/redis/redis.sock', database: 0, username: 'wp', password: 'pass',
      timeoutSeconds: 1, readTimeoutSeconds: 1, prefix: 'salted:', selectiveFlush: false, globalGroups: [], ignoredGroups: [], unflushableGroups: [], ...SITE,
    });
    const plain = site('', { 'site/wp-content/object-cache.php': HEADERS.redis }, 'plain/wp-config.php');
    fs.renameSync(path.join(root, 'site/wp-content'), path.join(root, 'plain/wp-content'));
    assert.deepEqual(detect(plain), {
      kind: 'redis', scheme: 'tcp', host: '127.0.0.1', port: 6379, database: 0, timeoutSeconds: 1, readTimeoutSeconds: 1, prefix: '',
      selectiveFlush: false, globalGroups: [], ignoredGroups: [], unflushableGroups: [], ...SITE,
    });
  });

  it('reads Automattic\'s memcached drop-in: $memcached_servers, WP_CACHE_KEY_SALT and the drop-in\'s version', () => {
    const config = site(`
      define( 'WP_CACHE_KEY_SALT', 'shop-mc' );
      $memcached_servers = array( 'default' => array( '10.0.0.5:11211', 'unix:///run/memcached.sock' ) );`, { 'site/wp-content/object-cache.php': HEADERS.memcached });
    assert.deepEqual(detect(config), {
      kind: 'memcached', servers: ['10.0.0.5:11211', 'unix:///run/memcached.sock'], salt: 'shop-mc', customUserTables: false, version: '4.0.0', ...SITE,
    });
    const flat = site(`$memcached_servers = [ 'mc1:11211' ]; define( 'CUSTOM_USER_TABLE', 'shared_users' ); define( 'CUSTOM_USER_META_TABLE', 'shared_usermeta' );`);
    assert.deepEqual(detect(flat), { kind: 'memcached', servers: ['mc1:11211'], salt: '', customUserTables: true, version: '4.0.0', ...SITE });
    const none = site('');
    assert.deepEqual(detect(none), { kind: 'memcached', servers: ['127.0.0.1:11211'], salt: '', customUserTables: false, version: '4.0.0', ...SITE });
  });

  it('finds the content folder through WP_CONTENT_DIR, or ABSPATH spelled with dirname( __FILE__ )', () => {
    const moved = site(`define( 'WP_CONTENT_DIR', dirname( __DIR__ ) . '/shared/content' );`, { 'shared/content/object-cache.php': HEADERS.redis });
    assert.equal(detect(moved).kind, 'redis');
    const nested = site(`define( 'ABSPATH', dirname( __FILE__ ) . '/wordpress/' );`, { 'site/wordpress/wp-content/object-cache.php': HEADERS.memcached });
    assert.equal(detect(nested).kind, 'memcached');
    // wp-config.php as a symbolic link to a shared file: PHP's __DIR__ is the real file's folder.
    const shared = site('', { 'shared/wp-content/object-cache.php': HEADERS.redis, 'linked/wp-content/object-cache.php': HEADERS.pro }, 'shared/wp-config.php');
    fs.symlinkSync(shared, path.join(root, 'linked/wp-config.php'));
    assert.equal(detect(path.join(root, 'linked/wp-config.php')).kind, 'redis');
    const relative = site(`define( 'WP_CONTENT_DIR', 'content' );`);
    assert.match((detect(relative) as { reason: string }).reason, /content folder content is relative to PHP's working directory/);
  });

  it('says "unknown", with the drop-in\'s name, for any other drop-in, including another plugin named Memcached', () => {
    const pro = site('', { 'site/wp-content/object-cache.php': HEADERS.pro });
    const chosen = chooseObjectCache({ wpConfig: readWpConfig(pro), site: SITE });
    assert.equal(chosen.setting.kind, 'unknown');
    assert.match((chosen.setting as { reason: string }).reason, /drop-in "Object Cache Pro \(Drop-in\)" is neither/);
    assert.match(chosen.foundBy, /object-cache\.php \(Plugin Name: Object Cache Pro \(Drop-in\)\)/);
    assert.equal(chosen.onUncovered, 'degrade');
    fs.writeFileSync(path.join(root, 'site/wp-content/object-cache.php'), HEADERS.otherMemcached);
    assert.equal(detect(pro).kind, 'unknown');
    fs.writeFileSync(path.join(root, 'site/wp-content/object-cache.php'), '<?php // no header at all\n');
    assert.match((detect(pro) as { reason: string }).reason, /without a Plugin Name header/);
  });

  it('chooses the PHP companion when its must-use plugin is installed, whatever the drop-in; none without a drop-in', () => {
    const config = site('', { 'site/wp-content/object-cache.php': HEADERS.pro, 'site/wp-content/mu-plugins/understudy-cache-companion.php': '<?php\n' });
    assert.deepEqual(detect(config), { kind: 'companion' });
    fs.rmSync(path.join(root, 'site/wp-content'), { recursive: true });
    fs.mkdirSync(path.join(root, 'site/wp-content'));
    assert.deepEqual(detect(config), { kind: 'none' });
  });

  it('does not guess what only PHP can compute, nor what it cannot see: unknown, saying why (never a password)', () => {
    const computed = site(`define( 'WP_REDIS_HOST', getenv( 'REDIS_HOST' ) ); define( 'WP_REDIS_PASSWORD', 'pre' . $secret );`, { 'site/wp-content/object-cache.php': HEADERS.redis });
    assert.match((detect(computed) as { reason: string }).reason, /^WP_REDIS_HOST is computed when PHP runs \(getenv\( 'REDIS_HOST' \)\): set OBJECT_CACHE/);
    const password = site(`define( 'WP_REDIS_PASSWORD', 'pre' . $secret );`);
    assert.deepEqual(detect(password), { kind: 'unknown', reason: 'WP_REDIS_PASSWORD is computed when PHP runs: set OBJECT_CACHE to name the cache' });
    const cluster = site(`define( 'WP_REDIS_CLUSTER', [ 'tcp://a:6379', 'tcp://b:6379' ] );`);
    assert.match((detect(cluster) as { reason: string }).reason, /uses WP_REDIS_CLUSTER/);
    const buckets = site(`$memcached_servers = [ 'default' => [ 'a:11211' ], 'posts' => [ 'b:11211' ] ];`, { 'site/wp-content/object-cache.php': HEADERS.memcached });
    assert.match((detect(buckets) as { reason: string }).reason, /buckets of their own \(posts\)/);
    const alone = site('', {}, 'only-config/wp-config.php');
    assert.match((detect(alone) as { reason: string }).reason, /only-config\/wp-content is not there/);
    assert.deepEqual(detect(site(`define( 'WP_REDIS_DISABLED', true );`, { 'site/wp-content/object-cache.php': HEADERS.redis })), { kind: 'none' });
    assert.equal(detect(site(`define( 'WP_REDIS_DISABLED', getenv( 'NO_REDIS' ) );`)).kind, 'unknown');
  });

  it('lets OBJECT_CACHE override what was detected, in each of its forms', () => {
    const config = site('', { 'site/wp-content/object-cache.php': HEADERS.pro });
    assert.deepEqual(detect(config, 'none'), { kind: 'none' });
    assert.deepEqual(detect(config, 'companion'), { kind: 'companion' });
    assert.deepEqual(detect(config, 'companion:https://php.internal/'), { kind: 'companion', url: 'https://php.internal/' });
    assert.equal(detect(config, 'detect').kind, 'unknown');
    assert.deepEqual(detect(config, 'redis://:p%40ss@cache.internal:6380/2?prefix=shop:&global_groups=users,site-options&selective_flush=1&timeout=0.25'), {
      kind: 'redis', scheme: 'tcp', host: 'cache.internal', port: 6380, database: 2, password: 'p@ss', timeoutSeconds: 0.25, readTimeoutSeconds: 1,
      prefix: 'shop:', selectiveFlush: true, globalGroups: ['users', 'site-options'], ignoredGroups: [], unflushableGroups: [], ...SITE,
    });
    assert.deepEqual(detect(config, 'rediss://default:pw@[::1]?salt=salted'), {
      kind: 'redis', scheme: 'tls', host: '::1', port: 6379, database: 0, username: 'default', password: 'pw', timeoutSeconds: 1, readTimeoutSeconds: 1,
      prefix: 'salted', selectiveFlush: false, globalGroups: [], ignoredGroups: [], unflushableGroups: [], ...SITE,
    });
    assert.deepEqual(detect(config, 'unix:///run/redis.sock?db=4&ignored_groups=counts&unflushable_groups=userlogins,svc-sessions'), {
      kind: 'redis', scheme: 'unix', host: '127.0.0.1', port: 6379, path: '/run/redis.sock', database: 4, timeoutSeconds: 1, readTimeoutSeconds: 1,
      prefix: '', selectiveFlush: false, globalGroups: [], ignoredGroups: ['counts'], unflushableGroups: ['userlogins', 'svc-sessions'], ...SITE,
    });
    assert.deepEqual(detect(config, 'memcached://mc1:11211,mc2:11212?salt=shop-mc'), {
      kind: 'memcached', servers: ['mc1:11211', 'mc2:11212'], salt: 'shop-mc', customUserTables: false, ...SITE,
    });
  });

  it('refuses a setting it does not understand at start, naming the syntax and hiding a password', () => {
    const config = site('');
    for (const [value, why] of [
      ['redis://:hunter2@cache/x', /the database must be a number/],
      ['redis://cache?prefx=a', /unknown parameter "prefx"/],
      ['memcached://', /names no server/],
      ['memcache://a:1', /none of detect, none, companion/],
      ['companion:ftp://x', /http:\/\/ or https:\/\//],
      ['redis://cache?timeout=-1', /positive number of seconds/],
    ] as const) {
      assert.throws(() => detect(config, value), (err: Error) => why.test(err.message) && err.message.includes('docs/deploy.md') && !err.message.includes('hunter2'), value);
    }
    assert.throws(() => chooseObjectCache({ site: SITE, onUncovered: 'refuse' }), /OBJECT_CACHE_UNKNOWN must be degrade or refuse-writes/);
  });

  it('is part of the site configuration: detected beside WP_CONFIG_PATH, named by OBJECT_CACHE for a site from the environment', () => {
    const config = site(`define( 'WP_REDIS_HOST', 'cache.internal' );`, { 'site/wp-content/object-cache.php': HEADERS.redis });
    const fromFile = loadSiteConfig({ WP_CONFIG_PATH: config, OBJECT_CACHE_UNKNOWN: 'refuse-writes' }, root).objectCache;
    assert.equal(fromFile?.setting.kind, 'redis');
    assert.equal(fromFile?.onUncovered, 'refuse-writes');
    assert.match(fromFile?.foundBy ?? '', /read from the drop-in .*site\/wp-content\/object-cache\.php \(Plugin Name: Redis Object Cache Drop-In, Version: 2\.6\.3\)/);
    const fromEnv = loadSiteConfig({ DATABASE_URL: 'sqlite:site.sqlite', TABLE_PREFIX: 'shop_', OBJECT_CACHE: 'memcached://mc:11211' }, root).objectCache;
    assert.deepEqual(fromEnv, {
      setting: { kind: 'memcached', servers: ['mc:11211'], salt: '', customUserTables: false, tablePrefix: 'shop_', blogId: 1, multisite: false },
      foundBy: 'named by OBJECT_CACHE', onUncovered: 'degrade',
    });
    assert.deepEqual(loadSiteConfig({ DATABASE_URL: 'sqlite:site.sqlite' }, root).objectCache?.setting, { kind: 'none' });
  });
});
