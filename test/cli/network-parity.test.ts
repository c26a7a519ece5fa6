/**
 * The network tools against real WordPress 6.1 (Debian's package, MariaDB only): a subdirectory
 * network built with WordPress's own install functions, its own wp-config.php as the configuration.
 * What `--url` writes is what PHP reads on that site and no other, and `network sites` lists the
 * sites PHP created, at the addresses PHP serves them.
 */
import assert from 'node:assert/strict';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { ORACLE_SALTS } from '../harness/oracle';
import { RunningNetwork, startWordPressNetwork, wordpressNetworkSkipReason } from '../harness/wordpress-network';
import { cli } from './cli-harness';

describe('the CLI on a real WordPress network', function () {
  this.timeout(240_000);
  let scratch: ScratchDatabase;
  let net: RunningNetwork;
  let env: Record<string, string>;

  /** The site's name as PHP serves it: the REST index's `name` (get_option('blogname') on that blog). */
  async function phpName(host: string, sitePath: string): Promise<string> {
    const res = await net.request(`${sitePath}?rest_route=/`, { headers: { host } });
    assert.equal(res.status, 200, res.body.slice(0, 300));
    return JSON.parse(res.body).name;
  }

  before(async function () {
    const skip = wordpressNetworkSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    scratch = await scratchDatabase();
    if (scratch.target.client !== 'mysql') throw new Error('unreachable: the skip reason covers SQLite');
    net = await startWordPressNetwork({
      db: scratch.target, salts: ORACLE_SALTS, users: [], domain: 'network.test',
      sites: [{ path: '/two/' }, { path: '/three/', archived: true }, { path: '/', domain: 'mapped.test' }],
    });
    env = { WP_CONFIG_PATH: net.configFile };
  });

  after(async () => {
    await net?.close();
    await scratch?.drop();
  });

  it('--url writes the option PHP reads on that site, and on no other', async () => {
    const before = await phpName('network.test', '/');
    const run = await cli(['--url=http://network.test/two/', 'option', 'update', 'blogname', 'Two, named by Understudy'], env);
    assert.deepEqual(run, { status: 0, stdout: "Success: Updated 'blogname' option.\n", stderr: '' });
    assert.equal(await phpName('network.test', '/two/'), 'Two, named by Understudy');
    assert.equal(await phpName('network.test', '/'), before);
    assert.equal(await phpName('mapped.test', '/'), (await cli(['option', 'get', 'blogname', '--url=mapped.test'], env)).stdout.trim());
  });

  it('network sites lists the sites PHP created, with the addresses --url takes', async () => {
    const run = await cli(['network', 'sites', '--format=json'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).map((s: Record<string, unknown>) => [s.blog_id, s.address, s.archived]), [
      [1, 'network.test/', 0], [2, 'network.test/two/', 0], [3, 'network.test/three/', 1], [4, 'mapped.test/', 0],
    ]);
    for (const [blogId, host, sitePath] of [[3, 'network.test', '/three/'], [4, 'mapped.test', '/']] as const) {
      assert.equal((await net.decision(host, sitePath)).blog_id, blogId);
      const mine = await cli(['option', 'get', 'siteurl', `--url=${host}${sitePath}`], env);
      assert.equal(mine.stdout, `http://${host}${sitePath.replace(/\/$/, '')}\n`, `${host}${sitePath}`);
    }
  });
});
