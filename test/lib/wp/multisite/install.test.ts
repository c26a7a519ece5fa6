/**
 * How a network is installed, read from wp-config.php as WordPress reads its constants:
 * SUBDOMAIN_INSTALL (else VHOST 'yes'), DOMAIN_CURRENT_SITE with PATH_CURRENT_SITE and their
 * companions, NOBLOGREDIRECT; a value PHP computes per request is refused by name.
 */
import assert from 'node:assert/strict';
import { networkInstallOf } from '../../../../lib/wp/multisite/install';
import { parseWpConfig } from '../../../../lib/wp/wp-config';

const install = (lines: string) => networkInstallOf(parseWpConfig(`<?php\ndefine( 'MULTISITE', true );\n${lines}\n`, '/srv/wp-config.php'));

describe('multisite: the install shape in wp-config.php', () => {
  it('reads the subdirectory network the setup screen has owners add', () => {
    assert.deepEqual(install(`define( 'SUBDOMAIN_INSTALL', false );
      define( 'DOMAIN_CURRENT_SITE', 'example.com' );
      define( 'PATH_CURRENT_SITE', '/' );
      define( 'SITE_ID_CURRENT_SITE', 1 );
      define( 'BLOG_ID_CURRENT_SITE', 1 );`),
    { subdomainInstall: false, current: { domain: 'example.com', path: '/', networkId: 1, mainSiteId: 1 } });
  });

  it('reads a subdomain install, from SUBDOMAIN_INSTALL or else the older VHOST', () => {
    assert.equal(install("define( 'SUBDOMAIN_INSTALL', true );").subdomainInstall, true);
    assert.equal(install("define( 'VHOST', 'yes' );").subdomainInstall, true);
    assert.equal(install("define( 'VHOST', 'no' );").subdomainInstall, false);
    assert.equal(install("define( 'SUBDOMAIN_INSTALL', false ); define( 'VHOST', 'yes' );").subdomainInstall, false);
  });

  it('takes the network from the constants only when both DOMAIN_CURRENT_SITE and PATH_CURRENT_SITE are defined', () => {
    assert.equal(install("define( 'DOMAIN_CURRENT_SITE', 'example.com' );").current, undefined);
    assert.deepEqual(install("define( 'DOMAIN_CURRENT_SITE', 'example.com' ); define( 'PATH_CURRENT_SITE', '/net/' ); define( 'BLOGID_CURRENT_SITE', '4' );").current,
      { domain: 'example.com', path: '/net/', networkId: 1, mainSiteId: 4 });
  });

  it('reads NOBLOGREDIRECT', () => {
    assert.equal(install("define( 'NOBLOGREDIRECT', 'https://example.com/gone/' );").noBlogRedirect, 'https://example.com/gone/');
    assert.equal(install('').noBlogRedirect, undefined);
  });

  it("refuses a network constant PHP computes from the request, naming it", () => {
    assert.throws(() => install("define( 'DOMAIN_CURRENT_SITE', $_SERVER['HTTP_HOST'] ); define( 'PATH_CURRENT_SITE', '/' );"),
      /\/srv\/wp-config\.php: DOMAIN_CURRENT_SITE \(\$_SERVER\['HTTP_HOST'\]\) computed when PHP runs/);
  });
});
