/**
 * WP: ms_site_check(), run by wp-settings.php for every request on a network once WordPress is
 * loaded and the user determined (WP::init()), before any REST or admin-ajax work: a deleted, not yet
 * activated, archived or spammed site answers through wp_die(), unless the caller is a super admin.
 *
 * The user it sees is the one determine_current_user found at that point: the auth cookie, then the
 * logged-in cookie, with no nonce checked; application passwords count only once the request is
 * known to be REST (REST_REQUEST, defined later, when the REST server clears the anonymous user and
 * asks again). So a super admin passes a blocked site only when signed in by cookie.
 *
 * wp_die() answers HTML, or JSON when the request asks for JSON (wp_is_json_request()), or admin-ajax's
 * plain text, whose status defaults to 200 where the others default to 500.
 */
import { NetworkSite } from './network';

export type SiteState = 'live' | 'deleted' | 'inactive' | 'suspended';

/** What a blocked site answers: the status wp_die() is given (null: its default) and its message. */
export interface SiteRefusal {
  state: Exclude<SiteState, 'live'>;
  /** 410, or null for wp_die()'s default (500; 200 through admin-ajax.php). */
  status: 410 | null;
  /** The message as WordPress words it (HTML). */
  message: string;
}

/** WP: the order ms_site_check() tests the flags in: deleted, then not activated, then archived or spam. */
export function siteState(site: Pick<NetworkSite, 'deleted' | 'archived' | 'spam'>): SiteState {
  if (site.deleted === 1) return 'deleted';
  if (site.deleted === 2) return 'inactive';
  if (site.archived || site.spam) return 'suspended';
  return 'live';
}

export interface SiteCheckCaller {
  /** is_super_admin() of the user signed in by cookie (auth or logged-in; no nonce needed), false for anyone else. */
  superAdminByCookie: boolean;
}

/**
 * WP: ms_site_check() without its drop-ins (blog-deleted.php, blog-inactive.php, blog-suspended.php in
 * wp-content, which PHP would show instead) and without the `ms_site_check` filter: null lets the
 * request through. `adminEmail`: the network's `admin_email` option, named in the inactive message.
 */
export function siteCheck(site: NetworkSite, caller: SiteCheckCaller, adminEmail?: string, networkDomain?: string): SiteRefusal | null {
  if (caller.superAdminByCookie) return null;
  const state = siteState(site);
  if (state === 'deleted') return { state, status: 410, message: 'This site is no longer available.' };
  if (state === 'inactive') {
    const email = (adminEmail ?? `support@${networkDomain ?? site.domain}`).replace(/@/g, ' AT ');
    return {
      state, status: null,
      message: `This site has not been activated yet. If you are having problems activating your site, please contact <a href="mailto:${email}">${email}</a>.`,
    };
  }
  if (state === 'suspended') return { state, status: 410, message: 'This site has been archived or suspended.' };
  return null;
}
