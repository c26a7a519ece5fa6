/**
 * What GET /chat/config shows the widget (docs/chat.md, "Settings"): the `chat_*` keys of the
 * `svc_settings` option a visitor may see. The provider, its key and the limits are never shown.
 */
export const chatConfigSchema = {
  $id: 'chat_config',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_chat_config',
  type: 'object',
  properties: {
    enabled: { description: 'Chat takes messages: chat_enabled is on and the provider has a key.', type: 'boolean', context: ['view'], readonly: true },
    handoff: { description: 'Talking to a person is offered (chat_handoff).', type: 'boolean', context: ['view'], readonly: true },
    name: { description: "The assistant's name in the widget (chat_name).", type: 'string', context: ['view'], readonly: true },
    color: { description: "The widget's accent colour (chat_color).", type: 'string', context: ['view'], readonly: true },
    avatar_url: { description: "The assistant's picture (chat_avatar_url), or ''.", type: 'string', context: ['view'], readonly: true },
    greeting: { description: 'The first thing the widget says (chat_greeting), plain text.', type: 'string', context: ['view'], readonly: true },
    placeholder: { description: "The question field's placeholder (chat_placeholder), plain text.", type: 'string', context: ['view'], readonly: true },
    handoff_offer: { description: 'The wording of the offer to talk to a person (chat_handoff_offer), plain text.', type: 'string', context: ['view'], readonly: true },
  },
} as const;
