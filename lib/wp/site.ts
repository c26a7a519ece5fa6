/**
 * One WordPress site as Understudy sees it: its configuration, database and the cached stores over
 * it. Everything that answers a request reaches WordPress state through this object.
 */
import { join } from 'node:path';
import { Logger } from '../logger';
import { Mailer, createMailer } from '../mail/mailer';
import { ApplicationPasswords } from './auth/app-passwords';
import { definedCookieNames, singleSiteUrl } from './auth/cookie-constants';
import { CookieNames } from './auth/cookies';
import { Authenticator } from './auth/current-user';
import { CapabilityResolver } from './capabilities';
import { ChangeFeed } from './change-feed';
import { Clock } from './clock';
import { SiteConfig } from './config';
import { Database } from './db/database';
import { BlogNetwork } from './multisite/networks';
import { MultisiteStore } from './multisite/store';
import { ObjectCacheStatus } from './object-cache/status';
import { OptionStore } from './options';
import { RateLimiter } from './rate-limit';
import { Salts } from './salts';
import { UserStore } from './users';

export interface Site {
  config: SiteConfig;
  db: Database;
  clock: Clock;
  logger: Logger;
  /** What each committed write changed in WordPress's tables, told to whatever caches those rows (./change-feed.ts). */
  changes: ChangeFeed;
  options: OptionStore;
  users: UserStore;
  capabilities: CapabilityResolver;
  salts: Salts;
  auth: Authenticator;
  rateLimiter: RateLimiter;
  /** WP: wp_mail(): SMTP when configured, else `.eml` files in <dataDir>/outbox. */
  mailer: Mailer;
  /** The persistent object cache PHP reads through, and whether writes may go on beside it. */
  objectCache: ObjectCacheStatus;
  /** WP: site_url(), untrailingslashed. */
  siteUrl(): Promise<string>;
  /** WP: home_url(), untrailingslashed. */
  homeUrl(): Promise<string>;
  /** WP: get_rest_url() for a path such as `/support/v1/tickets`. */
  restUrl(path?: string): Promise<string>;
  /** WP: the charset answers are declared in (`blog_charset`). */
  charset(): Promise<string>;
  cookieNames(): Promise<CookieNames>;
  /** Lets go of what the site holds open: batched rate-limit counts (written first), the object cache's connections, then the database. */
  close(): Promise<void>;
}

export function createSite(config: SiteConfig, db: Database, clock: Clock, logger: Logger): Site {
  const changes = new ChangeFeed(logger);
  const network = config.multisite ? new BlogNetwork(new MultisiteStore(db), config.blogId) : undefined;
  const options = new OptionStore(db, network && (() => network.id()), changes);
  const users = new UserStore(db, changes);
  const capabilities = new CapabilityResolver(db, options, config.multisite);
  const salts = new Salts(config.salts, options);
  const appPasswords = new ApplicationPasswords(users, options, clock, config.environmentType);
  const siteUrl = async () => untrailingslash(String(await options.get('siteurl', '')));
  const homeUrl = async () => untrailingslash(String(await options.get('home', '')));
  const names = cookieNamesOf(config, network, siteUrl);
  const site: Site = {
    config, db, clock, logger, changes, options, users, capabilities, salts,
    auth: new Authenticator({ users, capabilities, salts, clock, appPasswords, cookieNames: names }),
    rateLimiter: new RateLimiter(db, clock, logger),
    mailer: createMailer({
      smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), logger, defaultFrom: async () => defaultSender(await homeUrl()),
    }),
    objectCache: new ObjectCacheStatus(config.objectCache),
    siteUrl,
    homeUrl,
    async restUrl(path = '/') {
      const home = await homeUrl();
      const pretty = Boolean(await options.get('permalink_structure', ''));
      return pretty ? `${home}/wp-json${path}` : `${home}/index.php?rest_route=${path}`;
    },
    async charset() {
      return String((await options.get('blog_charset', '')) || 'UTF-8');
    },
    cookieNames: names,
    async close() {
      await site.rateLimiter.close();
      await site.objectCache.close();
      await db.close();
    },
  };
  return site;
}

/**
 * The site's cookie names, wp-config.php's own when it defines them. A network's come from its own
 * siteurl (wp_cookie_constants() reads get_site_option()), the same on every site; a single site's
 * from WP_SITEURL or its siteurl, untrailingslashed.
 */
function cookieNamesOf(config: SiteConfig, network: BlogNetwork | undefined, siteUrl: () => Promise<string>): () => Promise<CookieNames> {
  // Every request asks: the names (an MD5 of the address) are worked out again only when the address changes.
  let last: { url: string | null; names: CookieNames } | null = null;
  const namesFor = (url: string | null): CookieNames => {
    if (last?.url !== url) last = { url, names: definedCookieNames(url, config.cookieConstants) };
    return last.names;
  };
  if (!network) return async () => namesFor(singleSiteUrl(config.siteUrlConstant, await siteUrl()));
  return async () => namesFor((await network.get())?.siteUrl ?? null);
}

/** WP: wp_mail()'s default sender, `WordPress <wordpress@<site host without www.>>`. */
function defaultSender(home: string): string {
  let host = 'localhost';
  try {
    host = new URL(home).hostname.replace(/^www\./, '') || host;
  } catch {
    // An unparsable home address keeps the fallback host.
  }
  return `WordPress <wordpress@${host}>`;
}

function untrailingslash(url: string): string {
  return url.replace(/[/\\]+$/, '');
}
