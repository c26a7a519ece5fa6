/**
 * Opening a ticket from a connected site (`POST /sites/<site-id>/tickets`; docs/sites.md). The ticket
 * is written by openTicket(), as every new ticket is (first message, files typed by their bytes, the
 * `ticket_created` team alert, in one transaction), with source `site` and the site's id. What a
 * browser may send is narrower than what the site's server may: no metadata, no files, the site's
 * message limit, and nothing at all while the site's new tickets are closed; a browser's ticket is
 * marked as from an unverified requester. `page_url` is kept as WordPress keeps a `format: uri` field,
 * cleaned by esc_url_raw().
 */
import { WpError } from '../../wp/errors';
import { escUrlRaw } from '../../wp/formatting';
import { serialize } from '../../wp/php';
import { addPostMeta } from '../../wp/posts';
import { Site } from '../../wp/site';
import { checkFileCount } from '../tickets/attachments';
import { openTicket } from '../tickets/create';
import { accountOwning } from '../tickets/customer-email';
import { unprovenRequester } from '../tickets/requester';
import { ticketNotFound } from '../tickets/policy';
import { TICKET_SITE_META } from '../tickets/rows';
import { findTicket, loadConversation } from '../tickets/store';
import { Conversation, IncomingFile } from '../tickets/types';
import { writeSupport } from '../write';
import { SiteCaller } from './caller';
import { ConnectedSite } from './store';

/** A file a site's server sends inside the JSON body. */
export interface Base64File {
  filename: string;
  content_type?: string;
  /** The bytes, base64 (RFC 4648, standard alphabet; line breaks allowed). */
  data: string;
}

export interface SiteTicketInput {
  email: string;
  name: string;
  subject: string;
  message: string;
  pageUrl?: string;
  /** Server requests only: kept with the ticket and shown to agents. */
  metadata?: Record<string, unknown>;
  /** Server requests only. */
  attachments?: Base64File[];
}

/** The largest metadata kept, as JSON: it is shown with the ticket to every agent who opens it. */
export const METADATA_MAX_BYTES = 16 * 1024;

/** The ticket as it was opened; the customer is linked to the WordPress user with that email, if any. */
export async function openSiteTicket(site: Site, caller: SiteCaller, input: SiteTicketInput): Promise<Conversation> {
  checkCallerMayOpen(caller, input);
  const files = decodeAttachments(input.attachments ?? []);
  checkFileCount(files);
  const metadata = metadataToKeep(input.metadata);
  const customer = await requesterOf(site, caller, input);
  const ticketId = await writeSupport(site, {}, async (ctx) => {
    const { ticketId: id } = await openTicket(site, ctx, {
      subject: input.subject, body: input.message, source: 'site', siteId: caller.site.siteId, files,
      customer: { ...customer, email: input.email },
      // Whoever's address it is, a message from a site's form speaks for a customer, never an agent.
      authorKind: 'customer',
      requesterUnverified: caller.kind === 'browser' ? 'site_form' : undefined,
    });
    const meta: Record<string, string> = {};
    const pageUrl = escUrlRaw(input.pageUrl ?? '');
    if (pageUrl) meta[TICKET_SITE_META.pageUrl] = pageUrl;
    if (metadata !== null) meta[TICKET_SITE_META.metadata] = serialize(metadata);
    await addPostMeta(ctx.trx, ctx.tables, id, meta);
    return id;
  });
  const ticket = await findTicket(site.db, ticketId);
  if (!ticket) throw ticketNotFound();
  return withNameAsSent(await loadConversation(site.db, ticket, false), input.name);
}

/**
 * The customer: the account owning the address, if any. The site's server vouches for whom it sends
 * (it holds the key, and signs its own users in), so its name stands; a browser's form proves nothing,
 * so its requester is unproven and an account's own name replaces the one typed. Read before the
 * write's transaction (which on SQLite holds the only connection).
 */
async function requesterOf(site: Site, caller: SiteCaller, input: SiteTicketInput): Promise<{ userId: number; name: string }> {
  if (caller.kind === 'browser') return unprovenRequester(site, input.email, input.name);
  return { userId: (await accountOwning(site, input.email))?.ID ?? 0, name: input.name };
}

/** The answer shows the name as it was sent: whether the address has an account, and its name, are not the caller's to learn. */
function withNameAsSent(conversation: Conversation, name: string): Conversation {
  return {
    ...conversation,
    ticket: { ...conversation.ticket, customerName: name },
    messages: conversation.messages.map((m) => ({ ...m, authorName: name })),
  };
}

/** What only the site's server may do, and what the site's settings allow its pages. */
function checkCallerMayOpen(caller: SiteCaller, input: SiteTicketInput): void {
  if (caller.kind === 'server') return;
  const serverOnly = (['metadata', 'attachments'] as const).filter((field) => input[field] !== undefined);
  if (serverOnly.length) {
    throw new WpError('svc_site_key_needed', `Only the site's server (with the site key) may send ${serverOnly.join(' and ')}.`, 403, { fields: serverOnly });
  }
  checkNewTicketsOpen(caller.site);
  checkMessageLength(caller.site, input.message);
}

/** The site's pages (its form, its portal) open tickets only while the site takes new ones. */
export function checkNewTicketsOpen(site: ConnectedSite): void {
  if (!site.newTickets) throw new WpError('svc_new_tickets_closed', 'This site does not take new tickets at the moment.', 403);
}

/** A message from the site's pages is at most the site's message limit, in characters. */
export function checkMessageLength(site: ConnectedSite, message: string): void {
  const length = [...message].length;
  if (length > site.messageLimit) {
    throw new WpError('svc_message_too_long', `The message is longer than this site accepts (${site.messageLimit} characters).`, 400, {
      max_length: site.messageLimit, length,
    });
  }
}

/** The metadata to keep (null when none or empty); more than METADATA_MAX_BYTES of JSON is refused. */
function metadataToKeep(metadata: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (metadata === undefined || !Object.keys(metadata).length) return null;
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (bytes > METADATA_MAX_BYTES) {
    throw new WpError('svc_metadata_too_large', `The metadata is larger than a ticket keeps (${METADATA_MAX_BYTES} bytes of JSON).`, 400, { max_bytes: METADATA_MAX_BYTES });
  }
  return metadata;
}

/** The files as ticket attachments take them: the declared type is only a claim (attachFiles() types by bytes). */
export function decodeAttachments(items: readonly Base64File[]): IncomingFile[] {
  return items.map((item, index) => {
    const text = item.data.replace(/[\r\n\t ]+/g, '');
    if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
      throw new WpError('svc_invalid_attachment', `attachments[${index}].data is not base64.`, 400, { index });
    }
    return { filename: item.filename, mimeType: item.content_type ?? '', data: Buffer.from(text, 'base64') };
  });
}
