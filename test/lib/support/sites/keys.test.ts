/** Site-ids and site keys: from a CSPRNG, the key stored only as its SHA-256 and compared in constant time. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { bearerSecretMatches, hashBearerSecret, newBearerSecret } from '../../../../lib/support/bearer-secrets';
import { isSiteId, newSiteId } from '../../../../lib/support/sites/keys';

describe('connected-site keys', () => {
  it('makes 12-character site-ids of lowercase letters and digits, all different', () => {
    const ids = Array.from({ length: 500 }, newSiteId);
    for (const id of ids) assert.ok(isSiteId(id), id);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(!isSiteId('ABCDEFGHIJKL') && !isSiteId('abc') && !isSiteId('abcdefghijk-'));
  });

  it('makes keys of 32 random bytes (64 hex digits), stored as their SHA-256', () => {
    const key = newBearerSecret();
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.notEqual(newBearerSecret(), key);
    assert.equal(hashBearerSecret(key), createHash('sha256').update(key).digest('hex'));
  });

  it('matches only the key whose hash is stored; an empty key or a malformed hash matches nothing', () => {
    const key = newBearerSecret();
    const stored = hashBearerSecret(key);
    assert.equal(bearerSecretMatches(key, stored), true);
    assert.equal(bearerSecretMatches(newBearerSecret(), stored), false);
    assert.equal(bearerSecretMatches(key.toUpperCase(), stored), false);
    assert.equal(bearerSecretMatches('', hashBearerSecret('')), false);
    assert.equal(bearerSecretMatches(key, ''), false);
    assert.equal(bearerSecretMatches(key, stored.toUpperCase()), false);
  });
});
