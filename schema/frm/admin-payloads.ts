/**
 * Arguments of each frm_admin_action sub-operation (`_frm_admin_action`), checked with WordPress's
 * coercion (lib/wp/rest/args); routes/frm/admin-action.ts types each operation's params from them.
 * `settings` and `messages` come from form-settings.json and form-messages.json.
 */
export const adminPayloads = {
  create_form: {
    title: { type: 'string', required: true, minLength: 1, maxLength: 1000 },
    slug: { type: 'string', maxLength: 200 },
    markup: { type: 'string', maxLength: 1000000 },
    status: { type: 'string', enum: ['publish', 'draft'] },
  },
  save_form: {
    form_id: { type: 'integer', required: true, minimum: 1 },
    title: { type: 'string', minLength: 1, maxLength: 1000 },
    slug: { type: 'string', maxLength: 200 },
    markup: { type: 'string', maxLength: 1000000 },
    status: { type: 'string', enum: ['publish', 'draft'] },
  },
  delete_form: {
    form_id: { type: 'integer', required: true, minimum: 1 },
  },
  list_submissions: {
    form_id: { type: 'integer', required: true, minimum: 1 },
    page: { type: 'integer', minimum: 1, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    spam: { description: 'exclude (default): not spam; only: spam only; all: both.', type: 'string', enum: ['exclude', 'only', 'all'], default: 'exclude' },
  },
  bulk_delete_submissions: {
    form_id: { type: 'integer', required: true, minimum: 1 },
    ids: { type: 'array', required: true, minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1 } },
  },
  unmark_spam: {
    form_id: { type: 'integer', required: true, minimum: 1 },
    ids: { type: 'array', required: true, minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1 } },
  },
  export_submissions: {
    form_id: { type: 'integer', required: true, minimum: 1 },
    spam: { type: 'string', enum: ['exclude', 'only', 'all'], default: 'exclude' },
  },
} as const;
