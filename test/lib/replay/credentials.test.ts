/** Swapping captured credentials for replacements, and finding every secret a request carries. */
import assert from 'node:assert/strict';
import { CapturedRequest } from '../../../lib/replay/capture';
import { CredentialSubstitution, secretsOf, secretsOfSubstitutions, substituteCredentials } from '../../../lib/replay/credentials';

const basic = (loginPassword: string) => `Basic ${Buffer.from(loginPassword).toString('base64')}`;
const request = (headers: Array<[string, string]>, url = 'http://php.test/wp-json/wp/v2/users/me', body: string | null = null): CapturedRequest => ({
  method: 'GET', url, headers, body,
});

describe('credential substitution', () => {
  const subs: CredentialSubstitution[] = [
    { user: 'agent1', type: 'basic', captured: 'agent1:PROD PASS WORD', replacement: 'agent1:STAGING PASS' },
    { user: 'agent1', type: 'cookie', captured: 'agent1%7C111%7Cprodtoken', replacement: 'agent1%7C222%7Cstagingtoken' },
    { user: 'agent1', type: 'nonce', captured: '5e94078032', replacement: '0a1b2c3d4e' },
    { type: 'header', name: 'X-Site-Key', captured: 'prod-key-123', replacement: 'staging-key-456' },
  ];

  it('replaces a Basic password by login:password, a cookie by substring, a nonce and a named header by value', () => {
    const out = substituteCredentials(request([
      ['Authorization', basic('agent1:PROD PASS WORD')], ['Cookie', 'wordpress_logged_in_x=agent1%7C111%7Cprodtoken; other=1'],
      ['X-WP-Nonce', '5e94078032'], ['X-Site-Key', 'prod-key-123'], ['Accept', 'application/json'],
    ]), subs);
    assert.deepEqual(out.headers, [
      ['Authorization', basic('agent1:STAGING PASS')], ['Cookie', 'wordpress_logged_in_x=agent1%7C222%7Cstagingtoken; other=1'],
      ['X-WP-Nonce', '0a1b2c3d4e'], ['X-Site-Key', 'staging-key-456'], ['Accept', 'application/json'],
    ]);
  });

  it('replaces nonces in the query and in form bodies, leaving every other byte as captured', () => {
    const out = substituteCredentials(request(
      [['Content-Type', 'application/x-www-form-urlencoded']],
      'http://php.test/wp-json/wp/v2/users/me?_fields=id,name&_wpnonce=5e94078032&x=5e94078032',
      'action=frm_admin_action&security=5e94078032',
    ), subs);
    assert.equal(out.url, 'http://php.test/wp-json/wp/v2/users/me?_fields=id,name&_wpnonce=0a1b2c3d4e&x=5e94078032');
    assert.equal(out.body, 'action=frm_admin_action&security=0a1b2c3d4e');
  });

  it('leaves other users\' credentials alone', () => {
    const captured = request([['Authorization', basic('customer1:other')]]);
    assert.deepEqual(substituteCredentials(captured, subs), captured);
  });

  it('lists a request\'s secrets in every form a report could show them', () => {
    const secrets = secretsOf(request(
      [['Authorization', basic('agent1:PROD PASS WORD')], ['Cookie', 'wordpress_logged_in_x=agent1%7C111%7Ctok'], ['X-WP-Nonce', '5e94078032']],
      'http://php.test/?rest_route=/x&_wpnonce=abcdef0123',
    ));
    for (const s of ['PROD PASS WORD', 'agent1:PROD PASS WORD', basic('agent1:PROD PASS WORD'), 'agent1%7C111%7Ctok', 'agent1|111|tok', '5e94078032', 'abcdef0123']) {
      assert.ok(secrets.includes(s), s);
    }
    assert.ok(secretsOfSubstitutions(subs).includes(basic('agent1:STAGING PASS')));
    assert.ok(secretsOfSubstitutions(subs).includes('STAGING PASS'));
  });
});
