import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DumpParseError, DumpTable, parseCreateTables, parseDump, parseDumpInserts } from '.';
import { oracleFile } from '../oracle-files';

const DUMP_PATH = oracleFile('wp-oracle.sql');

function rowsOf(sql: string, table = 't'): unknown[][] {
  const found = parseDump(sql).find((t) => t.table === table);
  assert.ok(found, `table ${table} in dump`);
  return found.rows;
}

describe('mysqldump parser', () => {
  describe('values', () => {
    it('reads a one-row INSERT', () => {
      assert.deepEqual(rowsOf("INSERT INTO `t` VALUES (1,'a');"), [[1, 'a']]);
    });

    it('reads every tuple of an extended (multi-row) INSERT', () => {
      assert.deepEqual(rowsOf("INSERT INTO `t` VALUES (1,'a'),(2,'b'),(3,'c');"), [[1, 'a'], [2, 'b'], [3, 'c']]);
    });

    it('merges several INSERTs into one table in order', () => {
      const tables = parseDumpInserts("INSERT INTO `t` VALUES (1);\nINSERT INTO `u` VALUES (9);\nINSERT INTO `t` VALUES (2),(3);");
      assert.deepEqual(tables.map((t) => [t.table, t.rows]), [['t', [[1], [2], [3]]], ['u', [[9]]]]);
    });

    it('reads NULL (any case) as null and the string \'NULL\' as a string', () => {
      assert.deepEqual(rowsOf("INSERT INTO `t` VALUES (NULL,null,'NULL');"), [[null, null, 'NULL']]);
    });

    it('keeps unquoted numbers as numbers and quoted ones as strings', () => {
      assert.deepEqual(rowsOf("INSERT INTO `t` VALUES (0,-12,3.50,1e3,-2.5E-3,'42','007');"), [[0, -12, 3.5, 1000, -0.0025, '42', '007']]);
    });

    it('keeps integers beyond the JS safe range as exact digit strings', () => {
      assert.deepEqual(rowsOf('INSERT INTO `t` VALUES (18446744073709551615,-9223372036854775808,9007199254740991);'), [
        ['18446744073709551615', '-9223372036854775808', 9007199254740991],
      ]);
    });

    it('decodes the MySQL escapes mysqldump writes', () => {
      const sql = String.raw`INSERT INTO t VALUES ('a\0b','it\'s','say \"hi\"','back\\slash','l1\nl2','cr\r','tab\t','bs\b','ctrl\Z');`;
      assert.deepEqual(rowsOf(sql), [['a\0b', "it's", 'say "hi"', 'back\\slash', 'l1\nl2', 'cr\r', 'tab\t', 'bs\b', 'ctrl\x1a']]);
    });

    it('keeps the backslash of \\% and \\_ as MySQL does outside LIKE, and drops it before other characters', () => {
      assert.deepEqual(rowsOf(String.raw`INSERT INTO t VALUES ('100\%','a\_b','\q');`), [['100\\%', 'a\\_b', 'q']]);
    });

    it('decodes doubled quotes', () => {
      assert.deepEqual(rowsOf(`INSERT INTO t VALUES ('it''s','''','a""b',"say ""hi""");`), [["it's", "'", 'a""b', 'say "hi"']]);
    });

    it('reads double-quoted strings with escapes', () => {
      assert.deepEqual(rowsOf(String.raw`INSERT INTO t VALUES ("a\"b",'x');`), [['a"b', 'x']]);
    });

    it('treats commas, parentheses and semicolons inside strings as data', () => {
      assert.deepEqual(rowsOf("INSERT INTO `t` VALUES ('a,b','(c)',');'),('),(','x');"), [
        ['a,b', '(c)', ');'],
        ['),(', 'x'],
      ]);
    });

    it('keeps non-ASCII text and empty strings', () => {
      assert.deepEqual(rowsOf("INSERT INTO `t` VALUES ('é😀',''),('','');"), [['é😀', ''], ['', '']]);
    });

    it('accepts whitespace, comments and column lists the fast path does not cover', () => {
      const sql = "INSERT  INTO `db`.`t` (`a`, `b`)\nVALUES\n  ( 1 , 'x' ) ,\n  /* c */ (2, 'y') ;";
      const [table] = parseDump(sql);
      assert.equal(table!.table, 't');
      assert.deepEqual(table!.columns, ['a', 'b']);
      assert.deepEqual(table!.rows, [[1, 'x'], [2, 'y']]);
    });

    it('reads INSERT IGNORE, REPLACE, hex literals and charset introducers', () => {
      const sql = "INSERT IGNORE INTO t VALUES (0x4142,X'43',_binary 'bin',_utf8mb4 0x44);\nREPLACE INTO t VALUES (1,2,3,4);";
      assert.deepEqual(rowsOf(sql), [['AB', 'C', 'bin', 'D'], [1, 2, 3, 4]]);
    });

    it('reads a backtick doubled inside a table name', () => {
      assert.equal(parseDump('INSERT INTO `we``ird` VALUES (1);')[0]!.table, 'we`ird');
    });
  });

  describe('statements around the data', () => {
    const sql = [
      '-- MariaDB dump 10.19',
      '--',
      '/*!40101 SET NAMES utf8mb4 */;',
      '# hash comment',
      'DROP TABLE IF EXISTS `wp_x`;',
      'CREATE TABLE `wp_x` (',
      "  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'has ; and ) and ''quotes''',",
      "  `kind` enum('a,b','c') NOT NULL DEFAULT 'a,b',",
      '  `amount` decimal(10,2) DEFAULT NULL,',
      '  PRIMARY KEY (`id`),',
      '  UNIQUE KEY `k` (`kind`,`amount`),',
      '  KEY `meta_key` (`kind`(191))',
      ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;',
      'LOCK TABLES `wp_x` WRITE;',
      '/*!40000 ALTER TABLE `wp_x` DISABLE KEYS */;',
      "INSERT INTO `wp_x` VALUES (1,'a,b',NULL),(2,'c',9.99);",
      '/*!40000 ALTER TABLE `wp_x` ENABLE KEYS */;',
      'UNLOCK TABLES;',
      'CREATE TABLE `wp_empty` (`a` int(11));',
      'DELIMITER ;;',
      '/*!50003 CREATE*/ /*!50003 TRIGGER trg BEFORE INSERT ON wp_x FOR EACH ROW BEGIN SET @a = 1; END */;;',
      'DELIMITER ;',
      "INSERT INTO `wp_empty` VALUES (5);",
    ].join('\n');

    it('skips comments, SET, LOCK, DROP and triggers and reads only the rows', () => {
      const tables = parseDump(sql);
      assert.deepEqual(tables.map((t) => t.table), ['wp_x', 'wp_empty']);
      assert.deepEqual(tables[0]!.rows, [[1, 'a,b', null], [2, 'c', 9.99]]);
      assert.deepEqual(tables[1]!.rows, [[5]]);
    });

    it('lists CREATE TABLE columns with their definitions, skipping keys', () => {
      const [created] = parseCreateTables(sql);
      assert.equal(created!.table, 'wp_x');
      assert.deepEqual(created!.columns.map((c) => c.name), ['id', 'kind', 'amount']);
      assert.equal(created!.columns[1]!.definition, "enum('a,b','c') NOT NULL DEFAULT 'a,b'");
      assert.equal(created!.columns[2]!.definition, 'decimal(10,2) DEFAULT NULL');
      assert.deepEqual(parseDump(sql)[0]!.columns, ['id', 'kind', 'amount']);
    });

    it('reports tables with no rows from parseDump but not from parseDumpInserts', () => {
      const emptyOnly = 'CREATE TABLE `a` (`x` int);\nCREATE TABLE `b` (`y` int);\nINSERT INTO `b` VALUES (1);';
      assert.deepEqual(parseDump(emptyOnly).map((t) => [t.table, t.rows.length]), [['a', 0], ['b', 1]]);
      assert.deepEqual(parseDumpInserts(emptyOnly).map((t) => t.table), ['b']);
    });
  });

  describe('errors', () => {
    it('throws DumpParseError with the line of an unterminated string', () => {
      assert.throws(
        () => parseDump("SET x=1;\n\nINSERT INTO `t` VALUES (1,'abc);"),
        (err: unknown) => err instanceof DumpParseError && err.line === 3 && /unterminated/.test(err.message),
      );
    });

    it('throws when a row does not match the table\'s column count', () => {
      assert.throws(() => parseDump('CREATE TABLE `t` (`a` int, `b` int);\nINSERT INTO `t` VALUES (1,2),(3);'), (err: unknown) =>
        err instanceof DumpParseError && /1 values/.test(err.message) && err.line === 2,
      );
    });

    it('throws when INSERTs into one table use different column lists', () => {
      assert.throws(() => parseDump('INSERT INTO t (a) VALUES (1);\nINSERT INTO t (b) VALUES (2);'), DumpParseError);
    });

    it('throws on a value it does not understand instead of guessing', () => {
      assert.throws(() => parseDump('INSERT INTO t VALUES (NOW());'), DumpParseError);
      assert.throws(() => parseDump('INSERT INTO t VALUES (1) garbage;'), DumpParseError);
    });
  });

  describe('the oracle WordPress dump', () => {
    const sql = fs.readFileSync(DUMP_PATH, 'utf8');
    let tables: DumpTable[] = [];
    const table = (name: string): DumpTable => {
      const found = tables.find((t) => t.table === name);
      assert.ok(found, name);
      return found;
    };

    before(() => {
      tables = parseDump(sql);
    });

    it('finds all 12 core tables with their row counts', () => {
      assert.deepEqual(
        Object.fromEntries(tables.map((t) => [t.table, t.rows.length])),
        {
          wp_commentmeta: 0,
          wp_comments: 1,
          wp_links: 0,
          wp_options: 120,
          wp_postmeta: 3943,
          wp_posts: 824,
          wp_term_relationships: 1,
          wp_term_taxonomy: 1,
          wp_termmeta: 0,
          wp_terms: 1,
          wp_usermeta: 92,
          wp_users: 6,
        },
      );
    });

    it('reads one row per INSERT statement in the file', () => {
      const statements = sql.match(/^INSERT INTO /gm)!.length;
      assert.equal(statements, 4989);
      assert.equal(tables.reduce((n, t) => n + t.rows.length, 0), statements);
    });

    it('lines up wp_users rows with the CREATE TABLE columns', () => {
      const users = table('wp_users');
      assert.deepEqual(users.columns, [
        'ID', 'user_login', 'user_pass', 'user_nicename', 'user_email', 'user_url',
        'user_registered', 'user_activation_key', 'user_status', 'display_name',
      ]);
      const admin = users.rows[0]!;
      assert.equal(admin[0], 1);
      assert.equal(admin[1], 'admin');
      assert.match(String(admin[2]), /^\$P\$B/);
      assert.equal(admin[8], 0);
      assert.deepEqual(users.rows.map((r) => r[1]), ['admin', 'agent1', 'manager1', 'customer1', 'customer2', 'editor1']);
    });

    it('decodes escaped quotes and newlines in post content', () => {
      const page = table('wp_posts').rows.find((r) => r[0] === 2)!;
      assert.match(String(page[4]), /It's different from a blog post/);
      assert.ok(String(page[4]).includes('\n'));
      assert.ok(!String(page[4]).includes("\\'"));
    });

    it('decodes serialized option values (\\" becomes ")', () => {
      const caps = table('wp_usermeta').rows.find((r) => r[1] === 1 && r[2] === 'wp_capabilities')!;
      assert.equal(caps[3], 'a:1:{s:13:"administrator";b:1;}');
    });

    it('gives the same rows through the general path as through the fast path', () => {
      // A space before each ';' makes every statement leave the fast path.
      const slow = parseDump(sql.replace(/\);$/gm, ') ;'));
      assert.deepEqual(slow, tables);
    });
  });
});
