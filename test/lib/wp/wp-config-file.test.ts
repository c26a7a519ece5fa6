import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
  connectionTarget,
  DEFAULT_MYSQL_SOCKETS,
  parseDbHost,
  parseWpConfig,
  readWpConfig,
  resolveLocalhostSocket,
  siteConfigFromWpConfig,
  type WpConfigFile,
} from '../../../lib/wp/wp-config';

// Keys shaped like the ones api.wordpress.org/secret-key hands out: 64 printable characters including
// `#`, `//`, `/*`, `?>`, `$` and `{`, none of which may be read as PHP syntax inside a quoted string.
const KEYS = {
  AUTH_KEY: 'PtY+gj&mU h#Bel31iEl(2h-pC>> //_ YgCf)rL1s*p_N);xn /*~yVm(|i-h<A@;',
  SECURE_AUTH_KEY: '&2O7 6UMFx/Fk_M^@R5K{jp$1vRt!1f,j)_OR:S]@ 6ilI8/,ih/N`_;5K|X,Sc7',
  LOGGED_IN_KEY: 'Tv}o@hBKqFYY@kv5Z(Jr3(J?1T;WDtkwtD=Db![xHKas1&V}-Oq:$<+.g6;)YYZY',
  NONCE_KEY: 'n9~ZhyiA4uoR]gna-t&mU}djA}Wt~GS{U8po!799NksnRH9:u%cA^Us:*d^M`l/H',
  AUTH_SALT: '%UvTC&*#Q~C}yEZDz%@TddJ8Hy:{S5SUkCnD8zRA9<}a9+S`k=pX|z9w3~QlY7Zk',
  SECURE_AUTH_SALT: 'uvqdt[7+s}]8=St((qcb+n^r3yBdGBL#E[PH*1qhT6= %1#q&t^$c4x{atws8<p)',
  LOGGED_IN_SALT: 'hP;%^)9n)hFyJfm#5)di4P}#{$z:J5$&9#F/%H)z5r1pY4Oj,E2jB,Mpt|`=UsGr',
  NONCE_SALT: '7CmY!u,Cu?3$ZR1zTOlUcR(64?cXQ%<L$ioDnkHIfxIq2.HZt&$_@/PlJh:x2jIc?>',
};

/** The key block of wp-config-sample.php, with `values` (default: KEYS) filled in. */
function keyBlock(values: Record<string, string> = KEYS): string {
  return Object.entries(values)
    .map(([name, value]) => `define( '${name}',${' '.repeat(18 - name.length)}'${value}' );`)
    .join('\n');
}

/** Shaped like a wp-config.php written from wp-config-sample.php by the installer. */
const STOCK = `<?php
/**
 * The base configuration for WordPress
 *
 * The wp-config.php creation script uses this file during the installation.
 * You don't have to use the web site, you can copy this file to "wp-config.php"
 * and fill in the values.
 *
 * @link https://wordpress.org/documentation/article/editing-wp-config-php/
 *
 * @package WordPress
 */

// ** Database settings - You can get this info from your web host ** //
/** The name of the database for WordPress */
define( 'DB_NAME', 'blog_prod' );

/** Database username */
define( 'DB_USER', 'blog' );

/** Database password */
define( 'DB_PASSWORD', 'S3cr3t-Pa55' );

/** Database hostname */
define( 'DB_HOST', 'localhost' );

/** Database charset to use in creating database tables. */
define( 'DB_CHARSET', 'utf8' );

/** The database collate type. Don't change this if in doubt. */
define( 'DB_COLLATE', '' );

/**#@+
 * Authentication unique keys and salts.
 *
 * Change these to different unique phrases! You can generate these using
 * the {@link https://api.wordpress.org/secret-key/1.1/salt/ WordPress.org secret-key service}.
 *
 * @since 2.6.0
 */
${keyBlock()}

/**#@-*/

/**
 * WordPress database table prefix.
 *
 * You can have multiple installations in one database if you give each
 * a unique prefix. Only numbers, letters, and underscores please!
 */
$table_prefix = 'wp_';

/**
 * For developers: WordPress debugging mode.
 */
define( 'WP_DEBUG', false );

/* Add any custom values between this line and the "stop editing" line. */



/* That's all, stop editing! Happy publishing. */

/** Absolute path to the WordPress directory. */
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}

/** Sets up WordPress vars and included files. */
require_once ABSPATH . 'wp-settings.php';
`;

/** The stock file as the sample ships it: every key still the placeholder. */
const PLACEHOLDERS = STOCK.replace(keyBlock(), keyBlock(Object.fromEntries(Object.keys(KEYS).map((k) => [k, 'put your unique phrase here']))));

/** Hand-edited: double quotes, tabs, odd spacing and line breaks, upper-case DEFINE. */
const HAND_EDITED = `<?php
DEFINE  (  "DB_NAME"  ,"shop" )  ;
define("DB_USER","shop_rw");
define(
	"DB_PASSWORD",
	"hunter2"
);
Define	('DB_HOST',	"db.internal:3307");
define ("DB_CHARSET" , "latin1") ;
${keyBlock()}
$table_prefix="shop_";
define('WP_DEBUG',TRUE);define('WP_DEBUG_LOG', True);	define( 'SCRIPT_DEBUG', fAlSe );
define( 'WP_MEMORY_LIMIT', '256M' );
`;

/** Old values left behind in comments of every kind: none of them may count. */
const COMMENTED = `<?php
// define('DB_NAME', 'old_slash');
# define('DB_NAME', 'old_hash');
/* define('DB_NAME', 'old_block'); */
/*
define( 'DB_USER', 'old_user' );
define( 'DB_PASSWORD', 'old_password' );
*/
define( 'DB_NAME', 'current' ); // define('DB_USER', 'trailing_comment');
define( 'DB_USER', /* inline */ 'current_user' ); # define('DB_HOST', 'nope');
/**
 * define( 'WP_DEBUG', true );
 */
`;

/** The Debian package's per-host file, /etc/wordpress/config-<host>.php, as its setup script writes it. */
const DEBIAN_FILE = '/etc/wordpress/config-blog.example.org.php';
const DEBIAN = `<?php
# Created by /usr/share/doc/wordpress/examples/setup-mysql
define('DB_NAME', 'blog_example_org');
define('DB_USER', 'blog_example_org');
define('DB_PASSWORD', 'Xq7pL2vR9sWm');
define('DB_HOST', 'localhost');
define('WP_CONTENT_DIR', '/srv/www/wp-content/blog.example.org');
${keyBlock()}
$table_prefix = 'wp_';
?>
`;

/** Replaces one define's value in a fixture; fails loudly if the define is not there. */
function withDefine(source: string, name: string, valuePhp: string | undefined): string {
  const re = new RegExp(`^define\\( '${name}',\\s*.*\\);\\n`, 'm');
  assert.match(source, re, `fixture has no define for ${name}`);
  return source.replace(re, valuePhp === undefined ? '' : `define( '${name}', ${valuePhp} );\n`);
}

function siteConfigError(source: string, file = '/var/www/html/wp-config.php'): string {
  try {
    siteConfigFromWpConfig(parseWpConfig(source, file));
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('expected siteConfigFromWpConfig to throw');
}

describe('lib/wp/wp-config-file', () => {
  describe('parseWpConfig', () => {
    it('reads every define and the table prefix of a stock wp-config.php', () => {
      const cfg = parseWpConfig(STOCK, '/var/www/html/wp-config.php');
      assert.equal(cfg.file, '/var/www/html/wp-config.php');
      assert.deepEqual(cfg.constants, {
        DB_NAME: 'blog_prod',
        DB_USER: 'blog',
        DB_PASSWORD: 'S3cr3t-Pa55',
        DB_HOST: 'localhost',
        DB_CHARSET: 'utf8',
        DB_COLLATE: '',
        ...KEYS,
        WP_DEBUG: false,
        ABSPATH: '/var/www/html/',
      });
      assert.equal(cfg.tablePrefix, 'wp_');
    });

    it('counts a define inside an if ( ! defined() ) block, recording a non-literal value as dynamic null', () => {
      const cfg = parseWpConfig(STOCK, 'wp-config.php');
      assert.ok('ABSPATH' in cfg.constants);
      assert.equal(cfg.constants.ABSPATH, null);
      assert.deepEqual(cfg.dynamic, { ABSPATH: "__DIR__ . '/'" });
    });

    it('accepts double quotes, any whitespace and any case of define', () => {
      const cfg = parseWpConfig(HAND_EDITED, 'wp-config.php');
      assert.equal(cfg.constants.DB_NAME, 'shop');
      assert.equal(cfg.constants.DB_USER, 'shop_rw');
      assert.equal(cfg.constants.DB_PASSWORD, 'hunter2');
      assert.equal(cfg.constants.DB_HOST, 'db.internal:3307');
      assert.equal(cfg.constants.DB_CHARSET, 'latin1');
      assert.equal(cfg.constants.WP_MEMORY_LIMIT, '256M');
      assert.equal(cfg.tablePrefix, 'shop_');
    });

    it('reads true, false and null in any case', () => {
      const cfg = parseWpConfig(
        `<?php ${HAND_EDITED.slice(5)} define('A_NULL', NULL); define('B_NULL', null);`,
        'wp-config.php',
      );
      assert.equal(cfg.constants.WP_DEBUG, true);
      assert.equal(cfg.constants.WP_DEBUG_LOG, true);
      assert.equal(cfg.constants.SCRIPT_DEBUG, false);
      assert.equal(cfg.constants.A_NULL, null);
      assert.equal(cfg.constants.B_NULL, null);
      assert.deepEqual(cfg.dynamic, {}, 'a literal null is not dynamic');
    });

    it('reads integers, floats, negative numbers and hex, octal and binary literals', () => {
      const cfg = parseWpConfig(
        `<?php
        define( 'AUTOSAVE_INTERVAL', 160 );
        define( 'WP_POST_REVISIONS', -1 );
        define( 'RATIO', 1.5 );
        define( 'TINY', .25 );
        define( 'BIG', 1e3 );
        define( 'MODE', 0755 );
        define( 'FS_CHMOD_FILE', 0o644 );
        define( 'MASK', 0xFF );
        define( 'FLAGS', 0b101 );
        define( 'MILLION', 1_000_000 );
        define( 'EMPTY_TRASH_DAYS', 7 * 2 + 1 );`,
        'wp-config.php',
      );
      assert.deepEqual(cfg.constants, {
        AUTOSAVE_INTERVAL: 160,
        WP_POST_REVISIONS: -1,
        RATIO: 1.5,
        TINY: 0.25,
        BIG: 1000,
        MODE: 0o755,
        FS_CHMOD_FILE: 0o644,
        MASK: 255,
        FLAGS: 5,
        MILLION: 1000000,
        EMPTY_TRASH_DAYS: 15,
      });
    });

    it('decodes only \\\' and \\\\ in single-quoted strings', () => {
      const cfg = parseWpConfig(String.raw`<?php define( 'DB_PASSWORD', 'it\'s a \\ back\slash\n' );`, 'wp-config.php');
      assert.equal(cfg.constants.DB_PASSWORD, String.raw`it's a \ back\slash\n`);
    });

    it('decodes PHP escapes in double-quoted strings and keeps unknown ones', () => {
      const cfg = parseWpConfig(
        String.raw`<?php define( "DB_PASSWORD", "a\tb\nc\"d\\e\$f\x41\101\u{e9}\xC3\xA9\q\v\e\f\r" );`,
        'wp-config.php',
      );
      assert.equal(cfg.constants.DB_PASSWORD, 'a\tb\nc"d\\e$fAAéé\\q\x0b\x1b\x0c\r');
    });

    it('reads a password containing #, //, /*, quotes and $ without mistaking any of it for a comment', () => {
      const source = String.raw`<?php
define( 'DB_PASSWORD', 'p#ss//w\'o"r$d/*x*/\\' ); // the real comment
define( "DB_USER", "u#s//e'r\"\$x" ); # another comment
define( 'DB_HOST', 'db.example.com' );
define( 'WP_HOME', 'https://example.com/#top' );
`;
      const cfg = parseWpConfig(source, 'wp-config.php');
      assert.equal(cfg.constants.DB_PASSWORD, 'p#ss//w\'o"r$d/*x*/\\');
      assert.equal(cfg.constants.DB_USER, `u#s//e'r"$x`);
      assert.equal(cfg.constants.DB_HOST, 'db.example.com');
      assert.equal(cfg.constants.WP_HOME, 'https://example.com/#top');
    });

    it('ignores defines hidden in //, # and /* */ comments', () => {
      const cfg = parseWpConfig(COMMENTED, 'wp-config.php');
      assert.deepEqual(cfg.constants, { DB_NAME: 'current', DB_USER: 'current_user' });
    });

    it('ends a line comment at ?> and ignores text outside PHP tags', () => {
      const cfg = parseWpConfig(
        `<html> define('OUTSIDE', 1); </html>
<?php // a comment ?> define('IN_HTML', 1); <?php define('INSIDE', 2); ?>
define('AFTER_CLOSE', 3);
<?PHP define( 'REOPENED', 4 );`,
        'wp-config.php',
      );
      assert.deepEqual(cfg.constants, { INSIDE: 2, REOPENED: 4 });
    });

    it('concatenates literals and constants defined earlier in the file', () => {
      const cfg = parseWpConfig(
        `<?php
        define( 'WP_HOME', 'https://' . "example.com" );
        define( 'WP_SITEURL', WP_HOME . '/wp' );
        define( 'LABEL', 'v' . 2 . '.' . 1.5 . '-' . true . false . null );
        define( 'LATER', EARLIER . '-x' );
        define( 'EARLIER', 'e' );`,
        'wp-config.php',
      );
      assert.equal(cfg.constants.WP_HOME, 'https://example.com');
      assert.equal(cfg.constants.WP_SITEURL, 'https://example.com/wp');
      assert.equal(cfg.constants.LABEL, 'v2.1.5-1');
      assert.equal(cfg.constants.LATER, null, 'a constant used before it is defined is unknown');
      assert.equal(cfg.dynamic?.LATER, "EARLIER . '-x'");
    });

    it('records values it cannot compute as null with their PHP source, without throwing', () => {
      const cfg = parseWpConfig(
        `<?php
        define( 'DB_PASSWORD', getenv( 'WORDPRESS_DB_PASSWORD' ) );
        define( 'WP_CONTENT_DIR', dirname( __FILE__ ) . '/content' );
        define( 'DB_HOST', $_ENV['DB_HOST'] ?? 'localhost' );
        define( 'DB_USER', "user_$suffix" );
        define( 'UPLOADS', SOMEWHERE_ELSE . '/up' );
        define( 'DB_NAME', 'literal' );`,
        'wp-config.php',
      );
      assert.deepEqual(cfg.constants, {
        DB_PASSWORD: null,
        WP_CONTENT_DIR: null,
        DB_HOST: null,
        DB_USER: null,
        UPLOADS: null,
        DB_NAME: 'literal',
      });
      assert.deepEqual(cfg.dynamic, {
        DB_PASSWORD: "getenv( 'WORDPRESS_DB_PASSWORD' )",
        WP_CONTENT_DIR: "dirname( __FILE__ ) . '/content'",
        DB_HOST: "$_ENV['DB_HOST'] ?? 'localhost'",
        DB_USER: '"user_$suffix"',
        UPLOADS: "SOMEWHERE_ELSE . '/up'",
      });
    });

    it('treats interpolating double-quoted strings as dynamic, even with quotes inside {$…}', () => {
      const cfg = parseWpConfig(
        `<?php
        define( 'A', "db-{$env["name"]}-{$x['k']}" );
        define( 'B', "\${suffix}" );
        define( 'C', "cost: 5$ and \\$literal" );
        define( 'E', "{$m[") define('EVIL', 1); //"]}" );
        define( 'D', 'after' );`,
        'wp-config.php',
      );
      assert.deepEqual(cfg.constants, { A: null, B: null, C: 'cost: 5$ and $literal', E: null, D: 'after' });
    });

    it('survives truncated and malformed PHP', () => {
      const sources = [
        `<?php define( 'DB_NAME', 'ok' ); define( 'DB_USER', 'unterminated`,
        `<?php define( 'DB_NAME', 'ok' ); define( 'DB_USER',`,
        `<?php define( 'DB_NAME', 'ok' ); /* never closed define('X', 1);`,
        `<?php define( 'DB_NAME', 'ok' ); $x = <<<EOT\nno end`,
        `<?php define( 'DB_NAME', 'ok' ); define( $name, 'v' ); define( 'ONLY_NAME' ); } } ) define(`,
      ];
      for (const source of sources) {
        const cfg = parseWpConfig(source, 'wp-config.php');
        assert.equal(cfg.constants.DB_NAME, 'ok', source);
        assert.equal(Object.keys(cfg.constants).length, 1, source);
      }
      assert.deepEqual(parseWpConfig('', 'empty.php').constants, {});
      assert.deepEqual(parseWpConfig("define('NOT_PHP', 1);", 'plain.txt').constants, {});
    });

    it('keeps the first definition, but lets a top-level define beat an earlier one inside a block', () => {
      const cfg = parseWpConfig(
        `<?php
        define( 'WP_DEBUG', true );
        define( 'WP_DEBUG', false );
        if ( getenv( 'STAGING' ) ) {
          define( 'WP_ENVIRONMENT_TYPE', 'staging' );
          define( 'WP_CACHE', true );
        } else {
          define( 'WP_CACHE', false );
        }
        define( 'WP_ENVIRONMENT_TYPE', 'production' );`,
        'wp-config.php',
      );
      assert.equal(cfg.constants.WP_DEBUG, true);
      assert.equal(cfg.constants.WP_ENVIRONMENT_TYPE, 'production');
      assert.equal(cfg.constants.WP_CACHE, true);
    });

    it('does not take a method or function named define for the define() call', () => {
      const cfg = parseWpConfig(
        `<?php $registry->define( 'A', 1 ); Config::define( 'B', 2 ); function define_it() {} define( 'C', 3 );`,
        'wp-config.php',
      );
      assert.deepEqual(cfg.constants, { C: 3 });
    });

    it('reads heredoc and nowdoc values', () => {
      const cfg = parseWpConfig(
        `<?php
define( 'NOW', <<<'TXT'
    raw \\n $not_a_var
    TXT );
define( 'HERE', <<<TXT
  tab\\tbed
  TXT
);
define( 'HERE_DYNAMIC', <<<"TXT"
  {$x}
  TXT );
define( 'AFTER', 'ok' );`,
        'wp-config.php',
      );
      assert.equal(cfg.constants.NOW, 'raw \\n $not_a_var');
      assert.equal(cfg.constants.HERE, 'tab\tbed');
      assert.equal(cfg.constants.HERE_DYNAMIC, null);
      assert.equal(cfg.constants.AFTER, 'ok');
    });

    describe('$table_prefix', () => {
      it('reads single- and double-quoted assignments', () => {
        assert.equal(parseWpConfig(`<?php $table_prefix = 'wp_';`, 'f').tablePrefix, 'wp_');
        assert.equal(parseWpConfig(`<?php $table_prefix  =  "blog2_" ;`, 'f').tablePrefix, 'blog2_');
      });

      it('is undefined when the file never assigns it', () => {
        assert.equal(parseWpConfig(COMMENTED, 'f').tablePrefix, undefined);
        assert.equal(parseWpConfig(`<?php // $table_prefix = 'wp_';`, 'f').tablePrefix, undefined);
      });

      it('takes the last top-level assignment and applies .= to it', () => {
        const cfg = parseWpConfig(`<?php $table_prefix = 'a_'; $table_prefix = 'b_'; $table_prefix .= 'c_';`, 'f');
        assert.equal(cfg.tablePrefix, 'b_c_');
      });

      it('does not let a nested "if not set" fallback override a top-level value', () => {
        const cfg = parseWpConfig(
          `<?php $table_prefix = 'site_'; if ( ! isset( $table_prefix ) ) { $table_prefix = 'wp_'; }`,
          'f',
        );
        assert.equal(cfg.tablePrefix, 'site_');
        assert.equal(parseWpConfig(`<?php if ( empty( $table_prefix ) ) { $table_prefix = 'wp_'; }`, 'f').tablePrefix, 'wp_');
      });

      it('marks a computed prefix as dynamic', () => {
        const cfg = parseWpConfig(`<?php $table_prefix = getenv( 'TABLE_PREFIX' ) ?: 'wp_';`, 'f');
        assert.equal(cfg.tablePrefix, undefined);
        assert.deepEqual(cfg.dynamic, { $table_prefix: "getenv( 'TABLE_PREFIX' ) ?: 'wp_'" });
      });
    });

    describe('what object-cache drop-ins read', () => {
      it('computes ABSPATH and WP_CONTENT_DIR from __DIR__, __FILE__ and dirname() of an absolute file', () => {
        const cfg = parseWpConfig(
          `<?php
          define( 'ABSPATH', dirname( __FILE__ ) . '/' );
          define( 'WP_CONTENT_DIR', dirname( __DIR__, 2 ) . '/shared/content' );
          define( 'WP_PLUGIN_DIR', __DIR__ . "/plugins" );`,
          '/srv/www/site/wp-config.php',
        );
        assert.deepEqual(cfg.constants, { ABSPATH: '/srv/www/site/', WP_CONTENT_DIR: '/srv/shared/content', WP_PLUGIN_DIR: '/srv/www/site/plugins' });
        assert.deepEqual(cfg.dynamic, {});
      });

      it('reads constant array literals in both spellings, with PHP keys, into arrays', () => {
        const cfg = parseWpConfig(
          `<?php
          define( 'WP_REDIS_GLOBAL_GROUPS', [ 'users', 'userlogins', ] );
          define( 'WP_REDIS_PASSWORD', array( 'default', 's3cret' ) );
          define( 'MIXED', [ 5 => 'a', 'b', '7' => 'c', 'k' => [ true ] ] );`,
          'wp-config.php',
        );
        assert.deepEqual(cfg.arrays, {
          WP_REDIS_GLOBAL_GROUPS: new Map([[0, 'users'], [1, 'userlogins']]),
          WP_REDIS_PASSWORD: new Map([[0, 'default'], [1, 's3cret']]),
          MIXED: new Map<string | number, unknown>([[5, 'a'], [6, 'b'], [7, 'c'], ['k', new Map([[0, true]])]]),
        });
        // To the scalar readers an array constant is defined but has no value.
        assert.equal(cfg.constants.WP_REDIS_PASSWORD, null);
        assert.equal(cfg.dynamic?.WP_REDIS_PASSWORD, "array( 'default', 's3cret' )");
      });

      it('reads $memcached_servers: the last top-level assignment, a nested one only as a fallback', () => {
        const at = (src: string) => parseWpConfig(`<?php ${src}`, 'f').variables?.memcached_servers;
        assert.deepEqual(at(`global $memcached_servers; $memcached_servers = array( 'default' => array( '10.0.0.1:11211', 'unix:///run/mc.sock' ) );`),
          new Map([['default', new Map([[0, '10.0.0.1:11211'], [1, 'unix:///run/mc.sock']])]]));
        assert.deepEqual(at(`$memcached_servers = ['a:1']; if ( x ) { $memcached_servers = ['b:2']; } $memcached_servers = ['c:3'];`), new Map([[0, 'c:3']]));
        assert.deepEqual(at(`if ( ! isset( $memcached_servers ) ) { $memcached_servers = ['b:2']; }`), new Map([[0, 'b:2']]));
        const computed = parseWpConfig(`<?php $memcached_servers = [ getenv( 'MC' ) ];`, 'f');
        assert.equal(computed.variables?.memcached_servers, undefined);
        assert.equal(computed.dynamic?.$memcached_servers, "[ getenv( 'MC' ) ]");
      });
    });
  });

  describe('readWpConfig', () => {
    it('reads and parses a file from disk', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-wpconfig-'));
      try {
        const file = path.join(dir, 'wp-config.php');
        fs.writeFileSync(file, HAND_EDITED);
        const cfg = readWpConfig(file);
        assert.equal(cfg.file, file);
        assert.equal(cfg.constants.DB_NAME, 'shop');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('names the file when it cannot be read', () => {
      const file = path.join(os.tmpdir(), 'understudy-does-not-exist', 'wp-config.php');
      assert.throws(() => readWpConfig(file), (e: Error) => e.message.startsWith(`${file}: cannot read wp-config file:`));
    });
  });

  describe('parseDbHost', () => {
    it('takes a port after the host', () => {
      assert.deepEqual(parseDbHost('db.internal:3307'), { host: 'db.internal', port: 3307 });
      assert.deepEqual(parseDbHost('127.0.0.1'), { host: '127.0.0.1' });
    });

    it('takes a Unix socket after the first ":/"', () => {
      assert.deepEqual(parseDbHost('localhost:/var/run/mysqld/mysqld.sock'), {
        host: 'localhost',
        socketPath: '/var/run/mysqld/mysqld.sock',
      });
      assert.deepEqual(parseDbHost(':/tmp/mysql.sock'), { socketPath: '/tmp/mysql.sock' });
      assert.deepEqual(parseDbHost('db:3307:/tmp/mysql.sock'), { host: 'db', port: 3307, socketPath: '/tmp/mysql.sock' });
    });

    it('reads IPv6 addresses, bracketed with a port or bare', () => {
      assert.deepEqual(parseDbHost('[::1]:3306'), { host: '::1', port: 3306 });
      assert.deepEqual(parseDbHost('[2001:db8::10]'), { host: '2001:db8::10' });
      assert.deepEqual(parseDbHost('fe80::1'), { host: 'fe80::1' });
    });

    it('flags localhost and an empty host as the default socket', () => {
      assert.deepEqual(parseDbHost('localhost'), { host: 'localhost', defaultSocket: true });
      assert.deepEqual(parseDbHost('localhost:3307'), { host: 'localhost', port: 3307, defaultSocket: true });
      assert.deepEqual(parseDbHost(''), { defaultSocket: true });
    });

    it('ignores what follows the port digits and a zero port, as WordPress does', () => {
      assert.deepEqual(parseDbHost('db:3307abc'), { host: 'db', port: 3307 });
      assert.deepEqual(parseDbHost('db:abc'), { host: 'db' });
      assert.deepEqual(parseDbHost('db:0'), { host: 'db' });
    });

    it('throws on a value WordPress cannot parse either', () => {
      assert.throws(() => parseDbHost('zz:zz:zz'), /DB_HOST 'zz:zz:zz'/);
    });
  });

  describe('resolveLocalhostSocket and connectionTarget', () => {
    it('tries /run/mysqld, then /var/run/mysqld, then /tmp/mysql.sock', () => {
      const tried: string[] = [];
      assert.equal(resolveLocalhostSocket((p) => (tried.push(p), false)), undefined);
      assert.deepEqual(tried, [...DEFAULT_MYSQL_SOCKETS]);
      assert.deepEqual(DEFAULT_MYSQL_SOCKETS, ['/run/mysqld/mysqld.sock', '/var/run/mysqld/mysqld.sock', '/tmp/mysql.sock']);
      assert.equal(resolveLocalhostSocket((p) => p !== '/run/mysqld/mysqld.sock'), '/var/run/mysqld/mysqld.sock');
      assert.equal(resolveLocalhostSocket(() => true), '/run/mysqld/mysqld.sock');
    });

    it('connects localhost through the first existing socket, else TCP 127.0.0.1', () => {
      const onlyVarRun = (p: string): boolean => p === '/var/run/mysqld/mysqld.sock';
      assert.deepEqual(connectionTarget(parseDbHost('localhost'), onlyVarRun), { socketPath: '/var/run/mysqld/mysqld.sock' });
      assert.deepEqual(connectionTarget(parseDbHost('localhost'), () => false), { host: '127.0.0.1', port: 3306 });
      assert.deepEqual(connectionTarget(parseDbHost('localhost:3307'), () => false), { host: '127.0.0.1', port: 3307 });
    });

    it('uses an explicit socket or host as given', () => {
      const never = (): boolean => assert.fail('must not probe sockets');
      assert.deepEqual(connectionTarget(parseDbHost('localhost:/x/my.sock'), never), { socketPath: '/x/my.sock' });
      assert.deepEqual(connectionTarget(parseDbHost('db.internal'), never), { host: 'db.internal', port: 3306 });
      assert.deepEqual(connectionTarget(parseDbHost('[::1]:3308'), never), { host: '::1', port: 3308 });
    });
  });

  describe('siteConfigFromWpConfig', () => {
    it('reads the oracle fixture to exactly the oracle database and keys', () => {
      const file = path.join(__dirname, '../../../fixtures/wp-config/oracle-wp-config.php');
      const site = siteConfigFromWpConfig(readWpConfig(file));
      assert.deepEqual(site, {
        file,
        db: {
          host: '127.0.0.1',
          port: 3306,
          user: 'wp_oracle',
          password: 'wp_oracle_db_pass',
          database: 'wp_oracle',
          charset: 'utf8mb4',
        },
        tablePrefix: 'wp_',
        salts: {
          AUTH_KEY: 'wp-oracle.AUTH_KEY.dc83fda395ab1c2f7e69ead8542f8939b69505f582025e2d',
          SECURE_AUTH_KEY: 'wp-oracle.SECURE_AUTH_KEY.6b2edd46492f199ffe8bb70fb9dbe3816980481deda66249',
          LOGGED_IN_KEY: 'wp-oracle.LOGGED_IN_KEY.097aaed1505151226bb1752e5edc9d46fe5910874519291b',
          NONCE_KEY: 'wp-oracle.NONCE_KEY.2ec82d93cd843b66fc0fbd33345d6ebec40652e7050bf3d7',
          AUTH_SALT: 'wp-oracle.AUTH_SALT.9af1299ebf954cda2071c41bdf3a5648214820cfe60a7316',
          SECURE_AUTH_SALT: 'wp-oracle.SECURE_AUTH_SALT.9d4166d8520dae494245de4e6392009fda516f0bfb461c40',
          LOGGED_IN_SALT: 'wp-oracle.LOGGED_IN_SALT.1ffce81bd2fba3ada797ea767db8be6af81e76fc62372d6b',
          NONCE_SALT: 'wp-oracle.NONCE_SALT.24dcceebc30ce561eaec9a6904477aab4744a181e25fda0c',
        },
        multisite: false,
      });
    });

    it('builds the site config of a stock file, upgrading DB_CHARSET utf8 to utf8mb4', () => {
      const site = siteConfigFromWpConfig(parseWpConfig(STOCK, '/var/www/html/wp-config.php'));
      assert.deepEqual(site.db, {
        host: 'localhost',
        defaultSocket: true,
        user: 'blog',
        password: 'S3cr3t-Pa55',
        database: 'blog_prod',
        charset: 'utf8mb4',
      });
      assert.deepEqual(site.salts, KEYS);
      assert.equal(site.tablePrefix, 'wp_');
      assert.equal(site.multisite, false);
    });

    it('defaults DB_CHARSET to utf8mb4 and keeps any other charset', () => {
      const charsetOf = (source: string): string => siteConfigFromWpConfig(parseWpConfig(source, 'f')).db.charset;
      assert.equal(charsetOf(withDefine(STOCK, 'DB_CHARSET', undefined)), 'utf8mb4');
      assert.equal(charsetOf(withDefine(STOCK, 'DB_CHARSET', "''")), 'utf8mb4');
      assert.equal(charsetOf(HAND_EDITED), 'latin1');
      assert.equal(charsetOf(withDefine(STOCK, 'DB_CHARSET', "'utf8mb4'")), 'utf8mb4');
    });

    it('carries host, port and socket from DB_HOST', () => {
      const dbOf = (host: string): object => {
        const { host: h, port, socketPath, defaultSocket } = siteConfigFromWpConfig(
          parseWpConfig(withDefine(STOCK, 'DB_HOST', `'${host}'`), 'f'),
        ).db;
        return { host: h, port, socketPath, defaultSocket };
      };
      assert.deepEqual(dbOf('db.internal:3307'), { host: 'db.internal', port: 3307, socketPath: undefined, defaultSocket: undefined });
      assert.deepEqual(dbOf('localhost:/run/mysqld/mysqld.sock'), {
        host: 'localhost',
        port: undefined,
        socketPath: '/run/mysqld/mysqld.sock',
        defaultSocket: undefined,
      });
      assert.deepEqual(dbOf('[::1]:3306'), { host: '::1', port: 3306, socketPath: undefined, defaultSocket: undefined });
    });

    it('reads a Debian /etc/wordpress/config-<host>.php, where localhost means the default socket', () => {
      const site = siteConfigFromWpConfig(parseWpConfig(DEBIAN, DEBIAN_FILE));
      assert.equal(site.file, DEBIAN_FILE);
      assert.deepEqual(site.db, {
        host: 'localhost',
        defaultSocket: true,
        user: 'blog_example_org',
        password: 'Xq7pL2vR9sWm',
        database: 'blog_example_org',
        charset: 'utf8mb4',
      });
      assert.deepEqual(connectionTarget(site.db, (p) => p === '/run/mysqld/mysqld.sock'), { socketPath: '/run/mysqld/mysqld.sock' });
    });

    it('accepts an empty DB_PASSWORD but not a missing one', () => {
      const empty = siteConfigFromWpConfig(parseWpConfig(withDefine(STOCK, 'DB_PASSWORD', "''"), 'f'));
      assert.equal(empty.db.password, '');
      assert.equal(siteConfigError(withDefine(STOCK, 'DB_PASSWORD', undefined), 'f'), 'f: missing DB_PASSWORD');
    });

    it('names the file and every missing item in one message', () => {
      let source = STOCK;
      for (const name of ['DB_NAME', 'DB_USER', 'DB_HOST', 'AUTH_KEY', 'NONCE_SALT']) source = withDefine(source, name, undefined);
      source = source.replace("$table_prefix = 'wp_';", '');
      assert.equal(
        siteConfigError(source, '/srv/site/wp-config.php'),
        '/srv/site/wp-config.php: missing DB_NAME, DB_USER, DB_HOST, AUTH_KEY, NONCE_SALT, $table_prefix',
      );
    });

    it('reports everything missing from a file that defines nothing', () => {
      assert.equal(
        siteConfigError(COMMENTED.replace(/define\( 'DB_(NAME|USER)'.*\n/g, ''), '/x/wp-config.php'),
        '/x/wp-config.php: missing DB_NAME, DB_USER, DB_PASSWORD, DB_HOST, AUTH_KEY, SECURE_AUTH_KEY, LOGGED_IN_KEY, ' +
          'NONCE_KEY, AUTH_SALT, SECURE_AUTH_SALT, LOGGED_IN_SALT, NONCE_SALT, $table_prefix',
      );
    });

    it('counts keys left at "put your unique phrase here" as missing', () => {
      const message = siteConfigError(PLACEHOLDERS, '/var/www/wp-config.php');
      const placeholder = "(placeholder 'put your unique phrase here')";
      assert.equal(
        message,
        `/var/www/wp-config.php: missing ${Object.keys(KEYS).map((k) => `${k} ${placeholder}`).join(', ')}`,
      );
    });

    it('counts empty keys and keys sharing a value with another KEY/SALT constant as missing', () => {
      let source = withDefine(STOCK, 'NONCE_KEY', "''");
      source = withDefine(source, 'LOGGED_IN_SALT', `'${KEYS.AUTH_SALT}'`);
      source += `define( 'SECRET_KEY', '${KEYS.SECURE_AUTH_KEY}' );\n`;
      assert.equal(
        siteConfigError(source, 'f'),
        'f: missing SECURE_AUTH_KEY (same value as SECRET_KEY), NONCE_KEY (empty), AUTH_SALT (same value as LOGGED_IN_SALT), ' +
          'LOGGED_IN_SALT (same value as AUTH_SALT)',
      );
    });

    it('reports values it cannot compute, without printing secret expressions', () => {
      let source = withDefine(STOCK, 'DB_PASSWORD', "getenv( 'DB_PASS' ) . 'pepper'");
      source = withDefine(source, 'DB_HOST', "getenv( 'DB_HOST' )");
      source = source.replace("$table_prefix = 'wp_';", "$table_prefix = $prefix;");
      source = withDefine(source, 'DB_NAME', undefined);
      const message = siteConfigError(source, 'f');
      assert.equal(
        message,
        "f: missing DB_NAME; cannot evaluate DB_PASSWORD (computed at runtime), DB_HOST (getenv( 'DB_HOST' )), $table_prefix ($prefix)",
      );
      assert.doesNotMatch(message, /pepper/);
    });

    it('accepts an empty $table_prefix and rejects characters outside [A-Za-z0-9_]', () => {
      const withPrefix = (prefix: string): string => STOCK.replace("$table_prefix = 'wp_';", `$table_prefix = '${prefix}';`);
      assert.equal(siteConfigFromWpConfig(parseWpConfig(withPrefix(''), 'f')).tablePrefix, '');
      assert.equal(siteConfigFromWpConfig(parseWpConfig(withPrefix('Blog_2'), 'f')).tablePrefix, 'Blog_2');
      assert.equal(
        siteConfigError(withPrefix('wp-'), 'f'),
        "f: invalid $table_prefix 'wp-' (only A-Z, a-z, 0-9 and _ are allowed)",
      );
      assert.match(siteConfigError(withPrefix('wp_; DROP'), 'f'), /invalid \$table_prefix 'wp_; DROP'/);
    });

    it('rejects a DB_HOST WordPress cannot parse', () => {
      assert.equal(
        siteConfigError(withDefine(STOCK, 'DB_HOST', "'zz:zz:zz'"), 'f'),
        "f: invalid DB_HOST 'zz:zz:zz' is neither host[:port], [IPv6]:port nor host:/socket",
      );
    });

    describe('multisite', () => {
      const multisiteOf = (extra: string): boolean =>
        siteConfigFromWpConfig(parseWpConfig(`${STOCK}\n${extra}`, 'f')).multisite;

      it('is false for a single site', () => {
        assert.equal(multisiteOf(''), false);
        assert.equal(multisiteOf("define( 'WP_ALLOW_MULTISITE', true );"), false);
      });

      it('follows a truthy or falsy MULTISITE, PHP style', () => {
        assert.equal(multisiteOf("define( 'MULTISITE', true );"), true);
        assert.equal(multisiteOf("define( 'MULTISITE', 1 );"), true);
        assert.equal(multisiteOf("define( 'MULTISITE', 'yes' );"), true);
        assert.equal(multisiteOf("define( 'MULTISITE', false );"), false);
        assert.equal(multisiteOf("define( 'MULTISITE', '0' );"), false);
        assert.equal(multisiteOf("define( 'MULTISITE', 0 );"), false);
      });

      it('is implied by SUBDOMAIN_INSTALL, VHOST or SUNRISE being defined, whatever their value', () => {
        assert.equal(multisiteOf("define( 'SUBDOMAIN_INSTALL', false );"), true);
        assert.equal(multisiteOf("define( 'VHOST', 'no' );"), true);
        assert.equal(multisiteOf("define( 'SUNRISE', getenv( 'SUNRISE' ) );"), true);
      });

      it('lets a defined MULTISITE override SUBDOMAIN_INSTALL', () => {
        assert.equal(multisiteOf("define( 'MULTISITE', false ); define( 'SUBDOMAIN_INSTALL', true );"), false);
      });

      it('refuses to guess a computed MULTISITE', () => {
        assert.equal(
          siteConfigError(`${STOCK}\ndefine( 'MULTISITE', getenv( 'MS' ) === '1' );`, 'f'),
          "f: cannot evaluate MULTISITE (getenv( 'MS' ) === '1')",
        );
      });
    });

    it('accepts a hand-built WpConfigFile without a dynamic map, reading a null DB_PASSWORD as empty', () => {
      const cfg: WpConfigFile = {
        file: 'hand-built',
        constants: { DB_NAME: 'n', DB_USER: 'u', DB_PASSWORD: null, DB_HOST: 'h:1', ...KEYS },
        tablePrefix: 'x_',
      };
      const site = siteConfigFromWpConfig(cfg);
      assert.deepEqual(site.db, { host: 'h', port: 1, user: 'u', password: '', database: 'n', charset: 'utf8mb4' });
    });
  });
});
