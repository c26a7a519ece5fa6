/**
 * Where admin/probe and sync may connect (docs/changelogs.md, "Where a source may be"; docs/security.md,
 * "Outgoing requests"): never to loopback in any of its spellings, private, link-local, multicast or
 * unspecified addresses, nor to a port other than 80, 443 and 8080, nor through a redirect to one of
 * them, unless OUTGOING_ALLOW names it; and the caller cannot tell an open port from a closed one or
 * from a refused address. Real servers on 127.0.0.1, 127.0.0.2 and 127.0.0.3, which count what reaches
 * them; the suite's OUTGOING_ALLOW lets public addresses use their ports (`*:<port>`), so a loopback
 * URL is refused for its address and not merely for its port.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { createProduct } from '../../../lib/support/changelogs/admin';
import { memoryLogger } from '../../../lib/logger';
import { parseOutgoingAllow } from '../../../lib/wp/http/outgoing-allow';
import { API, as } from '../../harness/support';
import { OracleSite, openOracle } from '../../harness/oracle';
import { assertRestError } from '../../harness/wp-http';

const readme = fs.readFileSync(path.join(__dirname, '../../fixtures/changelogs/readme.txt'), 'utf8');
const UNREACHABLE = 'The source could not be reached.';

interface Counted {
  port: number;
  /** Requests (or, for a raw TCP server, connections) that reached it. */
  hits: number;
  close(): Promise<void>;
}

async function serve(host: string, server: http.Server | net.Server, counted: { hits: number }, sockets = new Set<net.Socket>()): Promise<Counted> {
  server.on('connection', (socket: net.Socket) => sockets.add(socket.on('close', () => sockets.delete(socket))));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as net.AddressInfo).port;
  return Object.assign(counted, {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  });
}

/** An HTTP server that answers a readme.txt at every path, and `/to?u=<url>` with a redirect. */
function changelogServer(host: string): Promise<Counted> {
  const counted = { hits: 0 };
  return serve(host, http.createServer((req, res) => {
    counted.hits++;
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
    if (to) return void res.writeHead(302, { Location: to }).end();
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(readme);
  }), counted);
}

/** What a database port answers: a greeting in its own protocol as soon as one connects, no HTTP. */
function greetingServer(host: string): Promise<Counted> {
  const counted = { hits: 0 };
  return serve(host, net.createServer((socket) => {
    counted.hits++;
    socket.on('error', () => undefined);
    socket.write(Buffer.concat([Buffer.from([0x4a, 0, 0, 0, 0x0a]), Buffer.from('5.5.5-10.11.6-MariaDB\0', 'latin1')]));
  }), counted);
}

/** A port on `host` that nothing listens on. */
async function closedPort(host: string): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('changelog sources: where probe and sync may connect', function () {
  let oracle: OracleSite;
  let loopback: Counted; // 127.0.0.1: what must never be reached
  let database: Counted; // 127.0.0.1: a database's port
  let hop: Counted; // 127.0.0.2: allowed by OUTGOING_ALLOW, redirects anywhere
  let otherDatabase: Counted; // 127.0.0.2, allowed: an open port that speaks no HTTP
  let closed: number; // 127.0.0.2, allowed: nothing listens
  let webOnly: Counted; // 127.0.0.3, allowed on the web ports only

  before(async () => {
    loopback = await changelogServer('127.0.0.1');
    database = await greetingServer('127.0.0.1');
    hop = await changelogServer('127.0.0.2');
    otherDatabase = await greetingServer('127.0.0.2');
    closed = await closedPort('127.0.0.2');
    webOnly = await changelogServer('127.0.0.3');
    const allow = `*:${loopback.port}, *:${database.port}, 127.0.0.2:${hop.port}, 127.0.0.2:${otherDatabase.port}, 127.0.0.2:${closed}, 127.0.0.3`;
    oracle = await openOracle({ outgoingAllow: parseOutgoingAllow(allow) });
  });
  beforeEach(() => {
    log().length = 0;
  });
  after(async () => {
    await Promise.all([loopback, database, hop, otherDatabase, webOnly].map((s) => s?.close()));
    await oracle?.close();
  });

  const probe = (url: string) => as(oracle.app, 'manager1').post(`${API}/changelogs/admin/probe`).send({ url });
  const log = () => (oracle.site.logger as ReturnType<typeof memoryLogger>).lines;
  const refusedInLog = (url: string) => log().some((l) => l.fields?.url === new URL(url).href && /is not allowed/.test(String(l.fields?.cause)));

  async function assertRefused(url: string): Promise<void> {
    const res = await probe(url);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { ok: false, url, error: { code: 'unreachable', message: UNREACHABLE } }, url);
    assert.ok(refusedInLog(url), `the log says why: ${url}`);
  }

  it('lets an allowed address through (the suite\'s servers answer)', async () => {
    const res = await probe(`http://127.0.0.2:${hop.port}/readme.txt`);
    assert.deepEqual([res.body.ok, res.body.count], [true, 5], res.text);
  });

  const loopbackForms = (port: number) => [
    `http://127.0.0.1:${port}/readme.txt`, `http://2130706433:${port}/readme.txt`, `http://0177.0.0.1:${port}/readme.txt`,
    `http://0x7f.1:${port}/readme.txt`, `http://0x7f000001:${port}/readme.txt`, `http://127.1:${port}/readme.txt`,
    `http://[::ffff:127.0.0.1]:${port}/readme.txt`, `http://[::1]:${port}/readme.txt`, `http://0.0.0.0:${port}/readme.txt`,
    `http://[::]:${port}/readme.txt`, `http://localhost:${port}/readme.txt`,
  ];

  it('refuses loopback however it is written, a name that resolves to it included, without connecting', async () => {
    for (const url of loopbackForms(loopback.port)) {
      const res = await probe(url);
      assert.deepEqual(res.body, { ok: false, url, error: { code: 'unreachable', message: UNREACHABLE } }, url);
      assert.ok(refusedInLog(url), `the log says why: ${url}`);
    }
    assert.equal(loopback.hits, 0, 'no request reached the loopback server');
  });

  it('refuses private, shared, link-local (cloud metadata), multicast and reserved ranges', async () => {
    for (const host of ['169.254.169.254', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '224.0.0.1', '240.0.0.1', '255.255.255.255', '[fc00::1]', '[fd12::1]', '[fe80::1]', '[ff02::1]']) {
      await assertRefused(`http://${host}/latest/meta-data/`);
    }
  });

  it('refuses a database\'s port on loopback, and a port other than 80, 443 and 8080 that no entry names', async () => {
    await assertRefused(`http://127.0.0.1:${database.port}/`);
    assert.equal(database.hits, 0, 'no connection reached the database port');
    await assertRefused(`http://127.0.0.3:${webOnly.port}/readme.txt`);
    assert.equal(webOnly.hits, 0);
    await assertRefused('http://93.184.216.34:22/');
  });

  it('refuses a redirect from an allowed source to loopback or link-local, whatever its spelling', async () => {
    const targets = [
      `http://127.0.0.1:${loopback.port}/readme.txt`, `http://localhost:${loopback.port}/readme.txt`, `http://2130706433:${loopback.port}/readme.txt`,
      `http://[::ffff:127.0.0.1]:${loopback.port}/readme.txt`, 'http://169.254.169.254/latest/meta-data/',
    ];
    for (const target of targets) {
      const url = `http://127.0.0.2:${hop.port}/to?u=${encodeURIComponent(target)}`;
      const res = await probe(url);
      assert.deepEqual(res.body, { ok: false, url, error: { code: 'unreachable', message: UNREACHABLE } }, target);
      assert.ok(refusedInLog(target), `the log names the hop: ${target}`);
    }
    assert.equal(loopback.hits, 0);
    const allowed = await probe(`http://127.0.0.2:${hop.port}/to?u=${encodeURIComponent(`http://127.0.0.2:${hop.port}/readme.txt`)}`);
    assert.equal(allowed.body.ok, true, 'a redirect to an allowed address is followed');
  });

  it('answers the same text for an open port that speaks no HTTP, a closed port and a refused address', async () => {
    const answers: unknown[] = [];
    for (const url of [`http://127.0.0.2:${otherDatabase.port}/`, `http://127.0.0.2:${closed}/`, `http://127.0.0.1:${database.port}/`]) {
      const res = await probe(url);
      answers.push({ ...res.body, url: undefined });
    }
    assert.equal(otherDatabase.hits, 1, 'the allowed database port was reached');
    assert.deepEqual(answers[0], answers[1]);
    assert.deepEqual(answers[1], answers[2]);
    assert.deepEqual(answers[0], { ok: false, url: undefined, error: { code: 'unreachable', message: UNREACHABLE } });
    const causes = log().filter((l) => [otherDatabase.port, closed].some((p) => String(l.fields?.url).includes(`:${p}/`))).map((l) => String(l.fields?.cause));
    assert.equal(new Set(causes).size, 2, `the log tells them apart: ${causes.join(' | ')}`);
  });

  it('syncs nothing from an internal source or a redirect to one: 502, no release, nothing in the feeds', async () => {
    for (const [n, source] of [`http://0x7f.1:${loopback.port}/readme.txt`, `http://127.0.0.2:${hop.port}/to?u=${encodeURIComponent(`http://127.0.0.1:${loopback.port}/readme.txt`)}`].entries()) {
      const product = await createProduct(oracle.site, { name: `Internal source ${n}`, source });
      const res = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${product.postId}/sync`);
      const body = assertRestError(res, 502, 'svc_changelog_source_failed', UNREACHABLE);
      assert.equal(body.data.reason, 'unreachable');
      assert.deepEqual((await request(oracle.app).get(`${API}/changelogs/${product.slug}`)).body, []);
      const feed = await request(oracle.app).get(`/changelog/${product.slug}/feed/json/`);
      assert.equal(feed.status, 200);
      assert.deepEqual(JSON.parse(feed.text).items, []);
    }
    assert.equal(loopback.hits, 0);
  });
});
