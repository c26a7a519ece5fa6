/** Reading one ticket, its conversation and its files, with the same access rule for all three. */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { Actor, seesAgentData } from './actor';
import { readAttachmentFile, sniffImageType, uploadsDirOf, InlineImageType } from './attachments';
import { canSeeTicket, ticketNotFound } from './policy';
import { findTicket, loadConversation } from './store';
import { Attachment, Conversation } from './types';

/** The conversation as the actor may see it; someone else's ticket is "not found", like a missing one. */
export async function viewConversation(site: Site, actor: Actor, ticketId: number): Promise<Conversation> {
  const ticket = await findTicket(site.db, ticketId);
  if (!ticket || !canSeeTicket(actor, ticket)) throw ticketNotFound();
  return loadConversation(site.db, ticket, seesAgentData(actor));
}

export interface AttachmentFile {
  attachment: Attachment;
  bytes: Buffer;
  /** Set only when the bytes really are an inline-safe image. */
  imageType: InlineImageType | null;
}

/** A file of the conversation the actor can see (not of an internal note, for customers). */
export async function attachmentFile(site: Site, actor: Actor, ticketId: number, fileId: number): Promise<AttachmentFile> {
  const conversation = await viewConversation(site, actor, ticketId);
  const attachment = conversation.attachments.find((a) => a.id === fileId);
  if (!attachment) throw new WpError('svc_attachment_not_found', 'Attachment not found.', 404);
  const bytes = await readAttachmentFile(uploadsDirOf(site.config), attachment.file);
  if (!bytes) throw new WpError('svc_attachment_missing', 'The attachment file is missing from the uploads folder.', 404);
  return { attachment, bytes, imageType: sniffImageType(bytes) };
}
