/**
 * The schema documents of support/v1, one list: each item schema and the shared definitions, named
 * by `$id` in the operations' `$ref`s (schema/support/*-args.ts) and resolved among these when a route
 * builds its args (lib/wp/rest/item-schema.ts operations()) or shows its item schema.
 */
import { changelogSchema } from './changelog';
import { commonSchema } from './common';
import { deliverySchema } from './delivery';
import { docSchema } from './doc';
import { mailReceiptSchema } from './mail-receipt';
import { messageSchema } from './message';
import { releaseSchema } from './release';
import { siteSchema } from './site';
import { ticketSchema } from './ticket';

export const SUPPORT_SCHEMAS = [
  commonSchema, ticketSchema, messageSchema, deliverySchema, siteSchema, docSchema, changelogSchema, releaseSchema, mailReceiptSchema,
] as const;
