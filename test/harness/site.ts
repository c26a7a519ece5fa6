/**
 * The general test site: the oracle (real WordPress data, agents who sign in) or a fresh scratch
 * site, each with its own temporary data and uploads folders, optionally sending mail to a real SMTP
 * capture, and a clock the test moves by hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Express } from 'express';
import { createApp } from '../../lib/app';
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { SETTINGS_OPTION } from '../../lib/support/settings';
import { Clock, fixedClock } from '../../lib/wp/clock';
import { SiteConfig } from '../../lib/wp/config';
import { Site } from '../../lib/wp/site';
import { ScratchDatabase, scratchDatabase } from './db';
import { Listening, listen } from './http';
import { ORACLE_SALTS, credentials, loadOracleInto } from './oracle';

export interface TestSite {
  site: Site;
  app: Express;
  clock: ReturnType<typeof fixedClock>;
  config: SiteConfig;
  scratch: ScratchDatabase;
  /** Another Site over the same database (a second server process), with its own clock and configuration changes. */
  openAnother(options?: { clock?: Clock; config?: Partial<SiteConfig> }): Promise<Site>;
  close(): Promise<void>;
}

export interface TestSiteOptions {
  /** Load the oracle's WordPress data (tickets, agents with application passwords); else a fresh site. */
  oracle?: boolean;
  smtpUrl?: string;
}

export async function openTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  const scratch = await scratchDatabase();
  if (options.oracle) await loadOracleInto(scratch);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-outbound-'));
  const config: SiteConfig = {
    source: 'env', description: 'outbound test site', db: scratch.target, tablePrefix: 'wp_', multisite: false, blogId: 1,
    salts: ORACLE_SALTS, environmentType: 'local', dataDir, uploadsDir: path.join(dataDir, 'uploads'), seedDemo: false, smtpUrl: options.smtpUrl,
  };
  // The oracle's application passwords verify at the moment they were issued.
  const clock = fixedClock(options.oracle ? credentials.generated_at * 1000 : Date.UTC(2026, 10, 22, 12, 0, 0));
  const { site } = await openSite(config, { logger: memoryLogger(), clock, siteUrl: 'http://127.0.0.1:8081' });
  const others: Site[] = [];
  return {
    site, app: createApp(site), clock, config, scratch,
    async openAnother({ clock: otherClock = clock, config: changes = {} } = {}) {
      const other = (await openSite({ ...config, ...changes }, { logger: memoryLogger(), clock: otherClock })).site;
      others.push(other);
      return other;
    },
    async close() {
      for (const other of others) await other.db.close();
      await site.close();
      await scratch.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Writes the support desk's settings (svc_settings) as the option store would. */
export async function setSupportSettings(site: Site, settings: Record<string, unknown>): Promise<void> {
  await site.options.update(SETTINGS_OPTION, settings);
}

/**
 * Team alerts on, for both events: a ticket or a customer's reply queues its alert only when one
 * would be sent (a URL set). Nothing is sent unless a job worker runs.
 */
export function turnTeamAlertsOn(site: Site): Promise<void> {
  return setSupportSettings(site, { alerts_url: 'https://alerts.example.test/hook', alerts_customer_replied: true });
}

/** The job rows of a kind, oldest first. */
export function jobsOf(site: Site, kind: string) {
  return site.db.knex(site.db.tables.plugin('svc', 'jobs')).where({ kind }).orderBy('id');
}

/**
 * The test site served on a loopback port that is also its address (`siteurl`, `home`), so the REST
 * root and links its pages and scripts are given point at this server (the browser tests).
 */
export async function listenAsSite(t: TestSite): Promise<Listening> {
  const served = await listen(t.app);
  await t.site.options.update('siteurl', served.url);
  await t.site.options.update('home', served.url);
  return served;
}
