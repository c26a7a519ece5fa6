/**
 * support/v1 attachment downloads. Always a download, except an image whose BYTES are PNG, JPEG, GIF,
 * WebP or AVIF when `inline=1` is asked for; never sniffable, never able to run script.
 */
import { RawResponse, RestRequest, endpoint, requireSignedIn } from '../../lib/wp/rest/route';
import { Attachment } from '../../lib/support/tickets/types';
import { AttachmentFile, attachmentFile } from '../../lib/support/tickets/view';
import { TicketRequest, actor, ticketArgs, ticketItemSchema } from './common';
import { supportRoute } from './kit';

export const ticketAttachment = supportRoute({
  route: '/tickets/(?P<id>[\\d]+)/attachments/(?P<file_id>[\\d]+)',
  schema: ticketItemSchema,
  endpoints: [endpoint({ methods: ['GET'], permission: requireSignedIn, args: ticketArgs.attachment, handler: downloadAttachment })],
});

async function downloadAttachment(req: TicketRequest<'attachment'>): Promise<RawResponse> {
  return attachmentDownload(await attachmentFile(req.site, actor(req), req.params.id, req.params.file_id), req.params.inline === true);
}

/**
 * Links to a ticket's attachments as `ticketRoute`'s attachment route serves them (the ticket's own
 * REST route, `/support/v1/tickets/<id>` or the portal's): written once for every route that shows them.
 */
export async function attachmentUrlFor(req: RestRequest, ticketRoute: string): Promise<(a: Attachment) => string> {
  const base = await req.site.restUrl(`${ticketRoute}/attachments/`);
  return (a) => `${base}${a.id}`;
}

/** The file as every attachment route sends it (the ticket routes', the portal's). */
export function attachmentDownload({ attachment, bytes, imageType }: AttachmentFile, inlineAsked: boolean): RawResponse {
  const inline = inlineAsked && imageType !== null;
  return new RawResponse(bytes, {
    'Content-Type': inline && imageType ? imageType : 'application/octet-stream',
    'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', attachment.filename),
    'Content-Length': String(bytes.length),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
}

/** RFC 6266: an ASCII fallback name and the exact UTF-8 name. */
function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
