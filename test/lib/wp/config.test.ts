/** How Understudy finds a site: WP_CONFIG_PATH, then environment variables, then the embedded default. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import request from 'supertest';
import { openSite } from '../../../lib/boot';
import { createApp } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { loadServerConfig, loadSiteConfig } from '../../../lib/wp/config';
import { MYSQL_URL } from '../../harness/db';
import { ORACLE_SALTS, credentials, oracleSql } from '../../harness/oracle';

const ORACLE_WP_CONFIG = path.resolve(__dirname, '../../../fixtures/wp-config/oracle-wp-config.php');
const salts = ORACLE_SALTS as Record<string, string>;

describe('site configuration', () => {
  let cwd: string;
  beforeEach(() => { cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-config-')); });
  afterEach(() => fs.rmSync(cwd, { recursive: true, force: true }));

  it('defaults to the embedded SQLite site in ./data, with salts generated once and kept', () => {
    const first = loadSiteConfig({}, cwd);
    assert.equal(first.source, 'embedded');
    assert.deepEqual(first.db, { client: 'sqlite', filename: path.join(cwd, 'data', 'site.sqlite') });
    assert.equal(first.seedDemo, true);
    assert.equal(first.environmentType, 'local');
    assert.equal(Object.keys(first.salts).length, 8);
    const again = loadSiteConfig({}, cwd);
    assert.deepEqual(again.salts, first.salts, 'the second start reuses the kept salts');
  });

  it('reads DATABASE_URL for MySQL and requires the site\'s eight keys and salts', () => {
    const env = { DATABASE_URL: 'mysql://wp:p%40ss@db.example:3307/site', TABLE_PREFIX: 'wp2_', ...salts };
    const config = loadSiteConfig(env, cwd);
    assert.deepEqual(config.db, { client: 'mysql', host: 'db.example', port: 3307, socketPath: undefined, user: 'wp', password: 'p@ss', database: 'site', charset: 'utf8mb4' });
    assert.equal(config.tablePrefix, 'wp2_');
    assert.throws(() => loadSiteConfig({ DATABASE_URL: 'mysql://wp@db/site' }, cwd), /missing AUTH_KEY, SECURE_AUTH_KEY, .*NONCE_SALT/);
  });

  it('reads DB_NAME/DB_USER/DB_PASSWORD/DB_HOST like wp-config constants', () => {
    const config = loadSiteConfig({ DB_NAME: 'site', DB_USER: 'wp', DB_PASSWORD: 'x', DB_HOST: 'db.example:3310', ...salts }, cwd);
    assert.equal(config.source, 'env');
    assert.deepEqual(config.db, { client: 'mysql', host: 'db.example', port: 3310, user: 'wp', password: 'x', database: 'site', charset: 'utf8mb4' });
  });

  it('lets WP_CONFIG_PATH win over the environment', () => {
    const config = loadSiteConfig({ WP_CONFIG_PATH: ORACLE_WP_CONFIG, DATABASE_URL: 'sqlite:other.sqlite' }, cwd);
    assert.equal(config.source, 'wp-config');
    assert.deepEqual(config.db, { client: 'mysql', host: '127.0.0.1', port: 3306, user: 'wp_oracle', password: 'wp_oracle_db_pass', database: 'wp_oracle', charset: 'utf8mb4' });
    assert.deepEqual(config.salts, ORACLE_SALTS);
    assert.equal(config.environmentType, 'local');
  });

  it('names the wp-config file and what it lacks', () => {
    const file = path.join(cwd, 'wp-config.php');
    fs.writeFileSync(file, "<?php\ndefine('DB_NAME', 'x');\n$table_prefix = 'wp_';\n");
    assert.throws(() => loadSiteConfig({ WP_CONFIG_PATH: file }, cwd), (err: Error) => err.message.startsWith(`${file}: missing DB_USER`) && /NONCE_SALT/.test(err.message));
  });

  it("carries wp-config.php's cookie constants and WP_SITEURL, but not a value PHP computes per request", () => {
    const file = path.join(cwd, 'wp-config.php');
    const defines = Object.entries({ DB_NAME: 'site', DB_USER: 'wp', DB_PASSWORD: 'x', DB_HOST: 'db', ...salts }).map(([k, v]) => `define('${k}', '${v}');`);
    fs.writeFileSync(file, `<?php\n${defines.join('\n')}\ndefine('COOKIEHASH', 'ownhash');\ndefine('COOKIE_DOMAIN', false);\n`
      + "define('ADMIN_COOKIE_PATH', '/admin');\ndefine('WP_SITEURL', 'http://' . $_SERVER['HTTP_HOST']);\n$table_prefix = 'wp_';\n");
    const config = loadSiteConfig({ WP_CONFIG_PATH: file }, cwd);
    assert.deepEqual(config.cookieConstants, { COOKIEHASH: 'ownhash', COOKIE_DOMAIN: false, ADMIN_COOKIE_PATH: '/admin' });
    assert.equal(config.siteUrlConstant, undefined);
    const fromEnv = loadSiteConfig({ DB_NAME: 'site', DB_USER: 'wp', DB_HOST: 'db', ...salts, LOGGED_IN_COOKIE: 'in', WP_SITEURL: 'https://shop.example/' }, cwd);
    assert.deepEqual([fromEnv.cookieConstants, fromEnv.siteUrlConstant], [{ LOGGED_IN_COOKIE: 'in' }, 'https://shop.example/']);
  });

  it('lists the languages installed beside WordPress as get_available_languages() does, from the folder WordPress would use', () => {
    const defines = Object.entries({ DB_NAME: 'site', DB_USER: 'wp', DB_PASSWORD: 'x', DB_HOST: 'db', ...salts }).map(([k, v]) => `define('${k}', '${v}');`);
    const install = (extra: string) => {
      const file = path.join(cwd, 'wp-config.php');
      fs.writeFileSync(file, `<?php\n${defines.join('\n')}\n${extra}$table_prefix = 'wp_';\n`);
      return loadSiteConfig({ WP_CONFIG_PATH: file }, cwd).languages;
    };
    const lay = (dir: string, files: string[]) => {
      fs.mkdirSync(path.join(cwd, dir), { recursive: true });
      for (const name of files) fs.writeFileSync(path.join(cwd, dir, name), '');
    };
    assert.deepEqual(install(''), [], 'no language folder');
    lay('wp-includes/languages', ['fr_FR.mo']);
    assert.deepEqual(install(''), ['fr_FR'], "wp-includes/languages when wp-content has none");
    lay('wp-content/languages', ['de_DE.mo', 'admin-de_DE.mo', 'ms-de_DE.mo', 'continents-cities-de_DE.mo', 'de_DE.po', 'ar.mo', 'pt_BR.mo']);
    assert.deepEqual(install(''), ['ar', 'de_DE', 'pt_BR'], 'wp-content/languages beside wp-config.php, sorted, without the admin, network and city files');
    lay('content/languages', ['es_ES.mo']);
    assert.deepEqual(install("define('WP_CONTENT_DIR', __DIR__ . '/content');\n"), ['es_ES']);
    lay('langs', ['it_IT.mo']);
    assert.deepEqual(install("define('WP_LANG_DIR', __DIR__ . '/langs');\n"), ['it_IT']);
    assert.deepEqual(install("define('WP_LANG_DIR', getenv('LANGS'));\n"), [], 'a folder PHP computes is not guessed');
    assert.deepEqual(install("define('WP_LANG_DIR', 'langs');\n"), [], "nor one relative to PHP's working directory");
    assert.equal(loadSiteConfig({ DB_NAME: 'site', DB_USER: 'wp', DB_HOST: 'db', ...salts }, cwd).languages, undefined, 'no wp-config.php, no install to look at');
  });

  it('serves on 127.0.0.1:8080 unless PORT and HOST say otherwise', () => {
    assert.deepEqual(loadServerConfig({}), { port: 8080, host: '127.0.0.1' });
    assert.deepEqual(loadServerConfig({ PORT: '9090', HOST: '0.0.0.0' }), { port: 9090, host: '0.0.0.0' });
    assert.throws(() => loadServerConfig({ PORT: 'eighty' }), /PORT must be a port number/);
  });
});

describe('WP_CONFIG_PATH pointing at the oracle site\'s wp-config.php (MariaDB)', function () {
  let admin: mysql.Connection;
  before(async function () {
    if (!MYSQL_URL) return this.skip();
    const url = new URL(MYSQL_URL);
    admin = await mysql.createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username) || 'root', password: decodeURIComponent(url.password), multipleStatements: true });
    // The database and account that wp-config.php names, as the oracle site had them.
    await admin.query('DROP DATABASE IF EXISTS wp_oracle; CREATE DATABASE wp_oracle CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci');
    await admin.query("CREATE USER IF NOT EXISTS 'wp_oracle'@'127.0.0.1' IDENTIFIED BY 'wp_oracle_db_pass'; CREATE USER IF NOT EXISTS 'wp_oracle'@'localhost' IDENTIFIED BY 'wp_oracle_db_pass'");
    await admin.query("GRANT ALL ON wp_oracle.* TO 'wp_oracle'@'127.0.0.1'; GRANT ALL ON wp_oracle.* TO 'wp_oracle'@'localhost'");
    await admin.query(`USE wp_oracle; ${oracleSql()}`);
  });
  after(async () => {
    if (!admin) return;
    await admin.query('DROP DATABASE IF EXISTS wp_oracle');
    await admin.end();
  });

  it('signs in with real application passwords against the real WordPress data', async () => {
    const config = loadSiteConfig({ WP_CONFIG_PATH: ORACLE_WP_CONFIG }, os.tmpdir());
    const { site, installed } = await openSite(config, { logger: memoryLogger() });
    try {
      assert.equal(installed, false, 'an existing WordPress database gets no new core tables');
      for (const [login, app] of Object.entries(credentials.application_passwords as Record<string, any>)) {
        const res = await request(createApp(site)).get('/wp-json/wp/v2/users/me').set('Authorization', app.basic_auth_header);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.slug, login);
      }
    } finally {
      await site.close();
    }
  });
});
