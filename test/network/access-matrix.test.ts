/**
 * The access matrix of a network served by one process (access-matrix.ts), on a subdirectory network
 * (`/`, `/two/`, `/three/`, a site mapped to its own domain, an archived site at `/five/`) and on a
 * subdomain network (`two.example.test`, `three.example.test`, …): every route, every caller, every
 * site. What one site holds is never seen, named or changed from another.
 */
import assert from 'node:assert/strict';
import { StartedServe, startServe } from '../deploy/serve-harness';
import { TestNetwork, buildNetwork, requestAt } from '../harness/network';
import { arrangeFixtures } from './access-fixtures';
import { CALLERS, Caller, MEMBERS, MatrixRun, ROWS, SUPER_ADMINS, SiteAddress, cellsThatDiffer } from './access-matrix';

const DOMAIN = 'example.test';

interface Install {
  name: string;
  subdomain: boolean;
  addresses: SiteAddress;
}

const INSTALLS: Install[] = [
  {
    name: 'a subdirectory network',
    subdomain: false,
    addresses: {
      main: { host: DOMAIN, path: '' }, two: { host: DOMAIN, path: '/two' }, three: { host: DOMAIN, path: '/three' },
      mapped: { host: 'mapped.test', path: '' }, archived: { host: DOMAIN, path: '/five' },
    },
  },
  {
    name: 'a subdomain network',
    subdomain: true,
    addresses: {
      main: { host: DOMAIN, path: '' }, two: { host: `two.${DOMAIN}`, path: '' }, three: { host: `three.${DOMAIN}`, path: '' },
      mapped: { host: 'mapped.test', path: '' }, archived: { host: `five.${DOMAIN}`, path: '' },
    },
  },
];

for (const install of INSTALLS) {
  describe(`access on ${install.name} served by one process`, function () {
    this.timeout(120_000);
    let net: TestNetwork;
    let server: StartedServe;
    let run: MatrixRun;

    before(async () => {
      const blog = (blogId: number, site: keyof SiteAddress, archived = false) => ({
        blogId, domain: install.addresses[site].host, path: `${install.addresses[site].path}/`, archived,
      });
      net = await buildNetwork({
        domain: DOMAIN,
        install: { subdomainInstall: install.subdomain, current: { domain: DOMAIN, path: '/', networkId: 1 } },
        blogs: [blog(1, 'main'), blog(2, 'two'), blog(3, 'three'), blog(4, 'mapped'), blog(5, 'archived', true)],
        users: MEMBERS,
        superAdmins: SUPER_ADMINS,
      });
      const fixtures = await arrangeFixtures(net);
      server = await startServe(['serve', '--port=0'], net.serveEnv());
      const signedIn = {} as MatrixRun['signedIn'];
      for (const caller of CALLERS) signedIn[caller as Caller] = caller === 'anonymous' ? null : await net.signIn(caller);
      run = { url: server.url, addresses: install.addresses, fixtures, signedIn };
    });

    after(async () => {
      await server?.stop();
      await net?.close();
    });

    it('lets the super admin through an archived site by cookie only: by application password it is 410 there, 200 elsewhere', async () => {
      const me = async (site: keyof SiteAddress) => (await requestAt(server.url, install.addresses[site].host, {
        path: `${install.addresses[site].path}/wp-json/wp/v2/users/me`, headers: { authorization: net.basicAuth('boss'), accept: 'application/json' },
      })).status;
      assert.deepEqual([await me('two'), await me('archived')], [200, 410]);
    });

    for (const row of ROWS) {
      it(row.name, async () => {
        const differ = await cellsThatDiffer(run, row);
        if (differ.length) assert.fail(`${differ.length} cells differ from the rule:\n${differ.join('\n')}`);
      });
    }
  });
}
