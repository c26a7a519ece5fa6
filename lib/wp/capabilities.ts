/**
 * WP: roles and capabilities as WP_Roles, WP_User::get_role_caps() and has_cap() resolve them.
 * Roles come from the `{blog_prefix}user_roles` option; a user's roles and direct capabilities from
 * their `{blog_prefix}capabilities` usermeta. Both are read through cached stores, so checking many
 * capabilities costs no queries. On a network, super admins are the `site_admins` of the site's own
 * network (the option store reads that network's options).
 */
import { Database } from './db/database';
import { OptionStore } from './options';
import { PhpValue, toPlain } from './php';
import { WpUser, userMeta } from './users';

export interface RoleDefinition {
  name: string;
  capabilities: Record<string, boolean>;
}

/** What a user may do on this site. */
export interface UserCapabilities {
  roles: string[];
  allcaps: Record<string, boolean>;
  isSuperAdmin: boolean;
  can(capability: string): boolean;
}

export const NO_CAPABILITIES: UserCapabilities = { roles: [], allcaps: {}, isSuperAdmin: false, can: () => false };

export class CapabilityResolver {
  private rolesFrom: unknown;
  private rolesMemo: Record<string, RoleDefinition> = {};
  private readonly resolved = new WeakMap<WpUser, { roles: Record<string, RoleDefinition>; siteAdmins: unknown; caps: UserCapabilities }>();

  constructor(private readonly db: Database, private readonly options: OptionStore, private readonly multisite: boolean) {}

  /** WP: wp_roles()->roles. */
  async roles(): Promise<Record<string, RoleDefinition>> {
    const stored = await this.options.getPlain(this.db.tables.userRolesOption, {});
    // The option store hands out one decoded object per load of the row: build the map once per load.
    if (stored !== this.rolesFrom) {
      this.rolesMemo = buildRoles(stored);
      this.rolesFrom = stored;
    }
    return this.rolesMemo;
  }

  /** WP: WP_User::get_role_caps() then has_cap(): role caps merged in order, the user's own keys on top. */
  async forUser(user: WpUser): Promise<UserCapabilities> {
    const roles = await this.roles();
    const siteAdmins = this.multisite ? await this.options.getSiteOption('site_admins') : undefined;
    // Worked out again only when the user, the roles or the network's super admins were read again
    // (each within its store's freshness bound): every signed-in request asks.
    const kept = this.resolved.get(user);
    if (kept?.roles === roles && kept.siteAdmins === siteAdmins) return kept.caps;
    const own = booleanMap(userMeta(user, this.db.tables.capabilitiesKey));
    // WordPress counts every key that names a role as that role, whatever its value.
    const userRoles = Object.keys(own).filter((key) => roles[key] !== undefined);
    const allcaps: Record<string, boolean> = {};
    for (const role of userRoles) Object.assign(allcaps, roles[role]?.capabilities);
    Object.assign(allcaps, own);
    const isSuperAdmin = this.isSuperAdmin(user, allcaps, siteAdmins);
    const caps: UserCapabilities = {
      roles: userRoles,
      allcaps,
      isSuperAdmin,
      can: (capability) => hasCap(capability, allcaps, this.multisite ? { superAdmin: isSuperAdmin } : null),
    };
    this.resolved.set(user, { roles, siteAdmins, caps });
    return caps;
  }

  /**
   * WP: is_super_admin(): on a network, the login is in the network's `site_admins` (`['admin']` when
   * the option is missing, nobody when it is not an array), compared exactly; `delete_users` otherwise.
   */
  private isSuperAdmin(user: WpUser, allcaps: Record<string, boolean>, siteAdmins: unknown): boolean {
    if (!this.multisite) return allcaps.delete_users === true;
    if (siteAdmins === undefined) return user.user_login === 'admin';
    const admins = toPlain(siteAdmins as PhpValue);
    const list = Array.isArray(admins) ? admins : admins && typeof admins === 'object' ? Object.values(admins) : [];
    return list.some((login) => login === user.user_login);
  }
}

function buildRoles(raw: unknown): Record<string, RoleDefinition> {
  const roles: Record<string, RoleDefinition> = {};
  if (!raw || typeof raw !== 'object') return roles;
  for (const [slug, def] of Object.entries(raw as Record<string, any>)) {
    roles[slug] = { name: String(def?.name ?? slug), capabilities: booleanMap(def?.capabilities) };
  }
  return roles;
}

/**
 * WP: map_meta_cap() turns these into `do_not_allow` on a network for anyone but a super admin,
 * whatever their role grants: unfiltered HTML and CSS, the file editors, installing and updating
 * code, deleting users.
 */
const SUPER_ADMIN_ONLY_ON_A_NETWORK = new Set([
  'unfiltered_html', 'edit_css', 'edit_files', 'edit_plugins', 'edit_themes', 'update_plugins', 'delete_plugins', 'install_plugins',
  'upload_plugins', 'update_themes', 'delete_themes', 'install_themes', 'upload_themes', 'update_core', 'install_languages',
  'update_languages', 'delete_user', 'delete_users', 'update_php', 'update_https',
]);

/**
 * WP: has_cap() for a primitive capability. `network`: null on a single site; on a network a super
 * admin passes everything but `do_not_allow`, and nobody else passes what only super admins may do there.
 */
function hasCap(capability: string, allcaps: Record<string, boolean>, network: { superAdmin: boolean } | null): boolean {
  if (capability === 'do_not_allow') return false;
  if (capability === 'exist' || network?.superAdmin) return true;
  if (network && SUPER_ADMIN_ONLY_ON_A_NETWORK.has(capability)) return false;
  return allcaps[capability] === true;
}

/** A PHP `{cap: bool}` array as booleans (PHP stores `b:1;`, but plugins also write 1 or "1"). */
function booleanMap(value: unknown): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  if (!value || typeof value !== 'object') return out;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[key] = Boolean(v) && v !== '0';
  return out;
}
