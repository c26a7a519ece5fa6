/**
 * Ticket writes never read WordPress options inside their transaction: on SQLite the transaction holds
 * the only connection, so a read that missed the cache there would wait on itself until the pool gave up.
 */
import assert from 'node:assert/strict';
import { actorOf } from '../../../../lib/support/tickets/actor';
import { createTicket } from '../../../../lib/support/tickets/create';
import { addReply } from '../../../../lib/support/tickets/reply';
import { updateTicket } from '../../../../lib/support/tickets/update';
import { OracleSite, openOracle } from '../../../harness/oracle';

describe('ticket writes with a cold options cache', function () {
  this.timeout(8000);
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const actor = async (login: string) => {
    const user = await oracle.site.users.byLogin(login);
    assert.ok(user);
    return actorOf(await oracle.site.auth.signedIn(user, 'application-password', ''));
  };

  it('opens, replies to and updates a ticket right after the cache was dropped', async () => {
    const customer = await actor('customer1');
    const agent = await actor('agent1');
    oracle.site.options.forgetAll();
    const { conversation } = await createTicket(oracle.site, customer, { subject: 'Cold', body: 'cache', source: 'api' });
    oracle.site.options.forgetAll();
    const { conversation: replied } = await addReply(oracle.site, agent, conversation.ticket.id, { body: 'Hi', version: 1, visibility: 'public' });
    oracle.site.options.forgetAll();
    const updated = await updateTicket(oracle.site, agent, conversation.ticket.id, { version: replied.ticket.version, priority: 'high' });
    assert.equal(updated.priority, 'high');
    assert.equal(updated.version, 3);
  });
});
