/**
 * A form's HTML as the plugin family's shortcode and block print it: `<form class="frm-form frm-form-<ID>">`
 * around the admin's markup, with the hidden form ID, the honeypot, the nonce (when enabled) and an
 * area for messages. The markup itself is trusted HTML written by someone with `edit_forms` (as in the
 * family) and is printed as written; every value this file adds is escaped.
 */
import type { Form } from './store';
import { escapeHtml } from './variables';

export interface RenderOptions {
  /** The visitor's `_frm_nonce`, when the site enables nonce verification. */
  nonce?: string;
}

/** The `<form>` element of a published form. */
export function renderForm(form: Form, options: RenderOptions = {}): string {
  const id = String(form.id);
  const attributes = [
    'method="post"',
    `class="frm-form frm-form-${escAttr(id)}"`,
    `data-id="${escAttr(id)}"`,
    `data-title="${escAttr(form.title)}"`,
    `data-slug="${escAttr(form.slug)}"`,
    // The script's own text for a request that never got an answer (network down, server unreachable).
    `data-message-error="${escAttr(form.messages.error ?? '')}"`,
  ];
  return [
    `<!-- frm form ${escapeHtml(id)} -->`,
    `<form ${attributes.join(' ')}>`,
    `<input type="hidden" name="_frm_form_id" value="${escAttr(id)}" />`,
    // The honeypot: people never see it, so anything in it was typed by a bot.
    `<div style="display: none;" aria-hidden="true"><input type="text" name="_frm_h${escAttr(id)}" value="" tabindex="-1" autocomplete="off" /></div>`,
    options.nonce === undefined ? '' : `<input type="hidden" name="_frm_nonce" value="${escAttr(options.nonce)}" />`,
    `<div class="frm-fields-wrap">${form.markup}<noscript>Please enable JavaScript for this form to work.</noscript></div>`,
    '<div class="frm-messages"></div>',
    '</form>',
  ].filter(Boolean).join('\n');
}

/** WordPress's esc_attr(): safe inside a double- or single-quoted attribute. */
export function escAttr(value: string): string {
  return escapeHtml(value);
}
