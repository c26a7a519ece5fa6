/**
 * WP: application passwords over HTTP Basic (wp_authenticate_application_password). Only REST
 * requests use them; a wrong password or unknown user leaves the request anonymous, as stock
 * WordPress does. Checking a stored hash costs a phpass or BLAKE2b round, so a successful check is
 * remembered, keyed by the stored hash: revoking or changing the password changes the key.
 */
import { createHash } from 'node:crypto';
import { Clock, unixSeconds } from '../clock';
import { EnvironmentType } from '../config';
import { OptionStore } from '../options';
import { checkApplicationPassword, normalizeApplicationPassword } from '../passwords';
import { UserStore, WpUser, userMeta } from '../users';

const DAY_SECONDS = 86400;
const VERIFIED_CACHE_SIZE = 10_000;

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

export class ApplicationPasswords {
  private readonly verified = new Map<string, true>();

  constructor(
    private readonly users: UserStore,
    private readonly options: OptionStore,
    private readonly clock: Clock,
    private readonly environmentType: EnvironmentType,
  ) {}

  /** The user the Basic credentials sign in, or null (anonymous) for anything WordPress would not accept. */
  async authenticate(credentials: BasicCredentials | null, request: { secure: boolean; ip: string }): Promise<WpUser | null> {
    if (!credentials || !credentials.username || !credentials.password) return null;
    if (!(await this.available(request.secure))) return null;
    const user = await this.findUser(credentials.username);
    if (!user) return null;
    const password = normalizeApplicationPassword(credentials.password);
    for (const item of storedPasswords(user)) {
      if (await this.matches(user, item, password)) {
        await this.recordUsage(user, item.uuid, request.ip);
        return user;
      }
    }
    return null;
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

  private async matches(user: WpUser, item: StoredAppPassword, password: string): Promise<boolean> {
    const key = createHash('sha256').update(`${user.ID}\0${item.uuid}\0${item.password}\0${password}`).digest('hex');
    if (this.verified.has(key)) return true;
    if (!(await checkApplicationPassword(password, item.password))) return false;
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
    this.verified.set(key, true);
    return true;
  }

  /** WP: record_application_password_usage(): at most once a day per address. */
  private async recordUsage(user: WpUser, uuid: string, ip: string): Promise<void> {
    const now = unixSeconds(this.clock);
    const items = storedPasswords(user);
    const item = items.find((i) => i.uuid === uuid);
    if (!item) return;
    if (Number(item.last_used ?? 0) + DAY_SECONDS > now && item.last_ip === ip) return;
    item.last_used = now;
    item.last_ip = ip;
    await this.users.updateMeta(user.ID, '_application_passwords', items);
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
