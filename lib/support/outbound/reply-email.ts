/**
 * The email of an agent's public reply to the customer: addressed to the delivery's recipient, from
 * the site, with a reply address that leads back into the ticket, threading headers, the reply's
 * text and its attachments. The Message-ID is the reply's own (`_svc_message_id`), so sending it again
 * after a crash is the same message to the receiving side, which drops the repeat.
 */
import { MailMessage } from '../../mail/mailer';
import { Site } from '../../wp/site';
import { readAttachmentFile, uploadsDirOf } from '../tickets/attachments';
import { Conversation, Delivery, Message } from '../tickets/types';
import { formatAddress, replyAddressFor, senderFor } from './addresses';
import { replySubject, threadHeadersFor } from './threading';

export async function composeReplyEmail(site: Site, conversation: Conversation, delivery: Delivery): Promise<MailMessage> {
  const { ticket } = conversation;
  const message = conversation.messages.find((m) => m.id === delivery.messageId);
  if (!message || message.visibility !== 'public') throw new Error(`Message ${delivery.messageId} is not a public reply of ticket ${ticket.id}.`);
  if (!message.messageId) throw new Error(`Message ${message.id} has no Message-ID.`);
  const thread = threadHeadersFor(conversation, message);
  return {
    to: formatAddress(ticket.customerName, delivery.recipient || ticket.customerEmail),
    from: await senderFor(site),
    replyTo: await replyAddressFor(site, ticket),
    subject: replySubject(ticket.subject, ticket.id),
    text: message.body,
    messageId: message.messageId,
    inReplyTo: thread.inReplyTo,
    references: thread.references,
    attachments: await attachmentsOf(site, conversation, message),
  };
}

/** The reply's files, read from the private uploads folder; a missing file fails the delivery. */
async function attachmentsOf(site: Site, conversation: Conversation, message: Message): Promise<MailMessage['attachments']> {
  const files = conversation.attachments.filter((a) => a.messageId === message.id);
  const uploadsDir = uploadsDirOf(site.config);
  return Promise.all(files.map(async (file) => {
    const content = await readAttachmentFile(uploadsDir, file.file);
    if (!content) throw new Error(`Attachment ${file.id} (${file.filename}) is missing from the uploads folder.`);
    return { filename: file.filename, content, contentType: file.mimeType || 'application/octet-stream' };
  }));
}
