/**
 * WP: application passwords over HTTP Basic (wp_authenticate_application_password). Only REST
 * requests use them; a wrong password or unknown user leaves the request anonymous, as stock
 * WordPress does. Checking a stored hash costs a phpass or BLAKE2b round, and a user with several
 * application passwords has each checked in turn, so every outcome is remembered, the failed ones
 * as well (a request with the third password would otherwise pay for the first two every time):
 * keyed by the stored hash and an HMAC of the password tried (under a key of this process, never the
 * password itself), so revoking or changing a password changes the key and no remembered answer
 * outlives it. A remembered answer is the one the hash gave, so remembering it tells nobody more.
 * Successes and failures are remembered apart, each up to its own bound, so that a stream of wrong
 * guesses pushes out only other wrong guesses, never a real client's remembered sign-in.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Clock, unixSeconds } from '../clock';
import { EnvironmentType } from '../config';
import { OptionStore } from '../options';
import { checkApplicationPassword, normalizeApplicationPassword } from '../passwords';
import { UserStore, WpUser, userMeta } from '../users';

const DAY_SECONDS = 86400;
/** Outcomes remembered of each kind (matched, refused); the least recently used goes first. */
export const REMEMBERED_CHECKS = 10_000;

interface StoredAppPassword {
  uuid: string;
  password: string;
  last_used?: number | null;
  last_ip?: string | null;
  [key: string]: unknown;
}

export interface BasicCredentials {
  username: string;
  password: string;
}

/** WP: wp_populate_basic_auth_from_authorization_header(): `Basic <base64>`, split at the first colon. */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  const match = header ? /^Basic ([A-Za-z0-9/+]*={0,2})$/.exec(header) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Checks a (normalized) password against a stored hash: WordPress's algorithms. */
export type AppPasswordCheck = (password: string, storedHash: string) => Promise<boolean>;

export class ApplicationPasswords {
  private readonly matched = new RecentKeys(REMEMBERED_CHECKS);
  private readonly refused = new RecentKeys(REMEMBERED_CHECKS);
  private readonly cacheKey = randomBytes(32);
  private readonly stored = new WeakMap<WpUser, readonly StoredAppPassword[]>();

  constructor(
    private readonly users: UserStore,
    private readonly options: OptionStore,
    private readonly clock: Clock,
    private readonly environmentType: EnvironmentType,
    private readonly check: AppPasswordCheck = checkApplicationPassword,
  ) {}

  /** The user the Basic credentials sign in, or null (anonymous) for anything WordPress would not accept. */
  async authenticate(credentials: BasicCredentials | null, request: { secure: boolean; ip: string }): Promise<WpUser | null> {
    if (!credentials || !credentials.username || !credentials.password) return null;
    if (!(await this.available(request.secure))) return null;
    const user = await this.findUser(credentials.username);
    if (!user) return null;
    const password = normalizeApplicationPassword(credentials.password);
    const items = this.storedOf(user);
    const item = this.rememberedMatch(user, items, password) ?? (await this.firstMatch(user, items, password));
    if (!item) return null;
    await this.recordUsage(user, item, request.ip);
    return user;
  }

  /**
   * The user's application passwords, read from their meta once per user object: the user store
   * reads a user again within its freshness bound, so a revoked or changed password is seen as soon
   * as it would be without this.
   */
  private storedOf(user: WpUser): readonly StoredAppPassword[] {
    let items = this.stored.get(user);
    if (!items) {
      items = storedPasswords(user);
      this.stored.set(user, items);
    }
    return items;
  }

  /** WP: wp_is_application_passwords_available() (HTTPS or a local environment) and ::is_in_use(). */
  private async available(secure: boolean): Promise<boolean> {
    if (!secure && this.environmentType !== 'local') return false;
    const inUse = await this.options.getSiteOption('using_application_passwords');
    return Boolean(inUse) && inUse !== '0';
  }

  private async findUser(username: string): Promise<WpUser | null> {
    const byLogin = await this.users.byLogin(username);
    if (byLogin) return byLogin;
    return username.includes('@') ? this.users.byEmail(username) : null;
  }

  /**
   * A stored password this one is remembered to match, looked for before any other is checked: the
   * failures on the earlier passwords may have been pushed out by guesses, the success not.
   */
  private rememberedMatch(user: WpUser, items: readonly StoredAppPassword[], password: string): StoredAppPassword | undefined {
    return items.find((item) => this.matched.touch(this.keyOf(user, item, password)));
  }

  /** WP: each stored password checked in turn, the first that matches wins. */
  private async firstMatch(user: WpUser, items: readonly StoredAppPassword[], password: string): Promise<StoredAppPassword | undefined> {
    for (const item of items) {
      const key = this.keyOf(user, item, password);
      if (this.refused.touch(key)) continue;
      const matched = await this.check(password, item.password);
      (matched ? this.matched : this.refused).add(key);
      if (matched) return item;
    }
    return undefined;
  }

  private keyOf(user: WpUser, item: StoredAppPassword, password: string): string {
    return createHmac('sha256', this.cacheKey).update(`${user.ID}\0${item.uuid}\0${item.password}\0${password}`).digest('base64');
  }

  /** WP: record_application_password_usage(): at most once a day per address. */
  private async recordUsage(user: WpUser, used: StoredAppPassword, ip: string): Promise<void> {
    const now = unixSeconds(this.clock);
    if (Number(used.last_used ?? 0) + DAY_SECONDS > now && used.last_ip === ip) return;
    const items = storedPasswords(user);
    const item = items.find((i) => i.uuid === used.uuid);
    if (!item) return;
    item.last_used = now;
    item.last_ip = ip;
    await this.users.updateMeta(user.ID, '_application_passwords', items);
  }
}

/** A bounded set of keys that forgets the least recently used first. */
class RecentKeys {
  // Sets iterate in insertion order: the first key is the least recently used.
  private readonly keys = new Set<string>();

  constructor(private readonly bound: number) {}

  /** Whether the key is held; if so it moves to the back of the line, the last to go. */
  touch(key: string): boolean {
    if (!this.keys.delete(key)) return false;
    this.keys.add(key);
    return true;
  }

  add(key: string): void {
    if (this.keys.size >= this.bound) this.keys.delete(this.keys.values().next().value as string);
    this.keys.add(key);
  }
}

/** The user's application passwords, as a fresh list the caller may change. */
function storedPasswords(user: WpUser): StoredAppPassword[] {
  const value = userMeta(user, '_application_passwords');
  const list: unknown[] = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return list
    .filter((item): item is StoredAppPassword => Boolean(item) && typeof (item as StoredAppPassword).password === 'string')
    .map((item) => ({ ...item }));
}
