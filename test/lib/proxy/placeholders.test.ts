/**
 * Identity placeholders: a recorded request holds none of its credentials, the same secret gets the
 * same placeholder, and replay's `identity` credentials turn the placeholders back into credentials
 * (here the very ones taken out, so the request comes back byte for byte).
 */
import assert from 'node:assert/strict';
import { Identities, REDACTED_BODY } from '../../../lib/proxy/record/placeholders';
import type { CapturedRequest } from '../../../lib/replay/capture';
import { CredentialSubstitution, secretsOfSubstitutions, substituteCredentials } from '../../../lib/replay/credentials';

const basic = (loginPassword: string) => `Basic ${Buffer.from(loginPassword).toString('base64')}`;

describe('recording placeholders', () => {
  const original: CapturedRequest = {
    method: 'POST',
    url: 'https://shop.example/wp-admin/admin-ajax.php?action=frm_save&_wpnonce=5e94078032',
    headers: [
      ['Authorization', basic('agent1:Prod App Pass 1234')], ['Cookie', 'wordpress_logged_in_ab12=agent1%7C1796%7Ctok3nSecret%7Chm4c; lang=fr_FR'],
      ['X-WP-Nonce', '0a1b2c3d4e'], ['Content-Type', 'application/x-www-form-urlencoded'],
    ],
    body: 'item=7&security=5e94078032&token=form-token-secret-99&note=hello',
  };

  it('replaces every credential by a named placeholder, the same secret by the same one', () => {
    const ids = new Identities();
    const { request } = ids.redact('admin-ajax:frm_save', { url: original.url, headers: original.headers, body: original.body }, { headers: [], body: null });
    assert.deepEqual(request.headers, [
      ['Authorization', '<basic:agent1>'], ['Cookie', 'wordpress_logged_in_ab12=<cookie:user agent1>; lang=<cookie:lang 1>'],
      ['X-WP-Nonce', '<nonce:1>'], ['Content-Type', 'application/x-www-form-urlencoded'],
    ]);
    assert.equal(request.url, 'https://shop.example/wp-admin/admin-ajax.php?action=frm_save&_wpnonce=<nonce:2>');
    assert.equal(request.body, 'item=7&security=<nonce:2>&token=<secret:1>&note=hello');
    const again = ids.redact('admin-ajax:frm_save', { url: original.url, headers: original.headers, body: null }, { headers: [], body: null });
    assert.equal(again.request.headers[0]?.[1], '<basic:agent1>');
    assert.equal(again.request.headers[2]?.[1], '<nonce:1>');
  });

  it('replaces an answer\'s Set-Cookie values and any echo of the request\'s secrets, and whole bodies of secret routes', () => {
    const ids = new Identities();
    const { request, response } = ids.redact('/support/v1/sites/{site_id}/portal/session', {
      url: 'https://shop.example/wp-json/support/v1/sites/abc123def456/portal/session', headers: [['X-Svc-Portal', 'portal-token-abcdef'], ['Content-Type', 'application/json']], body: '{"email":"a@b.c","code":"123456"}',
    }, {
      headers: [['Set-Cookie', 'sess=sessionsecret42; Path=/; HttpOnly'], ['X-Echo', 'portal-token-abcdef']], body: '{"token":"new-session-token"}',
    });
    assert.deepEqual(request.headers, [['X-Svc-Portal', '<portal:1>'], ['Content-Type', 'application/json']]);
    assert.equal(request.body, REDACTED_BODY);
    assert.deepEqual(response.headers, [['Set-Cookie', 'sess=<set-cookie:1>; Path=/; HttpOnly'], ['X-Echo', '<portal:1>']]);
    assert.equal(response.body, REDACTED_BODY);
  });

  it('comes back as the original request once each identity is mapped to its credential', () => {
    const { request } = new Identities().redact('admin-ajax:frm_save', { url: original.url, headers: original.headers, body: original.body }, { headers: [], body: null });
    const mapping: CredentialSubstitution[] = [
      { type: 'identity', captured: '<basic:agent1>', replacement: 'agent1:Prod App Pass 1234' },
      { type: 'identity', captured: '<cookie:user agent1>', replacement: 'agent1%7C1796%7Ctok3nSecret%7Chm4c' },
      { type: 'identity', captured: '<cookie:lang 1>', replacement: 'fr_FR' },
      { type: 'identity', captured: '<nonce:1>', replacement: '0a1b2c3d4e' },
      { type: 'identity', captured: '<nonce:2>', replacement: '5e94078032' },
      { type: 'identity', captured: '<secret:1>', replacement: 'form-token-secret-99' },
    ];
    assert.deepEqual(substituteCredentials({ method: 'POST', ...request }, mapping), original);
    assert.ok(secretsOfSubstitutions(mapping).includes(basic('agent1:Prod App Pass 1234')), 'the encoded replacement is kept out of reports');
  });
});
