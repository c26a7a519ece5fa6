/**
 * The cookie names a single site reads, from its wp-config.php and its `siteurl` option: what
 * wp-config.php defines wins (COOKIEHASH, LOGGED_IN_COOKIE, …); else COOKIEHASH is the md5 of
 * get_option('siteurl'), which is WP_SITEURL when defined and the stored option otherwise, both
 * without their trailing slash. On SQLite and MariaDB; on MariaDB real WordPress (php-cli, the same
 * wp-config.php and database) defines the same names.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memoryLogger } from '../../../../lib/logger';
import { CookieNames } from '../../../../lib/wp/auth/cookies';
import { fixedClock } from '../../../../lib/wp/clock';
import { SiteConfig, loadSiteConfig } from '../../../../lib/wp/config';
import { connect } from '../../../../lib/wp/db/database';
import { installCoreTablesIfMissing } from '../../../../lib/wp/db/migrate';
import { Tables } from '../../../../lib/wp/db/tables';
import { Site, createSite } from '../../../../lib/wp/site';
import { cookieConfigOfWpConfig, parseWpConfig } from '../../../../lib/wp/wp-config';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { ORACLE_SALTS } from '../../../harness/oracle';
import { WORDPRESS_DIR, phpLiteral, wordpressPhpSkipReason } from '../../../harness/wordpress-php';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const namesOf = (hash: string): CookieNames => ({ auth: `wordpress_${hash}`, secureAuth: `wordpress_sec_${hash}`, loggedIn: `wordpress_logged_in_${hash}` });

/** The siteurl option as a site owner may have saved it: with a trailing slash. */
const STORED_SITEURL = 'http://slash.test/';

/** wp-config.php's own lines, and the names WordPress gives the cookies with them. */
const CASES: Array<{ name: string; lines: Record<string, string>; names: CookieNames }> = [
  { name: 'nothing defined: the stored siteurl without its slash', lines: {}, names: namesOf(md5('http://slash.test')) },
  { name: 'WP_SITEURL defined: it, without its slash, not the option', lines: { WP_SITEURL: 'http://other.test/' }, names: namesOf(md5('http://other.test')) },
  {
    name: 'COOKIEHASH and LOGGED_IN_COOKIE defined: the names follow them',
    lines: { COOKIEHASH: 'ownhash', LOGGED_IN_COOKIE: 'shop_signed_in', WP_SITEURL: 'http://other.test' },
    names: { auth: 'wordpress_ownhash', secureAuth: 'wordpress_sec_ownhash', loggedIn: 'shop_signed_in' },
  },
];

/** A site owner's wp-config.php for the scratch database, with `lines` defined before WordPress loads. */
function wpConfigSource(scratch: ScratchDatabase, lines: Record<string, string>): string {
  const db = scratch.target.client === 'mysql' ? scratch.target : { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'unused' };
  const constants: Record<string, string> = {
    DB_NAME: db.database, DB_USER: db.user, DB_PASSWORD: db.password, DB_HOST: `${db.host}:${db.port}`,
    ...(ORACLE_SALTS as Record<string, string>), ...lines,
  };
  const defines = Object.entries(constants).map(([name, value]) => `define( '${name}', ${phpLiteral(value)} );`);
  return `<?php\n${defines.join('\n')}\n$table_prefix = 'wp_';\nif ( ! defined( 'ABSPATH' ) ) {\n\tdefine( 'ABSPATH', '${WORDPRESS_DIR}/' );\n}\n`
    + "require_once ABSPATH . 'wp-settings.php';\n";
}

describe('cookie names of a single site, from wp-config.php and the siteurl option', function () {
  let scratch: ScratchDatabase;
  let dir: string;
  const sites: Site[] = [];

  before(async () => {
    scratch = await scratchDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-cookies-'));
    const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      await installCoreTablesIfMissing(db);
      await db.knex('wp_options').insert([
        { option_name: 'siteurl', option_value: STORED_SITEURL, autoload: 'yes' },
        { option_name: 'home', option_value: STORED_SITEURL, autoload: 'yes' },
      ]);
    } finally {
      await db.close();
    }
  });

  after(async () => {
    for (const site of sites) await site.close();
    await scratch?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(config: SiteConfig): Site {
    const site = createSite(config, connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) }), fixedClock(0), memoryLogger());
    sites.push(site);
    return site;
  }

  for (const c of CASES) {
    it(c.name, async () => {
      const file = path.join(dir, 'wp-config.php');
      const wpConfig = parseWpConfig(wpConfigSource(scratch, c.lines), file);
      const site = open({
        source: 'wp-config', description: c.name, db: scratch.target, tablePrefix: 'wp_', multisite: false, blogId: 1,
        salts: ORACLE_SALTS, environmentType: 'local', dataDir: dir, seedDemo: false, ...cookieConfigOfWpConfig(wpConfig),
      });
      assert.deepEqual(await site.cookieNames(), c.names);
    });
  }

  describe('as real WordPress names them (MariaDB, php-cli)', function () {
    before(function () {
      const skip = wordpressPhpSkipReason();
      if (skip) {
        console.log(`      skipped: ${skip}`);
        this.skip();
      }
    });

    for (const c of CASES) {
      it(c.name, async () => {
        const configFile = path.join(dir, `wp-config-${CASES.indexOf(c)}.php`);
        fs.writeFileSync(configFile, wpConfigSource(scratch, c.lines));
        const site = open(loadSiteConfig({ WP_CONFIG_PATH: configFile }, dir));
        assert.deepEqual(await site.cookieNames(), c.names);
        assert.deepEqual(phpCookieNames(configFile), c.names);
      });
    }
  });
});

/**
 * The names WordPress defines with this wp-config.php: loaded as far as SHORTINIT goes (the
 * database and options, no plugins), then the constants as wp-settings.php defines them next.
 */
function phpCookieNames(configFile: string): CookieNames {
  const probe = `define( 'SHORTINIT', true );\nrequire ${phpLiteral(configFile)};\n`
    + 'wp_plugin_directory_constants();\nwp_cookie_constants();\n'
    + "echo json_encode( array( 'auth' => AUTH_COOKIE, 'secureAuth' => SECURE_AUTH_COOKIE, 'loggedIn' => LOGGED_IN_COOKIE ) );\n";
  const run = spawnSync('php', ['-r', probe], { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`php failed: ${run.stderr}${run.stdout.slice(0, 500)}`);
  return JSON.parse(run.stdout) as CookieNames;
}
