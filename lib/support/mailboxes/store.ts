/**
 * Mailboxes in the storage map's shape: a `svc_mailbox` post whose `post_name` is the mailbox key and
 * whose `post_title` is the address, with its settings in `_svc_*` postmeta (docs/mail-intake.md).
 * Lookups read the tables every time: a rotated token or a switched-off mailbox takes effect at once.
 */
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { phpFlag } from '../../wp/php';
import { postMetaFor, singleMetaValues } from '../../wp/posts';
import { Site } from '../../wp/site';
import { insertNamedPost, updateNamedPost } from '../named-posts';

export const MAILBOX_POST_TYPE = 'svc_mailbox';

export const MAILBOX_META = {
  address: '_svc_address',
  tokenHash: '_svc_token_hash',
  relaySecret: '_svc_relay_secret',
  maxBytes: '_svc_max_bytes',
  automation: '_svc_automation',
} as const;

/** What a mailbox accepts from automation tools when nothing else is set. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** The contract's fixed limit of the relay route, whatever the mailbox's own limit. */
export const RELAY_MAX_BYTES = 3 * 1024 * 1024;
/** Bounds of `max_bytes`: a message needs some room, and the whole body is held in memory while it is parsed. */
export const MIN_MAX_BYTES = 1024;
export const MAX_MAX_BYTES = 50 * 1024 * 1024;

export interface Mailbox {
  id: number;
  key: string;
  address: string;
  /** SHA-256 (hex) of the mailbox token; the token itself is never stored. */
  tokenHash: string;
  relaySecret: string;
  maxBytes: number;
  /** Whether automation tools may use the inbound route. */
  automation: boolean;
}

export type NewMailbox = Omit<Mailbox, 'id'>;

/** The published mailbox with this key, or null. */
export async function findMailbox(db: Database, key: string, trx?: Knex.Transaction): Promise<Mailbox | null> {
  const knex = trx ?? db.knex;
  const row = await knex(db.tables.posts).where({ post_type: MAILBOX_POST_TYPE, post_name: key, post_status: 'publish' })
    .orderBy('ID').first('ID', 'post_name');
  if (!row) return null;
  const [mailbox] = await withMeta(knex, db, [row]);
  return mailbox ?? null;
}

/** Every published mailbox, by key. */
export async function listMailboxes(db: Database): Promise<Mailbox[]> {
  const rows = await db.knex(db.tables.posts).where({ post_type: MAILBOX_POST_TYPE, post_status: 'publish' })
    .orderBy('post_name').orderBy('ID').select('ID', 'post_name');
  return withMeta(db.knex, db, rows);
}

export async function insertMailbox(site: Site, mailbox: NewMailbox): Promise<number> {
  return insertNamedPost(site, { type: MAILBOX_POST_TYPE, name: mailbox.key, title: mailbox.address, meta: metaOf(mailbox) });
}

/** Changes some settings of a mailbox (the address is also its post title). */
export async function updateMailbox(site: Site, id: number, changes: Partial<NewMailbox>): Promise<void> {
  await updateNamedPost(site, id, metaOf(changes), changes.address);
}

function metaOf(m: Partial<NewMailbox>): Record<string, string | number> {
  const meta: Record<string, string | number> = {};
  if (m.address !== undefined) meta[MAILBOX_META.address] = m.address;
  if (m.tokenHash !== undefined) meta[MAILBOX_META.tokenHash] = m.tokenHash;
  if (m.relaySecret !== undefined) meta[MAILBOX_META.relaySecret] = m.relaySecret;
  if (m.maxBytes !== undefined) meta[MAILBOX_META.maxBytes] = m.maxBytes;
  if (m.automation !== undefined) meta[MAILBOX_META.automation] = m.automation ? '1' : '0';
  return meta;
}

async function withMeta(knex: Knex | Knex.Transaction, db: Database, rows: Array<{ ID: number | string; post_name: string }>): Promise<Mailbox[]> {
  const meta = await postMetaFor(knex, db.tables, rows.map((r) => Number(r.ID)), Object.values(MAILBOX_META));
  return rows.map((row) => {
    const m = singleMetaValues(meta.get(Number(row.ID)));
    const maxBytes = Number(m.get(MAILBOX_META.maxBytes));
    return {
      id: Number(row.ID),
      key: String(row.post_name),
      address: m.get(MAILBOX_META.address) ?? '',
      tokenHash: m.get(MAILBOX_META.tokenHash) ?? '',
      relaySecret: m.get(MAILBOX_META.relaySecret) ?? '',
      maxBytes: Number.isInteger(maxBytes) && maxBytes > 0 ? Math.min(maxBytes, MAX_MAX_BYTES) : DEFAULT_MAX_BYTES,
      automation: phpFlag(m.get(MAILBOX_META.automation), false),
    };
  });
}
