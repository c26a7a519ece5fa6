/**
 * The schema documents of support/v1, one list: each item schema and the shared definitions, named
 * by `$id` in the operations' `$ref`s (schema/support/*-args.ts) and resolved among these when a route
 * builds its args (lib/wp/rest/item-schema.ts operations()) or shows its item schema.
 */
import { changelogSchema } from './changelog';
import { chatAnswerSchema } from './chat-answer';
import { chatConfigSchema } from './chat-config';
import { chatHandoffSchema } from './chat-handoff';
import { chatMessageSchema } from './chat-message';
import { chatThreadSchema } from './chat-thread';
import { commonSchema } from './common';
import { deliverySchema } from './delivery';
import { docSchema } from './doc';
import { docFeedbackSchema } from './doc-feedback';
import { inboundReceiptSchema } from './inbound-receipt';
import { mailReceiptSchema } from './mail-receipt';
import { messageSchema } from './message';
import { portalCodeSchema } from './portal-code';
import { portalConfigSchema } from './portal-config';
import { portalSessionSchema } from './portal-session';
import { releaseSchema } from './release';
import { replySchema } from './reply';
import { siteSchema } from './site';
import { ticketSchema } from './ticket';

export const SUPPORT_SCHEMAS = [
  commonSchema, ticketSchema, messageSchema, replySchema, deliverySchema, siteSchema, portalConfigSchema,
  portalCodeSchema, portalSessionSchema, docSchema, docFeedbackSchema, chatConfigSchema, chatThreadSchema, chatMessageSchema,
  chatAnswerSchema, chatHandoffSchema, changelogSchema, releaseSchema, mailReceiptSchema, inboundReceiptSchema,
] as const;
