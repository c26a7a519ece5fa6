/** The rules files' JSON path dialect, compiled to patterns over the comparison's own path strings. */
import assert from 'node:assert/strict';
import { compileJsonPath, memberStep } from '../../../lib/replay/json-path';

describe('JSON paths in rules files', () => {
  it('matches a member, an index and any index', () => {
    assert.ok(compileJsonPath('$.id').test('body.id'));
    assert.ok(!compileJsonPath('$.id').test('body.user.id'));
    assert.ok(compileJsonPath('$.items[2].id').test('body.items[2].id'));
    assert.ok(compileJsonPath('$.items[*].id').test('body.items[17].id'));
    assert.ok(!compileJsonPath('$.items[*].id').test('body.items.id'));
  });

  it('matches any member with .* and any depth with ..', () => {
    assert.ok(compileJsonPath('$.avatar_urls.*').test('body.avatar_urls.24'));
    assert.ok(compileJsonPath('$..date').test('body.date'));
    assert.ok(compileJsonPath('$..date').test('body[3].messages[0].date'));
    assert.ok(!compileJsonPath('$..date').test('body.date_gmt'));
  });

  it('reads quoted member names, the way the comparison writes names with dots or brackets', () => {
    assert.equal(memberStep('a.b'), '["a.b"]');
    assert.equal(memberStep('plain_name'), '.plain_name');
    assert.ok(compileJsonPath('$["a.b"]').test(`body${memberStep('a.b')}`));
  });

  it('refuses what it cannot read', () => {
    assert.throws(() => compileJsonPath('items.id'), /must start with \$/);
    assert.throws(() => compileJsonPath('$.items[?(@.x)]'), /cannot read/);
  });
});
