/**
 * The storage map of tickets and messages (../shared/docs/storage-map.md, fixed there): which post
 * types, statuses and meta keys hold which field, and turning rows into domain objects.
 */
import { PhpArray, maybeUnserialize, toPlain } from '../../wp/php';
import { Attachment, AuthorKind, DELIVERY_STATUSES, Delivery, DeliveryStatus, Message, SiteDetails, Ticket, TicketPriority, TicketStatus } from './types';

export const POST_TYPE = { ticket: 'svc_ticket', message: 'svc_message', delivery: 'svc_delivery', attachment: 'attachment' } as const;

const STATUS_TO_POST: Record<TicketStatus, string> = { open: 'svc-open', waiting: 'svc-waiting', resolved: 'svc-resolved' };
export const TICKET_POST_STATUSES = Object.values(STATUS_TO_POST);

export const TICKET_META = {
  priority: '_svc_priority',
  source: '_svc_source',
  customerName: '_svc_customer_name',
  customerEmail: '_svc_customer_email',
  assignee: '_svc_assignee',
  version: '_svc_version',
  siteId: '_svc_site_id',
  mailbox: '_svc_mailbox',
  requesterUnverified: '_svc_requester_unverified',
} as const;

/**
 * What a connected site sent with a ticket it opened (docs/sites.md): the page it was opened from and
 * the server's metadata (a PHP-serialized array). Agents see both on the single ticket; they are not
 * read for lists.
 */
export const TICKET_SITE_META = {
  pageUrl: '_svc_page_url',
  metadata: '_svc_site_metadata',
} as const;

/**
 * The From header of an email whose sender could not be read as one mailbox (docs/mail-intake.md,
 * "Mail without a usable sender"): such a ticket has no customer, and agents see this instead.
 */
export const RAW_FROM_META = '_svc_raw_from';

export const MESSAGE_META = {
  authorName: '_svc_author_name',
  authorEmail: '_svc_author_email',
  authorKind: '_svc_author_kind',
  messageId: '_svc_message_id',
  inReplyTo: '_svc_in_reply_to',
} as const;

export const DELIVERY_META = {
  status: '_svc_delivery_status',
  attempts: '_svc_attempts',
  recipient: '_svc_recipient',
  lastError: '_svc_last_error',
} as const;

export const ATTACHED_FILE_META = '_wp_attached_file';
/** The Content-ID of an email's inline image, so an HTML view can resolve its `cid:` links to the file. */
export const CONTENT_ID_META = '_svc_content_id';

export function postStatusOf(status: TicketStatus): string {
  return STATUS_TO_POST[status];
}

export function ticketStatusOf(postStatus: string): TicketStatus {
  const found = (Object.keys(STATUS_TO_POST) as TicketStatus[]).find((s) => STATUS_TO_POST[s] === postStatus);
  return found ?? 'open';
}

export type MetaMap = Map<string, string>;
export interface PostRow {
  ID: number | string;
  post_title?: string;
  post_content?: string;
  post_status: string;
  post_date: string;
  post_modified?: string;
  post_author: number | string;
  post_parent?: number | string;
  post_type?: string;
  post_mime_type?: string;
}

/** A ticket's priority as stored: `high` and `urgent` as such, anything else (or none) `normal`. */
export function priorityOf(meta: MetaMap): TicketPriority {
  const priority = meta.get(TICKET_META.priority);
  return priority === 'high' || priority === 'urgent' ? priority : 'normal';
}

/** The assigned agent's user ID, or null (none, 0, or not a number). */
export function assigneeOf(meta: MetaMap): number | null {
  const assignee = Number(meta.get(TICKET_META.assignee) ?? 0);
  return assignee > 0 ? assignee : null;
}

/** How an unproven requester was given, or null: read as PHP reads a flag (absent, '' and '0' are no mark). */
function requesterUnverifiedOf(meta: MetaMap): string | null {
  const value = meta.get(TICKET_META.requesterUnverified);
  return value && value !== '0' ? value : null;
}

export function toTicket(row: PostRow, meta: MetaMap = new Map()): Ticket {
  return {
    id: Number(row.ID),
    subject: String(row.post_title ?? ''),
    status: ticketStatusOf(row.post_status),
    priority: priorityOf(meta),
    source: meta.get(TICKET_META.source) || 'web',
    customerName: meta.get(TICKET_META.customerName) ?? '',
    customerEmail: meta.get(TICKET_META.customerEmail) ?? '',
    customerId: Number(row.post_author) || 0,
    assigneeId: assigneeOf(meta),
    version: Number(meta.get(TICKET_META.version) ?? 0) || 0,
    createdAt: String(row.post_date),
    updatedAt: String(row.post_modified ?? row.post_date),
    siteId: meta.get(TICKET_META.siteId) || null,
    mailbox: meta.get(TICKET_META.mailbox) || null,
    requesterUnverified: requesterUnverifiedOf(meta),
  };
}

export function toMessage(row: PostRow, meta: MetaMap = new Map()): Message {
  const kind = meta.get(MESSAGE_META.authorKind);
  return {
    id: Number(row.ID),
    ticketId: Number(row.post_parent ?? 0),
    body: String(row.post_content ?? ''),
    visibility: row.post_status === 'private' ? 'internal' : 'public',
    authorId: Number(row.post_author) || 0,
    authorName: meta.get(MESSAGE_META.authorName) ?? '',
    authorEmail: meta.get(MESSAGE_META.authorEmail) ?? '',
    authorKind: kind === 'agent' || kind === 'system' ? (kind as AuthorKind) : 'customer',
    createdAt: String(row.post_date),
    messageId: meta.get(MESSAGE_META.messageId) || null,
    inReplyTo: meta.get(MESSAGE_META.inReplyTo) || null,
  };
}

/** The page URL and metadata a connected site sent; metadata that is not a stored array shows as null. */
export function toSiteDetails(meta: MetaMap = new Map()): SiteDetails {
  const stored = meta.get(TICKET_SITE_META.metadata);
  const value = stored === undefined ? undefined : maybeUnserialize(stored);
  const isArray = Array.isArray(value) || value instanceof PhpArray;
  return {
    pageUrl: meta.get(TICKET_SITE_META.pageUrl) || null,
    metadata: isArray ? toPlain(value) : null,
  };
}

export function toAttachment(row: PostRow, meta: MetaMap = new Map()): Attachment {
  return {
    id: Number(row.ID),
    messageId: Number(row.post_parent ?? 0),
    filename: String(row.post_title ?? ''),
    mimeType: String(row.post_mime_type ?? ''),
    file: meta.get(ATTACHED_FILE_META) ?? '',
  };
}

export function toDelivery(row: PostRow, meta: MetaMap = new Map()): Delivery {
  const status = meta.get(DELIVERY_META.status);
  return {
    id: Number(row.ID),
    messageId: Number(row.post_parent ?? 0),
    status: DELIVERY_STATUSES.includes(status as DeliveryStatus) ? (status as DeliveryStatus) : 'queued',
    attempts: Number(meta.get(DELIVERY_META.attempts) ?? 0) || 0,
    recipient: meta.get(DELIVERY_META.recipient) ?? '',
    lastError: meta.get(DELIVERY_META.lastError) ?? '',
    updatedAt: String(row.post_modified ?? row.post_date),
  };
}
