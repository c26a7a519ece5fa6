/**
 * A visitor who leaves while their site is still being opened (its first request, a cold start)
 * does not keep the site open: once idle it is let go like any other, so a network's memory still
 * follows the sites in use. The site's opening is held at a gate so the visitor surely leaves first.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { buildSurface } from '../../lib/app';
import { OpenedNetwork, openNetwork } from '../../lib/boot';
import { ServedSite, createNetworkHandler } from '../../lib/network-app';
import { memoryLogger } from '../../lib/logger';
import { SitePool } from '../../lib/wp/multisite/site-pool';
import { eventually } from '../harness/eventually';
import { TestNetwork, buildNetwork } from '../harness/network';

const HOST = 'example.test';

describe('serve on a network: a visitor who leaves while the site opens', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let network: OpenedNetwork;
  let server: http.Server;
  let pool: SitePool<ServedSite>;
  const closed: number[] = [];
  let letOpen: () => void = () => undefined;
  let opening: Promise<void>;

  before(async () => {
    net = await buildNetwork({
      domain: HOST,
      install: { subdomainInstall: false, current: { domain: HOST, path: '/', networkId: 1 } },
      blogs: [{ blogId: 1, domain: HOST, path: '/' }, { blogId: 2, domain: HOST, path: '/two/' }],
      users: [],
      superAdmins: [],
    });
    network = openNetwork(net.config, {});
    const gate = new Promise<void>((resolve) => { letOpen = resolve; });
    let started: () => void = () => undefined;
    opening = new Promise((resolve) => { started = resolve; });
    pool = new SitePool<ServedSite>({
      idleMs: 1, maxOpen: 10,
      async open(blogId) {
        started();
        await gate;
        return { site: await net.site(blogId), app: (_req, res) => void res.end('ok'), visited: () => undefined };
      },
      async close(_opened, blogId) { closed.push(blogId); },
    });
    server = http.createServer(createNetworkHandler({ sites: network.sites, pool, rest: buildSurface().rest }, memoryLogger()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    await pool?.close();
    await new Promise((resolve) => server?.close(resolve));
    await network?.close();
    await net?.close();
  });

  it('lets the site go once idle', async () => {
    const { port } = server.address() as AddressInfo;
    const req = http.get({ host: '127.0.0.1', port, path: '/two/wp-json/', headers: { host: HOST } });
    req.on('error', () => undefined);
    await opening;
    req.destroy();
    // The server sees the connection close before the site has opened.
    await eventually(async () => (await new Promise<number>((resolve) => server.getConnections((_err, n) => resolve(n)))) === 0, 5_000);
    letOpen();
    await eventually(async () => closed.includes(2), 5_000);
  });
});
