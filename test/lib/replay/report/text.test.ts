/** The terminal report: summary line, route table, and -/+ differences for what did not match. */
import assert from 'node:assert/strict';
import { textReport } from '../../../../lib/replay/report/text';
import { sampleReport } from './fixture';

describe('text report', () => {
  const text = textReport(sampleReport());

  it('starts with the totals and a table of routes', () => {
    const lines = text.split('\n');
    assert.equal(lines[0], 'Replayed 4 exchanges against http://127.0.0.1:8080: 1 matched, 1 differed, 1 failed, 1 excluded');
    assert.match(lines[2] as string, /^route\s+matched\s+differed\s+failed\s+excluded$/);
    assert.match(lines[3] as string, /^\/wp\/v2\/users\/me\s+1\s+1\s+0\s+0$/);
  });

  it('shows each difference as where, then - captured and + target, with newlines escaped', () => {
    assert.ok(text.includes('✗ <script>alert(1)</script> me  [/wp/v2/users/me]\n  GET http://x/wp-json/wp/v2/users/me?a=<b>  (expected 200, got 403)'));
    assert.ok(text.includes('  body.name\n    - </pre><img src=x onerror=alert(1)>\n    + line1\\nline2\n'));
    assert.ok(text.includes('! nonce  [admin-ajax:rest-nonce]\n  GET http://x/wp-admin/admin-ajax.php?action=rest-nonce  (expected 200)\n  failed: socket hang up'));
    assert.ok(!text.includes('posts  ['), 'excluded exchanges are only counted');
  });
});
