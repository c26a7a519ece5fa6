/**
 * Mail intake tests: mailboxes on the oracle site, relay requests signed as a relay signs them (by the
 * site's fixed clock), the fixture corpus, and reads of what a message became in the tables.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Express } from 'express';
import request from 'supertest';
import { IssuedCredentials, MailboxSettings, addMailbox } from '../../lib/support/mailboxes/admin';
import { relaySignature } from '../../lib/support/inbound/signature';
import { Site } from '../../lib/wp/site';
import { API } from './support';

export const MAIL_FIXTURES = path.resolve(__dirname, '../../fixtures/mail');

export function fixture(name: string): Buffer {
  return fs.readFileSync(path.join(MAIL_FIXTURES, name));
}

export function addTestMailbox(site: Site, key: string, settings: MailboxSettings = {}): Promise<IssuedCredentials> {
  return addMailbox(site, key, { address: `${key}@support.example.test`, automation: true, ...settings });
}

export interface RelayOptions {
  deliveryId?: string;
  /** Unix seconds; defaults to the site's clock. */
  timestamp?: number;
  secret?: string;
  routeKey?: string;
  /** Post to this route key (default: the one signed). */
  postTo?: string;
  /** Sign this body but send `body`. */
  signedBody?: Buffer;
}

export function newDeliveryId(): string {
  return `dlv-${randomBytes(12).toString('hex')}`;
}

/** A relay POST, signed over the body unless the options say otherwise. */
export function relayPost(app: Express, site: Site, mailbox: IssuedCredentials, body: Buffer, options: RelayOptions = {}) {
  const routeKey = options.routeKey ?? mailbox.routeKey;
  return request(app).post(`${API}/webhooks/relay/${options.postTo ?? routeKey}`).set(relayHeaders(site, mailbox, body, options)).send(body);
}

/** The headers a relay sends with `body`: the Content-Type and the signature over the route key (contract section 5). */
export function relayHeaders(site: Site, mailbox: IssuedCredentials, body: Buffer, options: RelayOptions = {}): Record<string, string> {
  const deliveryId = options.deliveryId ?? newDeliveryId();
  const timestamp = String(options.timestamp ?? Math.floor(site.clock.now() / 1000));
  const signature = relaySignature(options.secret ?? mailbox.relaySecret, options.routeKey ?? mailbox.routeKey, timestamp, deliveryId, options.signedBody ?? body);
  return { 'content-type': 'message/rfc822', 'x-svc-timestamp': timestamp, 'x-svc-delivery': deliveryId, 'x-svc-signature': signature };
}

/** An inbound POST with the mailbox token as a Bearer credential. */
export function inboundPost(app: Express, mailbox: IssuedCredentials) {
  return request(app).post(`${API}/webhooks/inbound/${mailbox.routeKey}`).set('Authorization', `Bearer ${mailbox.token}`);
}

/** The receipt rows of a mailbox. */
export function receipts(site: Site, mailboxKey: string) {
  return site.db.knex(site.db.tables.plugin('svc', 'mail_receipts')).where({ mailbox: mailboxKey }).orderBy('id');
}

/** A post's meta as a plain object (first value of each key). */
export async function postMeta(site: Site, postId: number): Promise<Record<string, string>> {
  const rows = await site.db.knex(site.db.tables.postmeta).where({ post_id: postId }).orderBy('meta_id').select('meta_key', 'meta_value');
  const meta: Record<string, string> = {};
  for (const row of rows) if (!(row.meta_key in meta)) meta[row.meta_key] = String(row.meta_value);
  return meta;
}

/** The attachment posts of a message, by ID. */
export function attachmentRows(site: Site, messageId: number) {
  return site.db.knex(site.db.tables.posts).where({ post_parent: messageId, post_type: 'attachment' }).orderBy('ID');
}

/** How many rows a table has (to show that something stored nothing). */
export async function countRows(site: Site, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = await site.db.knex(table).where(where).count({ n: '*' });
  return Number((row as { n: number | string }).n);
}
