/** Reading captures: Understudy's JSON format and HAR 1.2, into the same exchanges. */
import assert from 'node:assert/strict';
import { parseCapture } from '../../../lib/replay/capture';

describe('parseCapture', () => {
  it('reads Understudy\'s JSON format, naming unnamed exchanges by method and URL', () => {
    const [exchange] = parseCapture(JSON.stringify([{
      request: { method: 'GET', url: 'http://x.test/wp-json/', headers: [['Accept', '*/*']] },
      response: { status: 200, headers: [], body: '{}' },
    }]));
    assert.deepEqual(exchange, {
      name: 'GET http://x.test/wp-json/', note: undefined,
      request: { method: 'GET', url: 'http://x.test/wp-json/', headers: [['Accept', '*/*']], body: null },
      response: { status: 200, headers: [], body: '{}' },
    });
  });

  it('reads HAR entries: comment as name, headers as pairs, base64 bodies decoded, form params as a body', () => {
    const har = { log: { version: '1.2', entries: [
      {
        comment: 'me',
        request: { method: 'POST', url: 'http://x.test/wp-admin/admin-ajax.php', headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
          postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'action', value: 'frm_form_submit' }, { name: 'q', value: 'a b' }] } },
        response: { status: 200, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { encoding: 'base64', text: Buffer.from('{"ok":true}').toString('base64') } },
      },
      { request: { method: 'GET', url: 'http://x.test/', headers: [] }, response: { status: 204, headers: [], content: {} } },
    ] } };
    const [first, second] = parseCapture(JSON.stringify(har));
    assert.equal(first?.name, 'me');
    assert.equal(first?.request.body, 'action=frm_form_submit&q=a%20b');
    assert.deepEqual(first?.request.headers, [['Content-Type', 'application/x-www-form-urlencoded']]);
    assert.equal(first?.response.body, '{"ok":true}');
    assert.equal(second?.name, 'GET http://x.test/');
    assert.equal(second?.response.body, null);
  });

  it('says what it expected when the text is neither format', () => {
    assert.throws(() => parseCapture('{"entries":[]}'), /Not a capture: expected a JSON array of exchanges or a HAR file/);
    assert.throws(() => parseCapture('[{"request":{"method":"GET"},"response":{"status":200}}]'), /Exchange 1 lacks request\.method, request\.url or response\.status/);
  });
});
