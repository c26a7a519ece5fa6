/** An ignored message as agents see it, and the receipt a mail webhook answers (an ignored one, with its reason). */
import { presentIgnoredMail } from '../../../lib/support/inbound/ignored-mail';
import { presentReceipt } from '../../../lib/support/inbound/present';
import { Site } from '../../../lib/wp/site';
import { inboundReceiptSchema } from '../../../schema/support/inbound-receipt';
import { mailReceiptSchema } from '../../../schema/support/mail-receipt';
import { Presented } from './presented';

export async function presentMailSchemas(site: Site): Promise<Presented[]> {
  const receipt = {
    receiptId: 'a'.repeat(32), outcome: 'ignored', reason: 'auto_submitted', ticketId: 5, messageId: null,
    rawFrom: 'Robot <robot@example.net>', subject: 'Out of office', rawFile: null, mailbox: 'help', relayed: false, createdAt: 1_790_000_000,
  } as const;
  return [
    { schema: mailReceiptSchema, value: await presentIgnoredMail(site, { ...receipt }) },
    { schema: inboundReceiptSchema, value: presentReceipt({ ...receipt }) },
  ];
}
