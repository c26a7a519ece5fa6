/**
 * WordPress's core tables, declared once with WordPress's own columns and indexes
 * (the shape `wp_get_db_schema()` creates), and rendered as DDL for MySQL/MariaDB or SQLite.
 * Used only on an empty database: on an existing site these tables are never created or altered.
 */
import { Dialect } from './database';
import { Tables } from './tables';

type ColumnType = 'bigint' | 'int' | 'varchar' | 'text' | 'tinytext' | 'longtext' | 'datetime';

interface Column {
  name: string;
  type: ColumnType;
  length?: number;
  unsigned?: boolean;
  autoIncrement?: boolean;
  nullable?: boolean;
  default?: string | number;
}

interface Index {
  name: string;
  /** A column, or a column with MySQL's prefix length (utf8mb4 keys are limited to 191 characters). */
  columns: Array<string | [string, number]>;
  kind?: 'primary' | 'unique';
}

export interface TableSpec {
  name: (t: Tables) => string;
  columns: Column[];
  indexes: Index[];
}

const ZERO_DATE = '0000-00-00 00:00:00';
const id = (name: string): Column => ({ name, type: 'bigint', length: 20, unsigned: true, autoIncrement: true });
const ref = (name: string): Column => ({ name, type: 'bigint', length: 20, unsigned: true, default: 0 });
const str = (name: string, length: number, def: string = ''): Column => ({ name, type: 'varchar', length, default: def });
const date = (name: string): Column => ({ name, type: 'datetime', default: ZERO_DATE });
const metaKey: Column = { name: 'meta_key', type: 'varchar', length: 255, nullable: true };
const metaValue: Column = { name: 'meta_value', type: 'longtext', nullable: true };

function metaTable(name: (t: Tables) => string, idColumn: string, owner: string): TableSpec {
  return {
    name,
    columns: [id(idColumn), ref(owner), metaKey, metaValue],
    indexes: [
      { name: 'PRIMARY', columns: [idColumn], kind: 'primary' },
      { name: owner, columns: [owner] },
      { name: 'meta_key', columns: [['meta_key', 191]] },
    ],
  };
}

export const CORE_TABLES: TableSpec[] = [
  {
    name: (t) => t.users,
    columns: [
      id('ID'), str('user_login', 60), str('user_pass', 255), str('user_nicename', 50), str('user_email', 100),
      str('user_url', 100), date('user_registered'), str('user_activation_key', 255),
      { name: 'user_status', type: 'int', length: 11, default: 0 }, str('display_name', 250),
    ],
    indexes: [
      { name: 'PRIMARY', columns: ['ID'], kind: 'primary' },
      { name: 'user_login_key', columns: ['user_login'] },
      { name: 'user_nicename', columns: ['user_nicename'] },
      { name: 'user_email', columns: ['user_email'] },
    ],
  },
  {
    name: (t) => t.usermeta,
    columns: [id('umeta_id'), ref('user_id'), metaKey, metaValue],
    indexes: [
      { name: 'PRIMARY', columns: ['umeta_id'], kind: 'primary' },
      { name: 'user_id', columns: ['user_id'] },
      { name: 'meta_key', columns: [['meta_key', 191]] },
    ],
  },
  {
    name: (t) => t.options,
    columns: [
      id('option_id'), str('option_name', 191), { name: 'option_value', type: 'longtext' }, str('autoload', 20, 'yes'),
    ],
    indexes: [
      { name: 'PRIMARY', columns: ['option_id'], kind: 'primary' },
      { name: 'option_name', columns: ['option_name'], kind: 'unique' },
      { name: 'autoload', columns: ['autoload'] },
    ],
  },
  {
    name: (t) => t.posts,
    columns: [
      id('ID'), ref('post_author'), date('post_date'), date('post_date_gmt'),
      { name: 'post_content', type: 'longtext' }, { name: 'post_title', type: 'text' }, { name: 'post_excerpt', type: 'text' },
      str('post_status', 20, 'publish'), str('comment_status', 20, 'open'), str('ping_status', 20, 'open'),
      str('post_password', 255), str('post_name', 200), { name: 'to_ping', type: 'text' }, { name: 'pinged', type: 'text' },
      date('post_modified'), date('post_modified_gmt'), { name: 'post_content_filtered', type: 'longtext' },
      ref('post_parent'), str('guid', 255), { name: 'menu_order', type: 'int', length: 11, default: 0 },
      str('post_type', 20, 'post'), str('post_mime_type', 100), { name: 'comment_count', type: 'bigint', length: 20, default: 0 },
    ],
    indexes: [
      { name: 'PRIMARY', columns: ['ID'], kind: 'primary' },
      { name: 'post_name', columns: [['post_name', 191]] },
      { name: 'type_status_date', columns: ['post_type', 'post_status', 'post_date', 'ID'] },
      { name: 'post_parent', columns: ['post_parent'] },
      { name: 'post_author', columns: ['post_author'] },
    ],
  },
  metaTable((t) => t.postmeta, 'meta_id', 'post_id'),
  {
    name: (t) => t.terms,
    columns: [
      id('term_id'), str('name', 200), str('slug', 200), { name: 'term_group', type: 'bigint', length: 10, default: 0 },
    ],
    indexes: [
      { name: 'PRIMARY', columns: ['term_id'], kind: 'primary' },
      { name: 'slug', columns: [['slug', 191]] },
      { name: 'name', columns: [['name', 191]] },
    ],
  },
  {
    name: (t) => t.termTaxonomy,
    columns: [
      id('term_taxonomy_id'), ref('term_id'), str('taxonomy', 32), { name: 'description', type: 'longtext' },
      ref('parent'), { name: 'count', type: 'bigint', length: 20, default: 0 },
    ],
    indexes: [
      { name: 'PRIMARY', columns: ['term_taxonomy_id'], kind: 'primary' },
      { name: 'term_id_taxonomy', columns: ['term_id', 'taxonomy'], kind: 'unique' },
      { name: 'taxonomy', columns: ['taxonomy'] },
    ],
  },
  {
    name: (t) => t.termRelationships,
    columns: [ref('object_id'), ref('term_taxonomy_id'), { name: 'term_order', type: 'int', length: 11, default: 0 }],
    indexes: [
      { name: 'PRIMARY', columns: ['object_id', 'term_taxonomy_id'], kind: 'primary' },
      { name: 'term_taxonomy_id', columns: ['term_taxonomy_id'] },
    ],
  },
  metaTable((t) => t.termmeta, 'meta_id', 'term_id'),
  {
    name: (t) => t.comments,
    columns: [
      id('comment_ID'), ref('comment_post_ID'), { name: 'comment_author', type: 'tinytext' },
      str('comment_author_email', 100), str('comment_author_url', 200), str('comment_author_IP', 100),
      date('comment_date'), date('comment_date_gmt'), { name: 'comment_content', type: 'text' },
      { name: 'comment_karma', type: 'int', length: 11, default: 0 }, str('comment_approved', 20, '1'),
      str('comment_agent', 255), str('comment_type', 20, 'comment'), ref('comment_parent'), ref('user_id'),
    ],
    indexes: [
      { name: 'PRIMARY', columns: ['comment_ID'], kind: 'primary' },
      { name: 'comment_post_ID', columns: ['comment_post_ID'] },
      { name: 'comment_approved_date_gmt', columns: ['comment_approved', 'comment_date_gmt'] },
      { name: 'comment_date_gmt', columns: ['comment_date_gmt'] },
      { name: 'comment_parent', columns: ['comment_parent'] },
      { name: 'comment_author_email', columns: [['comment_author_email', 10]] },
    ],
  },
  metaTable((t) => t.commentmeta, 'meta_id', 'comment_id'),
];

/** The statements that create one table (and its indexes) in the given dialect. */
export function createTableStatements(spec: TableSpec, tables: Tables, dialect: Dialect): string[] {
  return dialect === 'mysql' ? [mysqlCreateTable(spec, spec.name(tables))] : sqliteCreateTable(spec, spec.name(tables));
}

function mysqlCreateTable(spec: TableSpec, table: string): string {
  const lines = spec.columns.map(mysqlColumn);
  for (const index of spec.indexes) {
    const cols = index.columns.map((c) => (typeof c === 'string' ? `\`${c}\`` : `\`${c[0]}\`(${c[1]})`)).join(',');
    if (index.kind === 'primary') lines.push(`PRIMARY KEY (${cols})`);
    else lines.push(`${index.kind === 'unique' ? 'UNIQUE KEY' : 'KEY'} \`${index.name}\` (${cols})`);
  }
  return `CREATE TABLE \`${table}\` (\n  ${lines.join(',\n  ')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci`;
}

function mysqlColumn(c: Column): string {
  const type = c.length && c.type !== 'datetime' && !c.type.endsWith('text') ? `${c.type}(${c.length})` : c.type;
  const parts = [`\`${c.name}\``, type];
  if (c.unsigned) parts.push('unsigned');
  parts.push(c.nullable ? 'DEFAULT NULL' : 'NOT NULL');
  if (c.autoIncrement) parts.push('AUTO_INCREMENT');
  else if (c.default !== undefined) parts.push(`DEFAULT ${typeof c.default === 'number' ? c.default : `'${c.default}'`}`);
  return parts.join(' ');
}

/**
 * SQLite has no unsigned types, prefix indexes or per-table collations, so text columns take
 * NOCASE to compare as MySQL's `_ci` collations do (WordPress looks users up case-insensitively).
 */
function sqliteCreateTable(spec: TableSpec, table: string): string[] {
  const primary = spec.indexes.find((i) => i.kind === 'primary');
  const auto = spec.columns.find((c) => c.autoIncrement);
  const lines = spec.columns.map((c) => sqliteColumn(c));
  if (primary && !auto) lines.push(`PRIMARY KEY (${primary.columns.map((c) => `"${colName(c)}"`).join(', ')})`);
  const statements = [`CREATE TABLE "${table}" (\n  ${lines.join(',\n  ')}\n)`];
  for (const index of spec.indexes) {
    if (index.kind === 'primary') continue;
    const cols = index.columns.map((c) => `"${colName(c)}"`).join(', ');
    statements.push(`CREATE ${index.kind === 'unique' ? 'UNIQUE ' : ''}INDEX "${table}_${index.name}" ON "${table}" (${cols})`);
  }
  return statements;
}

function sqliteColumn(c: Column): string {
  if (c.autoIncrement) return `"${c.name}" INTEGER PRIMARY KEY AUTOINCREMENT`;
  const isText = c.type === 'varchar' || c.type.endsWith('text') || c.type === 'datetime';
  const parts = [`"${c.name}"`, isText ? 'TEXT' : 'INTEGER'];
  parts.push(c.nullable ? 'NULL' : 'NOT NULL');
  if (c.default !== undefined) parts.push(`DEFAULT ${typeof c.default === 'number' ? c.default : `'${c.default}'`}`);
  else if (!c.nullable && isText) parts.push("DEFAULT ''");
  if (isText && c.type !== 'datetime') parts.push('COLLATE NOCASE');
  return parts.join(' ');
}

function colName(c: string | [string, number]): string {
  return typeof c === 'string' ? c : c[0];
}
