/** The item schemas' test (../item-schemas.test.ts): what a presenter showed, and the schema it shows. */
import { SchemaDocument } from '../../../lib/wp/rest/schema-refs';
import { changelogSchema } from '../../../schema/support/changelog';
import { chatAnswerSchema } from '../../../schema/support/chat-answer';
import { chatConfigSchema } from '../../../schema/support/chat-config';
import { chatHandoffSchema } from '../../../schema/support/chat-handoff';
import { chatMessageSchema } from '../../../schema/support/chat-message';
import { chatThreadSchema } from '../../../schema/support/chat-thread';
import { commonSchema } from '../../../schema/support/common';
import { deliverySchema } from '../../../schema/support/delivery';
import { docSchema } from '../../../schema/support/doc';
import { docFeedbackSchema } from '../../../schema/support/doc-feedback';
import { inboundReceiptSchema } from '../../../schema/support/inbound-receipt';
import { mailReceiptSchema } from '../../../schema/support/mail-receipt';
import { messageSchema } from '../../../schema/support/message';
import { portalCodeSchema } from '../../../schema/support/portal-code';
import { portalConfigSchema } from '../../../schema/support/portal-config';
import { portalSessionSchema } from '../../../schema/support/portal-session';
import { releaseSchema } from '../../../schema/support/release';
import { replySchema } from '../../../schema/support/reply';
import { siteSchema } from '../../../schema/support/site';
import { ticketSchema } from '../../../schema/support/ticket';

export interface Presented {
  schema: SchemaDocument & Readonly<Record<string, unknown>>;
  value: unknown;
}

/** Every document a schema of schema/support may `$ref`. */
export const ALL_SCHEMAS: readonly SchemaDocument[] = [
  commonSchema, ticketSchema, messageSchema, deliverySchema, replySchema, siteSchema, portalConfigSchema, portalCodeSchema,
  portalSessionSchema, chatMessageSchema, chatThreadSchema, chatAnswerSchema, chatHandoffSchema, chatConfigSchema,
  docSchema, docFeedbackSchema, changelogSchema, releaseSchema, mailReceiptSchema, inboundReceiptSchema,
];
