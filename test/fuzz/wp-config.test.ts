/**
 * Fuzzing the wp-config.php reader (WP_CONFIG_PATH): arbitrary text, PHP-like token soup and the
 * oracle's real wp-config.php cut, spliced and edited. Reading never throws (whatever the PHP), and
 * turning what was read into a site configuration either succeeds with usable values or fails with the
 * reader's own message, `<file>: missing …; cannot evaluate …; invalid …`, never with a TypeError or a
 * stack overflow. Choosing the object cache from what was read never throws. Reading takes time about
 * linear in the file's size. Comments and blank space between statements change nothing that is read.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { chooseObjectCache } from '../../lib/wp/object-cache/detect';
import { WpConfigFile, parseWpConfig, readWpConfig, siteConfigFromWpConfig } from '../../lib/wp/wp-config';
import { LONG, assertAboutLinear, params, preview, shown, testTimeout } from './settings';

const ORACLE_CONFIG = path.resolve(__dirname, '../../fixtures/wp-config/oracle-wp-config.php');
const oracleSource = fs.readFileSync(ORACLE_CONFIG, 'utf8');

/** What PHP source (and wp-config files in particular) is made of, good and broken. */
const PHP_PIECES = [
  '<?php ', '<?= ', '<?PHP\n', '?>', 'define(', "define( 'DB_NAME', ", "define( 'AUTH_KEY', ", "'DB_HOST'", "'DB_USER'", "'MULTISITE'",
  ', ', ')', ');', ';', '(', '[', ']', '{', '}', '"', "'", '`', '\\', '"{$', '{$', '${', '$x', '$table_prefix', ' = ', ' .= ', ' . ',
  '+', '-', '- ', '*', '/', '%', '0', '1', '0x1F', '0b102', '0o7', '017', '1e999', '1_000', '.5', '1.', 'true', 'NULL', "getenv('X')",
  '__DIR__', '<<<EOT\n', "<<<'N'\n", '<<<"Q"\n', '\nEOT', '\n  EOT;\n', 'N;', '/*', '*/', '//', '#', '\n', '\r\n', ' ', '\t',
  "if ( ! defined( 'X' ) ) {", '\\define(', '->define(', '::define(', 'function define(', 'new define(', "'localhost:/tmp/s'",
  "'[::1]:3306'", "':::'", "'::zz'", '"\\x41\\u{1F600}\\101\\e"', '"\\u{110000}"', 'é', '\u0000', 'put your unique phrase here',
  'array(', '=>', 'dirname(', '__FILE__', '$memcached_servers', "define( 'WP_REDIS_GLOBAL_GROUPS', ", "define( 'ABSPATH', ",
];

const soup = (max: number, min = 0) => fc.array(fc.constantFrom(...PHP_PIECES), { minLength: min, maxLength: max }).map((p) => p.join(''));

/** The real file, edited: insertions of PHP soup or noise, deletions, duplicated ranges, a cut-off end. */
const editedOracle = fc.array(fc.tuple(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.constantFrom('insert', 'delete', 'duplicate', 'truncate'),
  fc.oneof(soup(6, 1), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 })),
  fc.integer({ min: 1, max: 400 }),
), { minLength: 1, maxLength: 6 }).map((edits) => edits.reduce((src, [where, op, text, length]) => {
  const at = Math.floor(where * src.length);
  if (op === 'insert') return src.slice(0, at) + text + src.slice(at);
  if (op === 'delete') return src.slice(0, at) + src.slice(at + length);
  if (op === 'duplicate') return src.slice(0, at + length) + src.slice(at, at + length) + src.slice(at + length);
  return src.slice(0, at);
}, oracleSource));

/** A fragment of PHP repeated thousands of times: deep nesting, long runs of unclosed constructs. */
const repeated = fc.tuple(soup(5, 1), fc.integer({ min: 1, max: 20_000 }))
  .map(([piece, n]) => `<?php ${piece.repeat(Math.min(n, Math.ceil((LONG ? 120_000 : 40_000) / piece.length)))}`);

const sourceArb = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => `<?php ${s}`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
  { weight: 3, arbitrary: soup(80) },
  { weight: 4, arbitrary: editedOracle },
  { weight: 2, arbitrary: repeated },
);

const FILE = '/srv/site/wp-config.php';

/** Reads a site configuration as `serve` does: a usable one, or the reader's own error. */
function checkSiteConfig(parsed: WpConfigFile): void {
  let site;
  try {
    site = siteConfigFromWpConfig(parsed);
  } catch (err) {
    assert.ok(err instanceof Error && err.constructor === Error, `not the reader's error: ${String(err)}`);
    assert.match(err.message, /^\/srv\/site\/wp-config\.php: (missing|cannot evaluate|invalid) /s);
    return;
  }
  assert.match(site.tablePrefix, /^[A-Za-z0-9_]*$/);
  for (const value of [site.db.user, site.db.password, site.db.database, site.db.charset, ...Object.values(site.salts)]) assert.equal(typeof value, 'string');
  assert.equal(Object.keys(site.salts).length, 8);
  assert.equal(typeof site.multisite, 'boolean');
}

describe('fuzz: the wp-config.php reader', function () {
  this.timeout(testTimeout(30_000));

  it('reads any file without throwing; the site check succeeds or fails with its own message; the object cache is chosen', () => {
    const files = sourceArb.map((text) => shown({ text }, `wp-config.php ${preview(text)}`));
    fc.assert(fc.property(files, ({ text }) => {
      let parsed: WpConfigFile | undefined;
      assert.doesNotThrow(() => { parsed = parseWpConfig(text, FILE); }, `reading ${preview(text, 200)}`);
      checkSiteConfig(parsed as WpConfigFile);
      assert.doesNotThrow(() => chooseObjectCache({ wpConfig: parsed, site: { tablePrefix: 'wp_', blogId: 1, multisite: false } }));
    }), params(250, 20_000));
  });

  it('reads a file on disk the same as its text, whatever bytes it holds', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-fuzz-wpconfig-'));
    try {
      const bytes = fc.oneof(
        editedOracle.map((s) => Buffer.from(s, 'utf8')),
        fc.tuple(fc.uint8Array({ maxLength: 200 }), fc.double({ min: 0, max: 1, noNaN: true }))
          .map(([noise, where]) => { const b = Buffer.from(oracleSource); const at = Math.floor(where * b.length); return Buffer.concat([b.subarray(0, at), noise, b.subarray(at)]); }),
      );
      fc.assert(fc.property(bytes.map((content) => shown(content, `wp-config.php bytes ${preview(content.toString('latin1'))}`)), (content) => {
        const file = path.join(dir, 'wp-config.php');
        fs.writeFileSync(file, content);
        const read = readWpConfig(file);
        assert.deepEqual(read, parseWpConfig(content.toString('utf8'), file, fs.realpathSync(file)));
      }), params(100, 3_000));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the same settings whatever comments and blank space stand between statements', () => {
    const expected = siteConfigFromWpConfig(parseWpConfig(oracleSource, FILE));
    const filler = fc.oneof(
      fc.string({ maxLength: 30 }).filter((s) => !s.includes('*/')).map((s) => `/*${s}*/`),
      fc.string({ maxLength: 30 }).filter((s) => !/[\r\n]|\?>/.test(s)).map((s) => `// ${s}\n`),
      fc.string({ maxLength: 30 }).filter((s) => !/[\r\n]|\?>/.test(s)).map((s) => `# ${s}\n`),
      fc.constantFrom(' ', '\n', '\r\n', '\t', '\n\n'),
    );
    // After each statement's line (a `;` inside the opening comment is no statement's end).
    const statements = oracleSource.split(/(?<=^(?:define\(|\$table_prefix)[^\n]*;\n)/m);
    assert.equal(statements.length, 18);
    fc.assert(fc.property(fc.array(fc.array(filler, { maxLength: 3 }), { minLength: statements.length, maxLength: statements.length }), (fillers) => {
      const source = statements.map((statement, i) => statement + (fillers[i] as string[]).join('')).join('');
      assert.deepEqual(siteConfigFromWpConfig(parseWpConfig(source, FILE)), expected);
    }), params(100, 3_000));
  });

  it('takes time about linear in the size of the file, however it is built', () => {
    fc.assert(fc.property(soup(6, 1), (piece) => {
      const read = (chars: number) => {
        const source = `<?php ${piece.repeat(Math.ceil(chars / piece.length))}`;
        return () => {
          try {
            parseWpConfig(source, FILE);
          } catch {
            // Throwing is the first test's finding; here only the time counts.
          }
        };
      };
      assertAboutLinear(`${JSON.stringify(piece)} repeated to 2,000 and 32,000 characters`, read(2_000), read(32_000));
    }), params(40, 2_000));
  });
});
