/**
 * What a reply route answers (POST /tickets/<id>/messages, POST /sites/<site-id>/portal/tickets/<id>/messages):
 * the stored message as ./message.ts shows it, and the ticket as the reply left it, so that the
 * client sends the new version with its next change.
 */
import { messageSchema } from './message';

export const replySchema = {
  $id: 'reply',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_reply',
  type: 'object',
  properties: {
    ...messageSchema.properties,
    ticket: {
      description: 'The ticket after the reply.',
      type: 'object',
      context: ['view'],
      readonly: true,
      properties: {
        id: { $ref: 'ticket#/properties/id' },
        status: { $ref: 'ticket#/properties/status' },
        version: { $ref: 'ticket#/properties/version' },
        updated_at: { $ref: 'ticket#/properties/updated_at' },
      },
    },
  },
} as const;
