/**
 * WP: how a network is installed, from the constants of its wp-config.php (read without running PHP,
 * lib/wp/wp-config): is_subdomain_install(), the DOMAIN_CURRENT_SITE family that
 * ms_load_current_site_and_network() trusts before the tables, and NOBLOGREDIRECT.
 */
import { WpConfigFile, phpToString, phpTruthy } from '../wp-config';
import { NetworkInstall } from './lookup';

/** The constants this reads; a value PHP computes at run time (from `$_SERVER`, say) cannot be known here. */
const READ = ['SUBDOMAIN_INSTALL', 'VHOST', 'DOMAIN_CURRENT_SITE', 'PATH_CURRENT_SITE', 'SITE_ID_CURRENT_SITE',
  'BLOG_ID_CURRENT_SITE', 'BLOGID_CURRENT_SITE', 'NOBLOGREDIRECT'];

export function networkInstallOf(config: Pick<WpConfigFile, 'constants' | 'dynamic' | 'file'>): NetworkInstall {
  const dynamic = READ.filter((name) => config.dynamic?.[name] !== undefined);
  if (dynamic.length) {
    throw new Error(`${config.file}: ${dynamic.map((name) => `${name} (${config.dynamic?.[name]})`).join(', ')} computed when PHP runs: `
      + 'define the network\'s constants as plain values to serve the network');
  }
  const defined = (name: string) => Object.prototype.hasOwnProperty.call(config.constants, name);
  const value = (name: string) => config.constants[name] ?? null;
  const install: NetworkInstall = {
    // WP: SUBDOMAIN_INSTALL when defined, else the older VHOST set to 'yes'.
    subdomainInstall: defined('SUBDOMAIN_INSTALL') ? phpTruthy(value('SUBDOMAIN_INSTALL')) : value('VHOST') === 'yes',
  };
  if (defined('DOMAIN_CURRENT_SITE') && defined('PATH_CURRENT_SITE')) {
    const mainSite = defined('BLOG_ID_CURRENT_SITE') ? value('BLOG_ID_CURRENT_SITE') : defined('BLOGID_CURRENT_SITE') ? value('BLOGID_CURRENT_SITE') : null;
    install.current = {
      domain: phpToString(value('DOMAIN_CURRENT_SITE')), path: phpToString(value('PATH_CURRENT_SITE')),
      networkId: defined('SITE_ID_CURRENT_SITE') ? Number(value('SITE_ID_CURRENT_SITE')) : 1,
      ...(mainSite !== null ? { mainSiteId: Number(mainSite) } : {}),
    };
  }
  if (defined('NOBLOGREDIRECT')) install.noBlogRedirect = phpToString(value('NOBLOGREDIRECT'));
  return install;
}
