/** Route patterns as metrics, request logs, proxy routing and replay name them. */
import assert from 'node:assert/strict';
import { readableRoute } from '../../../../lib/wp/rest/readable-route';

describe('readable routes', () => {
  it('writes named groups as {name}, keeping nested groups inside', () => {
    assert.equal(readableRoute('/support/v1/tickets/(?P<id>[\\d]+)/files/(?P<file>(a|b)+)'), '/support/v1/tickets/{id}/files/{file}');
  });
});
