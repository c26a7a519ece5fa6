/**
 * Pass-through fidelity against a real upstream on loopback: the client sees exactly what the
 * upstream sent (status, headers in order, several Set-Cookie, redirects unfollowed, body bytes),
 * streamed as it comes; the upstream sees the client's request plus X-Forwarded-*, minus hop-by-hop.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { Upstream, createUpstream, passThrough } from '../../../lib/proxy/pass-through';
import { trustProxies } from '../../../lib/wp/http/request-info';
import { parseTrustedProxies } from '../../../lib/wp/http/trusted-proxies';
import { Listening, headerValues, listen, rawRequest } from '../../harness/http';

const BINARY = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

describe('pass-through to the upstream', () => {
  let upstream: Listening;
  let proxy: Listening;
  let target: Upstream;
  const events: string[] = [];
  let releaseStream: () => void = () => undefined;
  const upstreamPaths: string[] = [];
  let abandoned: Promise<void> = Promise.resolve();

  before(async () => {
    upstream = await listen((req, res) => {
      upstreamPaths.push(req.url ?? '');
      const routes: Record<string, () => void> = {
        '/stream': () => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('first;');
          events.push('upstream wrote first');
          new Promise<void>((resolve) => { releaseStream = resolve; }).then(() => {
            events.push('upstream writes second');
            res.end('second');
          });
        },
        '/forever': () => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('start');
          abandoned = new Promise((resolve) => res.on('close', () => resolve()));
        },
        '/cookies': () => {
          res.writeHead(201, 'Created Here', [
            'Set-Cookie', 'a=1; Path=/; HttpOnly', 'X-Custom-Case', 'Yes', 'Set-Cookie', 'b=2; Path=/wp-admin',
            'Set-Cookie', 'wordpress_logged_in_x=agent1%7C1%7Ct; Path=/; Secure', 'Content-Type', 'text/html; charset=UTF-8',
          ]);
          res.end('<p>made</p>');
        },
        '/redirect': () => res.writeHead(302, { Location: '/elsewhere', 'Content-Type': 'text/plain' }).end('moved'),
        '/binary': () => res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': BINARY.length }).end(BINARY),
        '/hop': () => res.writeHead(200, ['Connection', 'X-Internal', 'X-Internal', 'secret', 'Keep-Alive', 'timeout=5', 'X-Kept', 'yes']).end('ok'),
      };
      if (routes[req.url ?? '']) return routes[req.url as string]?.();
      const hash = createHash('sha256');
      let size = 0;
      req.on('data', (chunk: Buffer) => { hash.update(chunk); size += chunk.length; });
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({
        method: req.method, url: req.url, rawHeaders: req.rawHeaders, size, sha256: hash.digest('hex'),
      })));
    });
    target = createUpstream(upstream.url);
    proxy = await listen((req, res) => passThrough(req, res, target));
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
    target.agent.destroy();
  });

  it('streams a slow body: the client has the first chunk before the upstream writes the second', async () => {
    events.length = 0;
    const answer = await rawRequest(proxy.url, {
      path: '/stream',
      onChunk: (chunk) => {
        if (chunk.toString().includes('first')) {
          events.push('client saw first');
          releaseStream();
        }
      },
    });
    assert.equal(answer.body.toString(), 'first;second');
    assert.deepEqual(events, ['upstream wrote first', 'client saw first', 'upstream writes second']);
  });

  it('keeps status, reason, header order and case, and every Set-Cookie', async () => {
    const answer = await rawRequest(proxy.url, { path: '/cookies' });
    assert.equal(answer.status, 201);
    assert.equal(answer.statusMessage, 'Created Here');
    assert.deepEqual(headerValues(answer.rawHeaders, 'set-cookie'), ['a=1; Path=/; HttpOnly', 'b=2; Path=/wp-admin', 'wordpress_logged_in_x=agent1%7C1%7Ct; Path=/; Secure']);
    const names = answer.rawHeaders.filter((_, i) => i % 2 === 0);
    assert.deepEqual(names.slice(0, 5), ['Set-Cookie', 'X-Custom-Case', 'Set-Cookie', 'Set-Cookie', 'Content-Type']);
    assert.equal(answer.body.toString(), '<p>made</p>');
  });

  it('hands redirects to the client instead of following them', async () => {
    upstreamPaths.length = 0;
    const answer = await rawRequest(proxy.url, { path: '/redirect' });
    assert.equal(answer.status, 302);
    assert.deepEqual(headerValues(answer.rawHeaders, 'location'), ['/elsewhere']);
    assert.equal(answer.body.toString(), 'moved');
    assert.deepEqual(upstreamPaths, ['/redirect']);
  });

  it('passes binary bodies byte for byte, and HEAD answers without a body', async () => {
    const answer = await rawRequest(proxy.url, { path: '/binary' });
    assert.ok(answer.body.equals(BINARY));
    assert.deepEqual(headerValues(answer.rawHeaders, 'content-length'), [String(BINARY.length)]);
    const head = await rawRequest(proxy.url, { method: 'HEAD', path: '/binary' });
    assert.equal(head.body.length, 0);
    assert.deepEqual(headerValues(head.rawHeaders, 'content-length'), [String(BINARY.length)]);
  });

  it('sends the request body as it came, however large', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 'x');
    const answer = await rawRequest(proxy.url, { method: 'POST', path: '/echo?a=1&b=%2F', headers: ['Content-Type', 'text/plain'], body });
    const seen = JSON.parse(answer.body.toString());
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/echo?a=1&b=%2F');
    assert.equal(seen.size, body.length);
    assert.equal(seen.sha256, createHash('sha256').update(body).digest('hex'));
  });

  it('keeps the client\'s headers and Host, adds X-Forwarded-*, and drops hop-by-hop headers both ways', async () => {
    const answer = await rawRequest(proxy.url, {
      path: '/echo',
      headers: [
        'Connection', 'X-Drop-Me', 'X-Drop-Me', '1', 'Proxy-Authorization', 'Basic eA==', 'X-Forwarded-For', '10.0.0.1',
        'Cookie', 'a=1', 'Authorization', 'Basic YWdlbnQxOnBhc3M=', 'TE', 'trailers',
      ],
    });
    const raw: string[] = JSON.parse(answer.body.toString()).rawHeaders;
    const host = new URL(proxy.url).host;
    assert.deepEqual(headerValues(raw, 'host'), [host]);
    assert.deepEqual(headerValues(raw, 'x-forwarded-for'), ['127.0.0.1'], 'the untrusted client\'s own X-Forwarded-For is dropped');
    assert.deepEqual(headerValues(raw, 'x-forwarded-proto'), ['http']);
    assert.deepEqual(headerValues(raw, 'x-forwarded-host'), [host]);
    assert.deepEqual(headerValues(raw, 'cookie'), ['a=1']);
    assert.deepEqual(headerValues(raw, 'authorization'), ['Basic YWdlbnQxOnBhc3M=']);
    for (const dropped of ['x-drop-me', 'proxy-authorization', 'te']) assert.deepEqual(headerValues(raw, dropped), [], dropped);

    const hop = await rawRequest(proxy.url, { path: '/hop' });
    assert.deepEqual(headerValues(hop.rawHeaders, 'x-internal'), []);
    assert.deepEqual(headerValues(hop.rawHeaders, 'keep-alive'), []);
    assert.deepEqual(headerValues(hop.rawHeaders, 'x-kept'), ['yes']);
  });

  /** Headers that is_ssl() snippets, IP-detection code and CDNs' PHP integrations read. */
  const CLIENT_CLAIMS = [
    'X-Forwarded-Ssl', 'X-Forwarded-Server', 'X-Forwarded-Scheme', 'X-Forwarded', 'X-Client-IP', 'Client-IP', 'CF-Connecting-IP', 'True-Client-IP',
    'X-Cluster-Client-IP', 'Fastly-Client-IP', 'Forwarded-For', 'Front-End-Https', 'X_Real_IP',
  ];

  it('passes a client\'s X-Forwarded*, Forwarded, X-Real-IP and client-IP headers on only when the client is a trusted proxy', async () => {
    const forged = [
      'X-Forwarded-For', '6.6.6.6', 'X-Forwarded-Proto', 'https', 'X-Forwarded-Host', 'evil.example', 'X-Forwarded-Port', '443',
      'Forwarded', 'for=6.6.6.6;proto=https', 'X-Real-IP', '6.6.6.6', ...CLIENT_CLAIMS.flatMap((name) => [name, name === 'X-Forwarded-Ssl' ? 'on' : '6.6.6.6']),
    ];
    const seen = async (trusted: string) => {
      const front = await listen((req, res) => {
        trustProxies(req, parseTrustedProxies(trusted));
        passThrough(req, res, target);
      });
      try {
        return JSON.parse((await rawRequest(front.url, { path: '/echo', headers: forged })).body.toString()).rawHeaders as string[];
      } finally {
        await front.close();
      }
    };
    const untrusted = await seen('10.0.0.0/8');
    assert.deepEqual(headerValues(untrusted, 'x-forwarded-for'), ['127.0.0.1']);
    assert.deepEqual(headerValues(untrusted, 'x-forwarded-proto'), ['http']);
    assert.deepEqual(headerValues(untrusted, 'x-forwarded-host'), [headerValues(untrusted, 'host')[0]]);
    for (const name of ['x-forwarded-port', 'forwarded', 'x-real-ip', ...CLIENT_CLAIMS]) assert.deepEqual(headerValues(untrusted, name.toLowerCase()), [], name);
    const trusted = await seen('127.0.0.1');
    assert.deepEqual(headerValues(trusted, 'x-forwarded-for'), ['6.6.6.6, 127.0.0.1']);
    assert.deepEqual(headerValues(trusted, 'x-forwarded-proto'), ['https']);
    assert.deepEqual(headerValues(trusted, 'x-forwarded-host'), ['evil.example']);
    assert.deepEqual(headerValues(trusted, 'forwarded'), ['for=6.6.6.6;proto=https']);
    assert.deepEqual(headerValues(trusted, 'x-real-ip'), ['6.6.6.6']);
    for (const name of CLIENT_CLAIMS) assert.equal(headerValues(trusted, name.toLowerCase()).length, 1, name);
  });

  it('can send the upstream its own host name instead of the client\'s', async () => {
    const own = createUpstream(upstream.url, false);
    const front = await listen((req, res) => passThrough(req, res, own));
    try {
      const answer = await rawRequest(front.url, { path: '/echo' });
      assert.deepEqual(headerValues(JSON.parse(answer.body.toString()).rawHeaders, 'host'), [new URL(upstream.url).host]);
    } finally {
      await front.close();
      own.agent.destroy();
    }
  });

  it('stops asking the upstream when the client goes away', async () => {
    await new Promise<void>((resolve, reject) => {
      const url = new URL(proxy.url);
      const req = http.get({ hostname: url.hostname, port: url.port, path: '/forever', agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    await abandoned;
  });

  it('answers 502 when the upstream cannot be reached', async () => {
    const gone = await listen(() => undefined);
    await gone.close();
    const dead = createUpstream(gone.url);
    const front = await listen((req, res) => passThrough(req, res, dead));
    try {
      const answer = await rawRequest(front.url, { path: '/anything' });
      assert.equal(answer.status, 502);
      assert.match(answer.body.toString(), /upstream site did not answer/);
    } finally {
      await front.close();
      dead.agent.destroy();
    }
  });
});
