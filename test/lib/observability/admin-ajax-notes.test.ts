/**
 * admin-ajax.php as the front door logs and counts it (lib/observability/front-door.ts): under the
 * action when the action is one Understudy registers, else as `admin-ajax`, and with the user its
 * cookie signs in, as a REST request is.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import request from 'supertest';
import { memoryLogger } from '../../../lib/logger';
import { frontDoor } from '../../../lib/observability/front-door';
import { Health } from '../../../lib/observability/health';
import { RequestLogger, RequestRecord } from '../../../lib/observability/request-log';
import { NO_TRUSTED_PROXIES } from '../../../lib/wp/http/trusted-proxies';
import { cookieOf } from '../../harness/forms';
import { OracleSite, credentials, openOracle } from '../../harness/oracle';
import { eventually } from '../../harness/eventually';

describe('admin-ajax through the front door', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('logs a signed-in request under its action with its user, and an action of nobody\'s as admin-ajax', async () => {
    const records: RequestRecord[] = [];
    const log = Object.assign((record: RequestRecord) => void records.push(record), { flush: async () => undefined }) as RequestLogger;
    const server = http.createServer(frontDoor({ trustedProxies: NO_TRUSTED_PROXIES, health: new Health(memoryLogger()), log }, () => oracle.app));
    try {
      const signedIn = await request(server).get('/wp-admin/admin-ajax.php?action=logged-in').set('Cookie', cookieOf('agent1'));
      assert.deepEqual([signedIn.status, signedIn.text], [200, '1']);
      assert.equal((await request(server).get('/wp-admin/admin-ajax.php?action=nobodys-action')).status, 400);
      // Each answer is logged once it has been sent.
      await eventually(async () => records.length === 2, 2000);
      assert.deepEqual(records.map((r) => [r.route, r.user_id]), [['admin-ajax:logged-in', credentials.sessions.agent1.user_id], ['admin-ajax', 0]]);
    } finally {
      server.close();
    }
  });
});
