/**
 * In-process requests: an Express app gets a buffered request as if it had just arrived (body,
 * headers, client address) and its whole answer is collected without a network hop.
 */
import assert from 'node:assert/strict';
import express from 'express';
import { injectRequest } from '../../../lib/proxy/inject';

describe('injectRequest', () => {
  const app = express();
  app.post('/echo', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.append('Set-Cookie', 'a=1').append('Set-Cookie', 'b=2');
      res.status(201).json({
        body: Buffer.concat(chunks).toString(), ip: req.socket.remoteAddress, secure: req.secure, cookie: req.headers.cookie, accept: req.headers.accept,
      });
    });
  });
  app.get('/chunks', (_req, res) => {
    res.type('text/plain');
    res.write('one,');
    setTimeout(() => res.end('two'), 5);
  });
  app.get('/later', (_req, res) => void setTimeout(() => res.send('late'), 20));

  it('delivers body, headers and client address, and collects status, every header and the body', async () => {
    const answer = await injectRequest(app, {
      method: 'POST', url: '/echo?x=1', body: Buffer.from('{"a":1}'), remoteAddress: '203.0.113.9', encrypted: true,
      rawHeaders: ['Content-Type', 'application/json', 'Cookie', 'a=1', 'Cookie', 'b=2', 'Accept', 'text/html', 'Accept', 'application/json'],
    });
    assert.equal(answer.status, 201);
    assert.deepEqual(JSON.parse(answer.body), { body: '{"a":1}', ip: '203.0.113.9', secure: true, cookie: 'a=1; b=2', accept: 'text/html, application/json' });
    assert.deepEqual(answer.headers.filter(([n]) => n === 'set-cookie'), [['set-cookie', 'a=1'], ['set-cookie', 'b=2']]);
    assert.ok(answer.headers.some(([n, v]) => n === 'content-type' && v.startsWith('application/json')));
  });

  it('collects written chunks and answers that come later', async () => {
    assert.equal((await injectRequest(app, { method: 'GET', url: '/chunks', rawHeaders: [], body: Buffer.alloc(0) })).body, 'one,two');
    assert.equal((await injectRequest(app, { method: 'GET', url: '/later', rawHeaders: [], body: Buffer.alloc(0) })).body, 'late');
  });

  it('answers HEAD without a body, and unknown paths as the app does', async () => {
    const head = await injectRequest(app, { method: 'HEAD', url: '/later', rawHeaders: [], body: Buffer.alloc(0) });
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal((await injectRequest(app, { method: 'GET', url: '/nope', rawHeaders: [], body: Buffer.alloc(0) })).status, 404);
  });
});
