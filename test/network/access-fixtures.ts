/**
 * What the access matrix (access-matrix.ts) asks for, written on a network before its server starts:
 * on site 2, a customer's ticket with a file and an agent's emailed reply (a delivery), a mailbox, a
 * connected site with its portal on, a portal session and a portal ticket, a published doc, a
 * changelog product, a chat conversation, a form with a submission; on site 3, another customer's
 * ticket. Site 2's posts are numbered past site 3's, so an ID of site 2 names nothing on site 3.
 */
import { randomUUID } from 'node:crypto';
import { hashBearerSecret, newBearerSecret } from '../../lib/support/bearer-secrets';
import { insertProduct } from '../../lib/support/changelogs/writes';
import { insertThreadWithMessage } from '../../lib/support/chat/store';
import { insertDocs } from '../../lib/support/docs/store';
import { addMailbox } from '../../lib/support/mailboxes/admin';
import { portalCustomer } from '../../lib/support/portal/customer';
import { openPortalSession } from '../../lib/support/portal/sessions';
import { openPortalTicket } from '../../lib/support/portal/tickets';
import { createConnectedSite } from '../../lib/support/sites/admin';
import { Actor, actorOf } from '../../lib/support/tickets/actor';
import { createTicket } from '../../lib/support/tickets/create';
import { addReply } from '../../lib/support/tickets/reply';
import { writeSupport } from '../../lib/support/write';
import { CurrentUser } from '../../lib/wp/auth/current-user';
import { mysqlDateTime } from '../../lib/wp/dates';
import { insertPost } from '../../lib/wp/posts';
import { Site } from '../../lib/wp/site';
import { insertFormRow, insertSubmissionRow } from '../harness/forms';
import { TestNetwork } from '../harness/network';

export interface MatrixFixtures {
  /** Site 2: customer2's ticket, its file, the delivery of agent2's reply; the portal's ticket. */
  ticket: number;
  file: number;
  fileBytes: string;
  delivery: number;
  portalTicket: number;
  /** Site 3: customer3's ticket. */
  ticketOfThree: number;
  mailbox: { routeKey: string; token: string };
  connected: { siteId: string; portalToken: string };
  doc: number;
  product: string;
  productId: number;
  chat: { uuid: string; token: string };
  form: number;
  /** What the submission on site 2 holds. */
  submitted: string;
}

/** Subjects and words that name each site's things in answers. */
export const SUBJECT_TWO = 'Printer on two';
export const SUBJECT_THREE = 'Scanner on three';
export const PORTAL_SUBJECT = 'Portal question on two';
export const DOC_WORD = 'zebrafinch';

export async function arrangeFixtures(net: TestNetwork): Promise<MatrixFixtures> {
  const two = await net.site(2);
  const three = await net.site(3);
  const ticketOfThree = (await createTicket(three, await actorIn(three, net.users.customer3), { subject: SUBJECT_THREE, body: 'Hello from three', source: 'web' })).conversation.ticket.id;
  await fillPosts(two, ticketOfThree + 20);
  const fileBytes = 'receipt of site two';
  const opened = await createTicket(two, await actorIn(two, net.users.customer2), {
    subject: SUBJECT_TWO, body: 'It jams', source: 'web', files: [{ filename: 'receipt.txt', mimeType: 'text/plain', data: Buffer.from(fileBytes) }],
  });
  const ticket = opened.conversation.ticket;
  const reply = await addReply(two, await actorIn(two, net.users.agent2), ticket.id, { body: 'Try again', version: ticket.version, visibility: 'public' });
  const delivery = reply.conversation.deliveries.find((d) => d.messageId === reply.message.id);
  if (!delivery) throw new Error('an agent reply queued no delivery');
  const mailbox = await addMailbox(two, 'support', { address: 'support@two.test', automation: true });
  const connected = await createConnectedSite(two, { name: 'Shop of two', portal: true, origins: ['https://shop.test'] });
  const { token: portalToken, session } = await openPortalSession(two, connected.site.siteId, 'customer2@example.test');
  const portalTicket = (await openPortalTicket(two, portalCustomer(session, connected.site), { subject: PORTAL_SUBJECT, message: 'Where is my order?' })).ticket.id;
  const [doc] = await insertDocs(two, [{ title: 'Feeding birds', slug: 'feeding-birds', content: `How to feed a ${DOC_WORD}.`, collections: ['birds'] }]);
  const productId = await insertProduct(two, 'two-app', { name: 'Two App', type: 'app', url: 'https://two.test/app', source: '', sourceKind: 'changelog' });
  const chat = { uuid: randomUUID(), token: newBearerSecret('base64url') };
  await writeSupport(two, {}, (ctx) => insertThreadWithMessage(ctx, { uuid: chat.uuid, tokenHash: hashBearerSecret(chat.token), title: 'Hello' }, { role: 'visitor', content: 'Hello', state: 'complete' }));
  const form = await insertFormRow(two, { title: 'Contact two', slug: 'contact-two' });
  const submitted = 'A message to site two';
  await insertSubmissionRow(two, { form_id: form, data: { name: 'Ann', email: 'ann@example.test', message: submitted } });
  return {
    ticket: ticket.id, file: opened.conversation.attachments[0]?.id ?? 0, fileBytes, delivery: delivery.id, portalTicket, ticketOfThree,
    mailbox: { routeKey: mailbox.routeKey, token: mailbox.token ?? '' },
    connected: { siteId: connected.site.siteId, portalToken }, doc: doc ?? 0, product: 'two-app', productId, chat, form, submitted,
  };
}

/** The user as a ticket actor on `site` (their role there). */
async function actorIn(site: Site, userId: number): Promise<Actor> {
  const user = await site.users.byId(userId);
  if (!user) throw new Error(`no user ${userId}`);
  const caps = await site.capabilities.forUser(user);
  const current: CurrentUser = { id: user.ID, user, caps, via: 'cookie', sessionToken: '', can: (cap) => caps.can(cap) };
  return actorOf(current);
}

/** Drafts on `site` until its next post ID is past `past`. */
async function fillPosts(site: Site, past: number): Promise<void> {
  const date = { local: mysqlDateTime(site.clock.now()), gmt: mysqlDateTime(site.clock.now()) };
  for (let id = 0; id <= past; id = await insertPost(site.db.knex, site.db.tables, await site.homeUrl(), { post_type: 'post', post_status: 'draft', post_title: 'Filler', date }));
}
