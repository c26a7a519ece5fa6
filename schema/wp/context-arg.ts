/** WP: WP_REST_Controller::get_context_param() as the users controller gives it (default `view`). */
export const contextArg = {
  description: 'Scope under which the request is made; determines fields present in response.',
  type: 'string',
  enum: ['view', 'embed', 'edit'],
  default: 'view',
} as const;
