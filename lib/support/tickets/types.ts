/** The support desk's resources as the domain sees them (API names; see storage.ts for the rows). */

export type TicketStatus = 'open' | 'waiting' | 'resolved';
export type TicketPriority = 'normal' | 'high' | 'urgent';
export type Visibility = 'public' | 'internal';
export type AuthorKind = 'customer' | 'agent' | 'system';
export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

export const TICKET_STATUSES: readonly TicketStatus[] = ['open', 'waiting', 'resolved'];
export const TICKET_PRIORITIES: readonly TicketPriority[] = ['normal', 'high', 'urgent'];

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
}

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

/** A ticket with its conversation, as stored. */
export interface Conversation {
  ticket: Ticket;
  messages: Message[];
  attachments: Attachment[];
  deliveries: Delivery[];
}

/** A file that arrived with a request: in memory (an email part) or on disk (an upload streamed there). */
export type IncomingFile = {
  filename: string;
  mimeType: string;
  /** An email part's Content-ID (without `<>`), for inline images. */
  contentId?: string;
} & ({ data: Buffer } | { path: string });
