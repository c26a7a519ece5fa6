/**
 * WordPress's network tables (`{prefix}site`, `{prefix}blogs`, `{prefix}sitemeta`, the `ms_global`
 * part of wp_get_db_schema()) in a scratch database of either engine, filled with rows as
 * populate_network() and wpmu_create_blog() write them. For tests of lookups that need no PHP; the
 * real network (wordpress-network.ts) checks the same rules against WordPress itself.
 * On SQLite the text columns compare case-insensitively (NOCASE), as MySQL's `_ci` collations do.
 */
import { Knex } from 'knex';

export interface NetworkRow {
  id: number;
  domain: string;
  path: string;
  /** The network's `siteurl` option; populate_network() stores `http://<domain><path>`'s main site address with a slash. */
  siteUrl?: string;
  /** The network's `main_site` option (default 1). */
  mainSiteId?: number;
}

export interface BlogRow {
  blogId: number;
  networkId?: number;
  domain: string;
  path: string;
  archived?: boolean;
  spam?: boolean;
  deleted?: number;
}

export async function createNetworkTables(knex: Knex, prefix: string, dialect: 'mysql' | 'sqlite'): Promise<void> {
  const text = (name: string, length: number) => (dialect === 'mysql'
    ? `${name} varchar(${length}) NOT NULL default ''` : `${name} TEXT NOT NULL DEFAULT '' COLLATE NOCASE`);
  const id = (name: string) => (dialect === 'mysql' ? `${name} bigint(20) NOT NULL auto_increment` : `${name} INTEGER PRIMARY KEY AUTOINCREMENT`);
  const key = (name: string) => (dialect === 'mysql' ? `, PRIMARY KEY (${name})` : '');
  const flag = (name: string, def: number) => `${name} ${dialect === 'mysql' ? 'tinyint(2)' : 'INTEGER'} NOT NULL default '${def}'`;
  const date = (name: string) => `${name} ${dialect === 'mysql' ? 'datetime' : 'TEXT'} NOT NULL default '0000-00-00 00:00:00'`;
  const tail = dialect === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci' : '';
  await knex.raw(`CREATE TABLE ${prefix}blogs (${id('blog_id')}, site_id bigint NOT NULL default '0', ${text('domain', 200)},
    ${text('path', 100)}, ${date('registered')}, ${date('last_updated')}, ${flag('public', 1)}, ${flag('archived', 0)},
    ${flag('mature', 0)}, ${flag('spam', 0)}, ${flag('deleted', 0)}, lang_id int NOT NULL default '0'${key('blog_id')})${tail}`);
  await knex.raw(`CREATE TABLE ${prefix}site (${id('id')}, ${text('domain', 200)}, ${text('path', 100)}${key('id')})${tail}`);
  await knex.raw(`CREATE TABLE ${prefix}sitemeta (${id('meta_id')}, site_id bigint NOT NULL default '0',
    meta_key varchar(255) default NULL, meta_value longtext${key('meta_id')})${tail}`);
}

export async function insertNetwork(knex: Knex, prefix: string, network: NetworkRow): Promise<void> {
  await knex(`${prefix}site`).insert({ id: network.id, domain: network.domain, path: network.path });
  const siteUrl = network.siteUrl ?? `http://${network.domain}${network.path}`;
  await knex(`${prefix}sitemeta`).insert([
    { site_id: network.id, meta_key: 'siteurl', meta_value: siteUrl },
    { site_id: network.id, meta_key: 'subdomain_install', meta_value: '0' },
    { site_id: network.id, meta_key: 'main_site', meta_value: String(network.mainSiteId ?? 1) },
  ]);
}

export async function insertBlog(knex: Knex, prefix: string, blog: BlogRow): Promise<void> {
  await knex(`${prefix}blogs`).insert({
    blog_id: blog.blogId, site_id: blog.networkId ?? 1, domain: blog.domain, path: blog.path,
    archived: blog.archived ? 1 : 0, spam: blog.spam ? 1 : 0, deleted: blog.deleted ?? 0,
  });
}
