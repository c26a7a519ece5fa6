/**
 * The network suite's database (bench/network.ts): a subdirectory WordPress network on MariaDB with
 * `sites` sites (blog 1 at `/`, blog N at `/siteN/`), made as WordPress makes one (the network tables,
 * each site's own tables and options), each with a support desk of `tickets` tickets, and one agent
 * who works every site's desk and signs in with an application password. Made once and reused by later
 * runs with the same sizes (other sizes make it again).
 */
import { Knex } from 'knex';
import { OpenedNetwork, openNetwork, openSiteOfNetwork } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { seedTickets } from '../lib/support/seed/bulk-tickets';
import { installCoreTablesIfMissing } from '../lib/wp/db/migrate';
import { Tables } from '../lib/wp/db/tables';
import { installSite } from '../lib/wp/install';
import { serialize } from '../lib/wp/php';
import { Site } from '../lib/wp/site';
import { insertUser } from '../lib/wp/user-insert';
import { wpFastHash } from '../lib/wp/passwords';
import { AGENT_APP_PASSWORD, AGENT_LOGIN, SALTS, benchTarget, createBenchDatabase } from './fixture';

export const NETWORK_DOMAIN = 'network.bench.test';
const PREFIX = 'wp_';

/** The path of blog `blogId` on the network. */
export function sitePath(blogId: number): string {
  return blogId === 1 ? '/' : `/site${blogId}/`;
}

export function networkConfig(url: string): OpenedNetwork['config'] {
  return {
    source: 'env', description: 'benchmark network', db: benchTarget(url), tablePrefix: PREFIX, multisite: true, blogId: 1,
    network: { subdomainInstall: false, current: { domain: NETWORK_DOMAIN, path: '/', networkId: 1 } },
    salts: SALTS, environmentType: 'local', dataDir: '/tmp/understudy-bench-network', seedDemo: false,
  };
}

/** Makes the network unless a run with the same sizes made it; returns how long that took (0: reused). */
export async function prepareNetwork(url: string, sites: number, tickets: number, log: (line: string) => void): Promise<number> {
  await createBenchDatabase(benchTarget(url));
  const network = openNetwork(networkConfig(url), {});
  const made = await madeWith(network.db.knex).finally(() => network.close());
  if (made === `${sites}x${tickets}`) return 0;
  const started = Date.now();
  log(`making a network of ${sites} sites with ${tickets} tickets each (once; later runs reuse it)…`);
  await createBenchDatabase(benchTarget(url), { fresh: true });
  await buildNetwork(url, sites, tickets, log);
  return Date.now() - started;
}

/** The sizes the network was made with (a network option of the benchmark's own), or null. */
async function madeWith(knex: Knex): Promise<string | null> {
  try {
    const row = await knex(`${PREFIX}sitemeta`).where({ site_id: 1, meta_key: 'bench_network_sizes' }).first('meta_value');
    return (row as { meta_value: string } | undefined)?.meta_value ?? null;
  } catch {
    return null;
  }
}

async function buildNetwork(url: string, sites: number, tickets: number, log: (line: string) => void): Promise<void> {
  const network = openNetwork(networkConfig(url), {});
  try {
    const { knex } = network.db;
    await createNetworkTables(knex);
    await knex(`${PREFIX}site`).insert({ id: 1, domain: NETWORK_DOMAIN, path: '/' });
    await knex(`${PREFIX}sitemeta`).insert([
      { site_id: 1, meta_key: 'siteurl', meta_value: `http://${NETWORK_DOMAIN}/` },
      { site_id: 1, meta_key: 'subdomain_install', meta_value: '0' },
      { site_id: 1, meta_key: 'main_site', meta_value: '1' },
      { site_id: 1, meta_key: 'site_admins', meta_value: serialize(['admin']) },
      { site_id: 1, meta_key: 'using_application_passwords', meta_value: '1' },
    ]);
    let agent = 0;
    for (let blogId = 1; blogId <= sites; blogId++) {
      const site = await installBlog(network, blogId);
      try {
        if (blogId === 1) agent = await addPeople(site);
        else await site.users.updateMeta(agent, site.db.tables.capabilitiesKey, { support_agent: true });
        await seedTickets(site, { tickets, messagesPerTicket: 2, seed: blogId });
        if (blogId % 10 === 0) log(`  ${blogId} sites`);
      } finally {
        await site.close();
      }
    }
    await knex(`${PREFIX}sitemeta`).insert({ site_id: 1, meta_key: 'bench_network_sizes', meta_value: `${sites}x${tickets}` });
  } finally {
    await network.close();
  }
}

/** WP: wpmu_create_blog(): the blogs row, the site's tables and the options and roles of an install. */
async function installBlog(network: OpenedNetwork, blogId: number): Promise<Site> {
  await network.db.knex(`${PREFIX}blogs`).insert({
    blog_id: blogId, site_id: 1, domain: NETWORK_DOMAIN, path: sitePath(blogId), registered: '2026-01-01 00:00:00', last_updated: '2026-01-01 00:00:00',
  });
  await installCoreTablesIfMissing({ ...network.db, tables: new Tables({ prefix: PREFIX, blogId, multisite: true }) });
  const site = await openSiteOfNetwork(network, blogId, { logger: memoryLogger() });
  await installSite(site, { siteUrl: `http://${NETWORK_DOMAIN}${sitePath(blogId)}`.replace(/\/$/, ''), title: `Site ${blogId}`, adminEmail: 'admin@example.test' });
  return site;
}

/** The agent (with an application password) and some customers, users of the network; the agent's ID. */
async function addPeople(site: Site): Promise<number> {
  await insertUser(site, { login: 'admin', email: 'admin@example.test', role: 'administrator' }, 'bench-admin-password');
  const agent = await insertUser(site, { login: AGENT_LOGIN, email: 'bench-agent@example.test', role: 'support_agent' }, 'bench-agent-password');
  const passwords = [{ uuid: '6f1d3c2e-0000-4000-8000-000000000001', app_id: '', name: 'bench', password: wpFastHash(AGENT_APP_PASSWORD), created: 0, last_used: null, last_ip: null }];
  await site.users.updateMeta(agent, '_application_passwords', passwords);
  for (let i = 1; i <= 20; i++) await insertUser(site, { login: `customer${i}`, email: `customer${i}@example.test`, role: 'subscriber' }, 'bench-customer-password');
  return agent;
}

/** WordPress's network tables (wp_get_db_schema('global')'s `ms_global` part: blogs, site, sitemeta). */
async function createNetworkTables(knex: Knex): Promise<void> {
  const tail = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci';
  await knex.raw(`CREATE TABLE ${PREFIX}blogs (blog_id bigint(20) NOT NULL auto_increment, site_id bigint(20) NOT NULL default '0',
    domain varchar(200) NOT NULL default '', path varchar(100) NOT NULL default '', registered datetime NOT NULL default '0000-00-00 00:00:00',
    last_updated datetime NOT NULL default '0000-00-00 00:00:00', public tinyint(2) NOT NULL default '1', archived tinyint(2) NOT NULL default '0',
    mature tinyint(2) NOT NULL default '0', spam tinyint(2) NOT NULL default '0', deleted tinyint(2) NOT NULL default '0',
    lang_id int(11) NOT NULL default '0', PRIMARY KEY (blog_id), KEY domain (domain(50),path(5))) ${tail}`);
  await knex.raw(`CREATE TABLE ${PREFIX}site (id bigint(20) NOT NULL auto_increment, domain varchar(200) NOT NULL default '',
    path varchar(100) NOT NULL default '', PRIMARY KEY (id), KEY domain (domain(140),path(51))) ${tail}`);
  await knex.raw(`CREATE TABLE ${PREFIX}sitemeta (meta_id bigint(20) NOT NULL auto_increment, site_id bigint(20) NOT NULL default '0',
    meta_key varchar(255) default NULL, meta_value longtext, PRIMARY KEY (meta_id), KEY meta_key (meta_key(191)), KEY site_id (site_id)) ${tail}`);
}
