/**
 * The support desk's resources as the domain sees them (API names; see rows.ts for the rows). The
 * enums are the item schemas' own (schema/support/), inferred with json-schema-to-ts: a status,
 * priority, visibility, author kind or delivery status is written there and nowhere else.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { PlainValue } from '../../wp/php';
import { deliverySchema } from '../../../schema/support/delivery';
import { messageSchema } from '../../../schema/support/message';
import { ticketSchema } from '../../../schema/support/ticket';
import { ticketOperations } from '../../../schema/support/ticket-args';

export type TicketStatus = FromSchema<typeof ticketSchema.properties.status>;
export type TicketPriority = FromSchema<typeof ticketSchema.properties.priority>;
export type Visibility = FromSchema<typeof messageSchema.properties.visibility>;
export type AuthorKind = FromSchema<typeof messageSchema.properties.author.properties.kind>;
export type DeliveryStatus = FromSchema<typeof deliverySchema.properties.status>;

export const TICKET_STATUSES: readonly TicketStatus[] = ticketSchema.properties.status.enum;
export const TICKET_PRIORITIES: readonly TicketPriority[] = ticketSchema.properties.priority.enum;
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = deliverySchema.properties.status.enum;

/** What an agent may do to a delivery, and which tickets a list is limited to: the operations' own values. */
export type DeliveryAction = (typeof ticketOperations.delivery.action.enum)[number];
export type Assignment = (typeof ticketOperations.list.assignment.enum)[number];

/** A change of a ticket's status, priority or assignee, from the version the caller read. */
export interface TicketChanges {
  version: number;
  status?: TicketStatus;
  priority?: TicketPriority;
  /** A user ID, or null/0 to unassign. */
  assignee?: number | null;
}

export interface Ticket {
  id: number;
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  source: string;
  customerName: string;
  customerEmail: string;
  /** WordPress user ID of the customer, 0 without an account. */
  customerId: number;
  /** Agent's user ID, or null when unassigned. */
  assigneeId: number | null;
  version: number;
  /** Site-local `YYYY-MM-DD HH:MM:SS`. */
  createdAt: string;
  /** Last activity, site-local (`post_modified`). */
  updatedAt: string;
  siteId: string | null;
  mailbox: string | null;
  /** How the requester was given when nothing proved them (`_svc_requester_unverified`), else null. */
  requesterUnverified: string | null;
}

/**
 * How a ticket's requester was given when nothing proved they own the address (docs/support-desk.md,
 * "Unverified requesters"): an anonymous chat handoff, a site's form without its key, mail an
 * automation tool posted (no relay vouched for its sender).
 */
export type UnverifiedRequester = 'chat_handoff' | 'site_form' | 'inbound_webhook';

export interface Message {
  id: number;
  ticketId: number;
  body: string;
  visibility: Visibility;
  authorId: number;
  authorName: string;
  authorEmail: string;
  authorKind: AuthorKind;
  createdAt: string;
  messageId: string | null;
  inReplyTo: string | null;
}

export interface Attachment {
  id: number;
  messageId: number;
  filename: string;
  mimeType: string;
  /** Path relative to the uploads folder (`_wp_attached_file`). */
  file: string;
}

export interface Delivery {
  id: number;
  messageId: number;
  status: DeliveryStatus;
  attempts: number;
  recipient: string;
  lastError: string;
  updatedAt: string;
}

/** What a connected site sent with the ticket it opened (read for agents' views only). */
export interface SiteDetails {
  pageUrl: string | null;
  /** The server's metadata as PHP's json_encode() would show the stored array, or null. */
  metadata: PlainValue | null;
}

/** A ticket with its conversation, as stored. */
export interface Conversation {
  ticket: Ticket;
  messages: Message[];
  attachments: Attachment[];
  deliveries: Delivery[];
  /** Read with internal notes (agents' views); absent otherwise. */
  siteDetails?: SiteDetails;
  /** Agents' views: the raw From of an email that named no usable sender, else null. */
  rawFrom?: string | null;
}

/** A file that arrived with a request: in memory (an email part) or on disk (an upload streamed there). */
export type IncomingFile = {
  filename: string;
  mimeType: string;
  /** An email part's Content-ID (without `<>`), for inline images. */
  contentId?: string;
} & ({ data: Buffer } | { path: string });
