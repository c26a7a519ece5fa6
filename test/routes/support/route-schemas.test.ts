/**
 * OPTIONS on every support/v1 route documents the item schema of what the route answers
 * (WordPress's OPTIONS answer carries `schema`), as publicItemSchema() shows it; the routes that
 * answer no resource (internal reports and tools) document none, by decision (docs/architecture.md,
 * "What OPTIONS documents"). A route added without that decision fails here.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { routeSchema } from '../../../lib/wp/rest/item-schema';
import { changelogSchema } from '../../../schema/support/changelog';
import { chatAnswerSchema } from '../../../schema/support/chat-answer';
import { chatConfigSchema } from '../../../schema/support/chat-config';
import { chatHandoffSchema } from '../../../schema/support/chat-handoff';
import { chatThreadSchema } from '../../../schema/support/chat-thread';
import { deliverySchema } from '../../../schema/support/delivery';
import { docSchema } from '../../../schema/support/doc';
import { docFeedbackSchema } from '../../../schema/support/doc-feedback';
import { inboundReceiptSchema } from '../../../schema/support/inbound-receipt';
import { mailReceiptSchema } from '../../../schema/support/mail-receipt';
import { portalCodeSchema } from '../../../schema/support/portal-code';
import { portalConfigSchema } from '../../../schema/support/portal-config';
import { portalSessionSchema } from '../../../schema/support/portal-session';
import { releaseSchema } from '../../../schema/support/release';
import { replySchema } from '../../../schema/support/reply';
import { ticketSchema } from '../../../schema/support/ticket';
import { TestSite, openTestSite } from '../../harness/site';
import { API } from '../../harness/support';
import { ALL_SCHEMAS } from '../../schema/item-schemas/presented';

type ItemSchema = (typeof ALL_SCHEMAS)[number] & Readonly<Record<string, unknown>>;

/** Each route (as the namespace index lists it, without `/support/v1`) and the item schema it documents, or null. */
const DOCUMENTED: Record<string, ItemSchema | null> = {
  '/tickets': ticketSchema,
  '/tickets/(?P<id>[\\d]+)': ticketSchema,
  '/tickets/(?P<id>[\\d]+)/messages': replySchema,
  '/tickets/(?P<id>[\\d]+)/deliveries/(?P<delivery_id>[\\d]+)': deliverySchema,
  // A file of the ticket: the routes that serve one document the ticket.
  '/tickets/(?P<id>[\\d]+)/attachments/(?P<file_id>[\\d]+)': ticketSchema,
  '/webhooks/relay/(?P<route_key>[\\w-]+)': inboundReceiptSchema,
  '/webhooks/inbound/(?P<route_key>[\\w-]+)': inboundReceiptSchema,
  '/mail/admin/ignored': mailReceiptSchema,
  '/mail/admin/ignored/(?P<receipt_id>[0-9a-f]{32})/ticket': ticketSchema,
  '/sites/(?P<site_id>[\\w-]+)/tickets': ticketSchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/config': portalConfigSchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/code': portalCodeSchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/session': portalSessionSchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/tickets': ticketSchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/tickets/(?P<id>[\\d]+)': ticketSchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/tickets/(?P<id>[\\d]+)/messages': replySchema,
  '/sites/(?P<site_id>[\\w-]+)/portal/tickets/(?P<id>[\\d]+)/attachments/(?P<file_id>[\\d]+)': ticketSchema,
  '/docs/search': docSchema,
  '/docs/(?P<id>[\\d]+)/feedback': docFeedbackSchema,
  '/changelogs': changelogSchema,
  '/changelogs/(?P<product>[^/]+)': releaseSchema,
  '/chat/config': chatConfigSchema,
  '/chat/messages': chatAnswerSchema,
  '/chat/threads/(?P<uuid>[0-9a-fA-F-]{36})': chatThreadSchema,
  '/chat/handoff': chatHandoffSchema,
  // Internal tools and reports: no resource.
  '/changelogs/admin/parse': null,
  '/changelogs/admin/probe': null,
  '/changelogs/admin/(?P<id>[\\d]+)/sync': null,
  '/chat/admin/test': null,
  '/chat/admin/learn': null,
  '/chat/admin/learning': null,
};

/** A URL the route matches: each parameter filled with a value of its pattern. */
const EXAMPLES: Record<string, string> = {
  id: '5', delivery_id: '8', file_id: '7', route_key: 'help', receipt_id: 'a'.repeat(32), site_id: 'abcdefghijkl',
  product: 'widget', uuid: '3f1c2b9e-6d4a-4f7e-9a51-0c2d8e7b6a14',
};
const urlOf = (route: string) => `${API}${route.replace(/\(\?P<(\w+)>[^)]*\)/g, (_, name: string) => EXAMPLES[name] as string)}`;

describe('OPTIONS on support/v1 routes', function () {
  let t: TestSite;
  before(async () => { t = await openTestSite(); });
  after(async () => { await t?.close(); });

  it('has a decision for every route: the item schema it documents, or none', async () => {
    const index = await request(t.app).get(API);
    const routes = Object.keys(index.body.routes).filter((r) => r !== '/support/v1').map((r) => r.slice('/support/v1'.length));
    assert.deepEqual([...routes].sort(), Object.keys(DOCUMENTED).sort());
  });

  for (const [route, schema] of Object.entries(DOCUMENTED)) {
    it(`${route}: ${schema ? `documents ${String(schema.$id)}` : 'documents no schema'}`, async () => {
      const res = await request(t.app).options(urlOf(route));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.namespace, 'support/v1');
      if (schema) assert.deepEqual(res.body.schema, routeSchema(schema, ALL_SCHEMAS)());
      else assert.equal(res.body.schema, undefined);
    });
  }
});
