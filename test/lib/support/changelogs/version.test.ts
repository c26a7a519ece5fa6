/** The version order changelogs need (lib/support/changelogs/version.ts). */
import assert from 'node:assert/strict';
import { compareVersions, isPrerelease, isVersion, normalizeVersion } from '../../../../lib/support/changelogs/version';

describe('changelog versions', () => {
  const before = (a: string, b: string) => {
    assert.ok(compareVersions(a, b) < 0, `${a} < ${b}`);
    assert.ok(compareVersions(b, a) > 0, `${b} > ${a}`);
  };

  it('compares numeric parts as numbers: 1.10 after 1.9, 1.9.10 after 1.9.9', () => {
    before('1.9', '1.10');
    before('1.9.9', '1.9.10');
    before('0.9', '0.10.0');
    before('2.0', '10.0');
  });

  it('orders four-part WordPress versions: 6.4.3 < 6.4.3.1 < 6.4.4', () => {
    before('6.4.3', '6.4.3.1');
    before('6.4.3.1', '6.4.4');
    before('6.4.3.1', '6.4.3.2');
  });

  it('takes 1.0 and 1.0.0 (and a v prefix) as the same version', () => {
    assert.equal(compareVersions('1.0', '1.0.0'), 0);
    assert.equal(compareVersions('v1.2.3', '1.2.3'), 0);
    assert.equal(compareVersions('V2.0.0-beta.2', '2.0.0-beta.2'), 0);
    before('v1.9', 'v1.10');
    assert.equal(normalizeVersion(' v1.2.3 '), '1.2.3');
  });

  it('puts pre-releases before their release: 2.0.0-beta.2 < 2.0.0, and after the release before it', () => {
    before('2.0.0-beta.2', '2.0.0');
    before('1.9.9', '2.0.0-alpha');
    before('2.0.0-rc.1', '2.0.0');
    before('2.0-RC1', '2.0');
  });

  it('orders pre-release numbers as numbers: beta.2 < beta.10, rc.9 < rc.10', () => {
    before('2.0.0-beta.2', '2.0.0-beta.10');
    before('2.0.0-rc.9', '2.0.0-rc.10');
    before('3.0beta2', '3.0beta10');
  });

  it('orders labels dev < alpha < beta < rc, whatever their numbers', () => {
    before('2.0.0-dev', '2.0.0-alpha');
    before('2.0.0-alpha.9', '2.0.0-beta.1');
    before('2.0.0-beta.10', '2.0.0-rc.1');
    before('2.0.0-a1', '2.0.0-b1');
    before('2.0.0-beta', '2.0.0-beta.1');
  });

  it('sorts a real release list newest first', () => {
    const versions = ['1.9', '2.0.0-beta.2', '1.10', '2.0.0', '6.4.3.1', '2.0.0-rc.1', 'v2.0.0-beta.10', '6.4.3', '2.0.0-alpha'];
    assert.deepEqual([...versions].sort((a, b) => compareVersions(b, a)), [
      '6.4.3.1', '6.4.3', '2.0.0', '2.0.0-rc.1', 'v2.0.0-beta.10', '2.0.0-beta.2', '2.0.0-alpha', '1.10', '1.9',
    ]);
  });

  it('tells versions and pre-releases apart from other text', () => {
    assert.ok(isVersion('6.4.3.1') && isVersion('v1') && isVersion('2.0.0-beta.2+build.5'));
    assert.ok(!isVersion('') && !isVersion('latest') && !isVersion('1.2.3; DROP TABLE') && !isVersion('.1'));
    assert.ok(isPrerelease('2.0.0-beta.2') && isPrerelease('3.0RC1'));
    assert.ok(!isPrerelease('2.0.0') && !isPrerelease('v6.4.3.1') && !isPrerelease('1.0.0+build.7'));
  });
});
