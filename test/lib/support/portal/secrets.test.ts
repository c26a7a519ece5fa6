/** Portal codes and tokens: the code's shape, its sealing for the job, the token headers. */
import assert from 'node:assert/strict';
import { newCode } from '../../../../lib/support/portal/codes';
import { portalEmail } from '../../../../lib/support/portal/limits';
import { bearerSecretOf } from '../../../../lib/support/bearer-secrets';
import { codeHash, sealCode, unsealCode } from '../../../../lib/support/portal/secret';
import { Site } from '../../../../lib/wp/site';

const site = { salts: { salt: async () => 'k'.repeat(64) } } as unknown as Site;

describe('portal secrets', () => {
  it('codes are 6 digits, leading zeros kept, and vary', () => {
    const codes = new Set(Array.from({ length: 200 }, () => newCode()));
    for (const c of codes) assert.match(c, /^\d{6}$/);
    assert.ok(codes.size > 190);
  });

  it('the HMAC depends on the site, the address and the code', async () => {
    const h = await codeHash(site, 'aaaaaaaaaaaa', 'a@b.c', '123456');
    assert.match(h, /^[0-9a-f]{64}$/);
    assert.notEqual(h, await codeHash(site, 'bbbbbbbbbbbb', 'a@b.c', '123456'));
    assert.notEqual(h, await codeHash(site, 'aaaaaaaaaaaa', 'x@b.c', '123456'));
    assert.notEqual(h, await codeHash(site, 'aaaaaaaaaaaa', 'a@b.c', '123457'));
  });

  it('a sealed code opens only for its site', async () => {
    const sealed = await sealCode(site, 'aaaaaaaaaaaa', '012345');
    assert.ok(!sealed.includes('012345'));
    assert.equal(await unsealCode(site, 'aaaaaaaaaaaa', sealed), '012345');
    await assert.rejects(unsealCode(site, 'bbbbbbbbbbbb', sealed));
  });

  it('the token comes from Authorization: Bearer, else X-Svc-Portal', () => {
    assert.equal(bearerSecretOf('Bearer abc', 'def'), 'abc');
    assert.equal(bearerSecretOf('Basic xyz', 'def'), 'def');
    assert.equal(bearerSecretOf(undefined, undefined), undefined);
  });

  it('addresses are keyed with ASCII letters in lowercase', () => {
    assert.equal(portalEmail(' Ann@Example.NET '), 'ann@example.net');
  });
});
