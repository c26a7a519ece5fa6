/**
 * Issue 27: a recording holds no usable secret. Every credential form the product knows goes through
 * a real recording proxy (headers, query, form, JSON and multipart bodies, REST routes named by the
 * path, by `?rest_route=` and by a `rest_route` body field), answered by a stand-in for the PHP site
 * that mints tokens, passwords and sign-in links as the plugins do; then the whole recording folder
 * is searched for each secret, raw and in the encodings a file could hold it in.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { RequestListener } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildSurface } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { Recorder } from '../../../lib/proxy/record/recorder';
import { SHADOW_DEFAULTS } from '../../../lib/proxy/routing';
import { createProxy } from '../../../lib/proxy/server';
import { parseCapture } from '../../../lib/replay/capture';
import { compileRules } from '../../../lib/replay/rules';
import { Listening, RawRequest, listen, rawRequest } from '../../harness/http';

const S = {
  appPassword: 'Ab1c De2f Gh3i Jk4l Mn5o Pq6r',
  loggedInToken: 'LoggedInTok3nSecretAAAAxyz9876',
  loggedInHmac: '9d1c7e0b5a3f2e8d4c6b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d',
  secureToken: 'SecureTok3nSecretBBBBqrs5432',
  restNonce: 'a1b2c3d4e5',
  pageNonce: '0f9e8d7c6b',
  frmNonce: 'b7c8d9e0f1',
  siteKey: '5f2a9c11d3e4b5a6978877665544332211ffeeddccbbaa009988776655443322',
  mailboxToken: '9911ab22cd33ef4455667788990011223344556677889900aabbccddeeff0011',
  portalToken: 'pT7xQ2mZ9vK4wL8nR3sB6yH1cF5gJ0dA2eU7iO4kM9q',
  chatToken: 'cH4tT0kEnS3nTbYv1s1t0rXq8Wm2Lp6Zr9Yd3Fg7Hj1K',
  signature: 'v1=0f0e0d0c0b0a09080706050403020100ffeeddccbbaa99887766554433221100',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudDEiLCJleHAiOjE3OTYwMDAwMDB9.c2lnbmF0dXJlLXNlY3JldC1qd3Q',
  apiKeyHeader: 'sk-live-Api-KEY-secret-0099',
  accessToken: 'ya29.A0ARrdaM-access-TOKEN-secret-123',
  clientSecret: 'GOCSPX-client-SECRET-abc123',
  apiKeyParam: 'qApiKey-SECRET-5566',
  resetKey: 'rEsEtKeY8sEcReT4wPlOgIn',
  loginPassword: 'Login-Password-SECRET-42',
  multipartPassword: 'Multipart-Pwd-SECRET-77',
  profilePassword: 'Profile-Pass-SECRET-31',
  formPassword: 'Tr0ub4dor&3!x',
  formToken: 'e3b0c44298fc1c149afbf4c8996fb924',
  portalCodeJson: '482913',
  portalCodeMultipart: '739104',
  portalCodeRestRoute: '615287',
  fileContent: 'FILE-CONTENT-SECRET-uploaded',
  opaqueText: 'OPAQUE-BODY-SECRET-plain',
  emailJson: 'EMAIL-BODY-SECRET-inbound-json',
  emailRestRouteForm: 'EMAIL-BODY-SECRET-rest-route-form',
  emailRaw: 'EMAIL-BODY-SECRET-raw-rfc822',
  emailLastRestRoute: 'EMAIL-BODY-SECRET-relay-last-rest-route',
  emailEncodedName: 'EMAIL-BODY-SECRET-encoded-name',
  // Minted by the site in its answers.
  chatMinted: 'mInTeDcHaTtOkEn9x8w7v6u5t4s3r2q1pAbCdEfGhIj',
  chatMintedStream: 'sTrEaMcHaTtOkEn1a2b3c4d5e6f7g8h9iJkLmNoPqRs',
  chatMintedRestRoute: 'rEsTrOuTeChAtToKeN5z6y7x8w9v0uAbCdEfGhIjKlM',
  portalMinted: 'pOrTaLmInTeD4sEsSiOn7tOkEn2xY9zW3vU8tS1rQ6p',
  appPasswordMinted: 'Zy9x Wv8u Ts7r Qp6o Nm5l Kj4i',
  appPasswordInLocation: 'Lc9p Pw8x Ab7c De6f Gh5i Jk4l',
  rotatedSiteKey: '0a9b8c7d6e5f40312233445566778899aabbccddeeff00112233445566778899',
  mailboxTokenShown: 'c0ffee0123456789abcdef0123456789abcdef0123456789abcdef0123456789',
};

/** An answer of ordinary data, much of it near a secret's shape: it must be recorded as sent. */
const ORDINARY = JSON.stringify({
  id: 7, subject: 'Order 1234 late', status: 'open', created: '2026-11-28T08:45:20+00:00', thread: '0b6c1a52-3f7e-4d2a-9c1b-5e8f7a6d4c3b',
  message: 'Fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8, have been very good with this', signature: 'Kind regards, Ann',
  avatar_urls: { 96: 'https://secure.gravatar.com/avatar/d41d8cd98f00b204e9800998ecf8427e?s=96&d=mm' }, code: 'rest_forbidden', request_key: 'k-1',
});

const SITE = 'abc123def456';
const json = (value: unknown) => ({ headers: ['Content-Type', 'application/json'], body: JSON.stringify(value) });
const form = (fields: Record<string, string>) => ({ headers: ['Content-Type', 'application/x-www-form-urlencoded'], body: new URLSearchParams(fields).toString() });
const BOUNDARY = '----understudyBoundary7MA4YWxkTrZu0gW';
function multipart(fields: Array<[string, string] | [string, string, string]>) {
  const parts = fields.map(([name, value, filename]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: text/plain` : ''}\r\n\r\n${value}\r\n`);
  return { headers: ['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`], body: `${parts.join('')}--${BOUNDARY}--\r\n` };
}
const withBody = (method: string, p: string, body: { headers: string[]; body: string }, headers: string[] = []): RawRequest => ({ method, path: p, headers: [...headers, ...body.headers], body: body.body });

/** Every credential form the product knows. */
const REQUESTS: RawRequest[] = [
  { path: '/wp-json/support/v1/tickets', headers: ['Authorization', `Basic ${Buffer.from(`agent1:${S.appPassword}`).toString('base64')}`] },
  {
    path: `/wp-admin/edit.php?_wpnonce=${S.pageNonce}`,
    headers: ['Cookie', `wordpress_logged_in_0123abcd=agent1%7C1796000000%7C${S.loggedInToken}%7C${S.loggedInHmac}; wordpress_sec_0123abcd=agent1%7C1796000000%7C${S.secureToken}%7C${S.loggedInHmac}`],
  },
  { path: '/wp-json/wp/v2/users/me', headers: ['X-WP-Nonce', S.restNonce] },
  { path: '/wp-json/support/v1/tickets', headers: ['Authorization', `Bearer ${S.siteKey}`] },
  { path: `/wp-json/support/v1/sites/${SITE}/tickets`, headers: ['X-Svc-Key', S.siteKey] },
  { path: '/wp-json/support/v1/webhooks/inbound/site-1-support', headers: ['X-Svc-Token', S.mailboxToken] },
  { path: `/wp-json/support/v1/sites/${SITE}/portal/tickets`, headers: ['X-Svc-Portal', S.portalToken] },
  { path: '/wp-json/support/v1/chat/threads/0b6c1a52-3f7e-4d2a-9c1b-5e8f7a6d4c3b', headers: ['X-Chat-Token', S.chatToken] },
  { path: '/wp-json/support/v1/tickets', headers: ['Authorization', `Bearer ${S.jwt}`] },
  { path: '/wp-json/frm/forms', headers: ['X-Api-Key', S.apiKeyHeader] },
  { path: `/wp-json/frm/forms?access_token=${encodeURIComponent(S.accessToken)}&api_key=${S.apiKeyParam}` },
  { path: `/wp-login.php?action=rp&key=${S.resetKey}&login=agent1` },
  withBody('POST', '/wp-json/support/v1/webhooks/relay/site-1-support', { headers: ['Content-Type', 'message/rfc822'], body: `From: a@example.com\r\nSubject: hi\r\n\r\n${S.emailRaw}\r\n` }, [
    'X-Svc-Timestamp', '1796000000', 'X-Svc-Delivery', 'delivery-0001-abcdef', 'X-Svc-Signature', S.signature,
  ]),
  withBody('POST', '/wp-login.php', form({ log: 'agent1', pwd: S.loginPassword, rememberme: 'forever' })),
  withBody('POST', '/wp-login.php', multipart([['log', 'agent1'], ['pwd', S.multipartPassword]])),
  withBody('POST', '/wp-admin/profile.php', form({ pass1: S.profilePassword, pass2: S.profilePassword, _wpnonce: S.pageNonce })),
  withBody('POST', '/wp-admin/admin-ajax.php', form({
    action: 'frm_form_submit', _frm_form_id: '3', _frm_nonce: S.frmNonce, 'item_meta[11]': 'Ada Lovelace', 'item_meta[12]': S.formPassword,
    'item_meta[13]': S.formToken, 'item_meta[14]': S.jwt, client_secret: S.clientSecret,
  })),
  withBody('POST', '/wp-admin/admin-ajax.php', multipart([
    ['action', 'frm_form_submit'], ['_frm_form_id', '3'], ['_frm_nonce', S.frmNonce], ['item_meta[11]', 'Ada Lovelace'], ['item_meta[12]', S.formPassword],
    ['item_meta[15]', S.fileContent, 'notes.txt'], ['access_token', S.accessToken],
  ])),
  withBody('POST', `/wp-json/support/v1/sites/${SITE}/portal/session`, json({ email: 'customer@example.com', code: S.portalCodeJson })),
  withBody('POST', `/wp-json/support/v1/sites/${SITE}/portal/session`, multipart([['email', 'customer@example.com'], ['code', S.portalCodeMultipart]])),
  withBody('POST', '/wp-json/support/v1/chat/messages', json({ message: 'Where is my order?', thread: '0b6c1a52-3f7e-4d2a-9c1b-5e8f7a6d4c3b', token: S.chatToken })),
  withBody('POST', '/wp-json/support/v1/chat/messages', json({ message: 'And now?', stream: true })),
  withBody('POST', '/?rest_route=/support/v1/chat/messages', json({ message: 'Hello' })),
  withBody('POST', '/wp-json/wp/v2/users/me', json({ password: S.profilePassword, api_key: S.apiKeyParam })),
  withBody('POST', '/wp-json/wp/v2/users/7/application-passwords', json({ name: 'CI' }), ['X-WP-Nonce', S.restNonce]),
  { path: '/wp-admin/authorize-application.php?app_name=CI&success_url=https%3A%2F%2Fapp.example%2Fcb' },
  withBody('POST', '/wp-json/support/v1/webhooks/inbound/site-1-support', json({ from: 'a@example.com', subject: 'Hi', text: S.emailJson }), ['Authorization', `Bearer ${S.mailboxToken}`]),
  // WordPress reads rest_route from the POST body too (WP::parse_request: $_POST before $_GET).
  withBody('POST', '/', form({ rest_route: '/support/v1/webhooks/inbound/site-1-support', from: 'a@example.com', subject: 'Hi', text: S.emailRestRouteForm })),
  withBody('POST', '/index.php', multipart([['rest_route', `/support/v1/sites/${SITE}/portal/session`], ['email', 'customer@example.com'], ['code', S.portalCodeRestRoute]])),
  // PHP's $_GET keeps the last of repeated names, and decodes names (`rest%5Froute`) before reading them.
  withBody('POST', '/?rest_route=/wp/v2/posts&rest_route=/support/v1/webhooks/relay/site-1-support', json({ from: 'a@example.com', text: S.emailLastRestRoute })),
  withBody('POST', '/?rest%5Froute=%2Fsupport%2Fv1%2Fwebhooks%2Finbound%2Fsite-1-support', json({ from: 'a@example.com', text: S.emailEncodedName })),
  withBody('POST', '/contact/', { headers: ['Content-Type', 'text/plain'], body: `note: ${S.opaqueText}` }),
  // Answers of the PHP plugin's own admin screens, which show a new key once.
  withBody('POST', '/wp-admin/admin-ajax.php', form({ action: 'svc_rotate_site_key', site: SITE, _ajax_nonce: S.pageNonce })),
  { path: '/wp-admin/admin.php?page=svc-mailboxes&created=1' },
  { path: '/wp-json/support/v1/tickets/7' },
];

/** The PHP site: answers that mint secrets as the plugins and WordPress do, `{"ok":true}` otherwise. */
function phpSite(): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      const answer = (status: number, type: string, text: string, headers: Record<string, string> = {}) => res.writeHead(status, { 'Content-Type': type, ...headers }).end(text);
      if (url.includes('chat/messages') && body.includes('"stream":true')) {
        return answer(200, 'text/event-stream', `event: start\nid: 1\ndata: {"thread":"7d0c9b8a-1e2f-4a3b-8c4d-5e6f7a8b9c0d","token":"${S.chatMintedStream}"}\n\nevent: done\nid: 2\ndata: {"reply":"Soon."}\n\n`);
      }
      if (url.includes('chat/messages')) {
        const token = url.includes('rest_route') ? S.chatMintedRestRoute : S.chatMinted;
        return answer(201, 'application/json; charset=UTF-8', JSON.stringify({ thread: '7d0c9b8a-1e2f-4a3b-8c4d-5e6f7a8b9c0d', token, reply: 'Tomorrow.' }));
      }
      if (url.includes('/portal/session')) return answer(201, 'application/json; charset=UTF-8', JSON.stringify({ token: S.portalMinted, email: 'customer@example.com', expires_in: 2592000 }));
      if (url.includes('application-passwords')) return answer(201, 'application/json; charset=UTF-8', JSON.stringify({ uuid: '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b', name: 'CI', password: S.appPasswordMinted }));
      if (body.includes('svc_rotate_site_key')) return answer(200, 'application/json; charset=UTF-8', JSON.stringify({ success: true, data: { site_id: SITE, key: S.rotatedSiteKey } }));
      if (url.startsWith('/wp-admin/admin.php')) return answer(200, 'text/html; charset=UTF-8', `<p>Copy the token now:</p><input type="text" readonly value="${S.mailboxTokenShown}">`);
      if (url === '/wp-json/support/v1/tickets/7') return answer(200, 'application/json; charset=UTF-8', ORDINARY);
      if (url.startsWith('/wp-admin/authorize-application.php')) {
        return answer(302, 'text/html; charset=UTF-8', '', { Location: `https://app.example/cb?site_url=https%3A%2F%2Fshop.example&user_login=agent1&password=${encodeURIComponent(S.appPasswordInLocation)}` });
      }
      return answer(200, 'application/json; charset=UTF-8', '{"ok":true}');
    });
  };
}

/** A secret as it may stand in a file: raw, percent-encoded (also PHP's `+` for spaces), base64, JSON-escaped. */
function forms(secret: string): string[] {
  return [...new Set([
    secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), Buffer.from(secret).toString('base64'), JSON.stringify(secret).slice(1, -1),
  ])];
}

describe('proxy --record keeps no usable secret (issue 27)', () => {
  let php: Listening;
  let dir: string;

  before(async () => {
    php = await listen(phpSite());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-record-secrets-'));
  });
  after(async () => {
    await php.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes none of the credentials of any route, encoding or rest_route, in any form, and keeps the rest', async () => {
    const recorder = new Recorder({ dir });
    const proxy = createProxy({
      upstream: php.url, understudy: () => assert.fail('nothing is served'), surface: buildSurface(), logger: memoryLogger(), rules: compileRules({}), recorder,
      routing: { shadow: SHADOW_DEFAULTS, decide: () => 'pass' },
    });
    const front = await listen(proxy.handler);
    try {
      for (const request of REQUESTS) await rawRequest(front.url, request);
    } finally {
      await front.close();
      await proxy.close(0);
      await recorder.close();
    }
    assert.equal(recorder.counters.recorded, REQUESTS.length);

    const text = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    const leaks = Object.entries(S).flatMap(([name, secret]) => forms(secret).filter((f) => text.includes(f)).map((f) => `${name} as ${f}`));
    assert.deepEqual(leaks, []);

    // Still a recording: every exchange, its route, what is not secret, and the size and type of what was not kept.
    assert.equal(recorder.recordedFiles.length, 1);
    const har = fs.readFileSync(recorder.recordedFiles[0] as string, 'utf8');
    const exchanges = parseCapture(har);
    assert.equal(exchanges.length, REQUESTS.length);
    const profile = exchanges.find((e) => e.request.url.endsWith('/wp-admin/profile.php'));
    assert.match(profile?.request.body ?? '', /^pass1=(<secret:\d+>)&pass2=\1&_wpnonce=<nonce:\d+>$/);
    assert.match(exchanges[0]?.request.headers.find(([n]) => n === 'Authorization')?.[1] ?? '', /^<basic:agent1>$/);
    const submissions = exchanges.filter((e) => e.request.body?.includes('frm_form_submit'));
    assert.equal(submissions.length, 2);
    for (const e of submissions) assert.ok(e.request.body?.includes('Lovelace'), 'an ordinary field is kept');
    const raw = JSON.parse(har).log.entries.find((e: { request: { url: string } }) => e.request.url.endsWith('/webhooks/relay/site-1-support'));
    assert.equal(raw.request.bodySize, Buffer.byteLength(REQUESTS[12]?.body as string));
    assert.equal(raw.request.postData.mimeType, 'message/rfc822');
    assert.equal(exchanges.at(-1)?.response.body, ORDINARY);
    const opaque = exchanges.find((e) => e.request.url.endsWith('/contact/'));
    assert.equal(opaque?.request.body, '<not recorded: 30 bytes of text/plain>');
    assert.equal(opaque?.notComparable, 'request body not recorded: 30 bytes of text/plain', 'replay does not send what was not recorded');
  });
});
