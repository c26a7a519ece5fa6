/** The form element: what is added around the admin's markup, and that every added value is escaped. */
import assert from 'node:assert/strict';
import { renderForm } from '../../../lib/forms/render';
import { DEFAULT_MESSAGES, DEFAULT_SETTINGS } from '../../../lib/forms/settings';
import type { Form } from '../../../lib/forms/store';

const form = (over: Partial<Form> = {}): Form => ({
  id: 7, title: 'Contact', slug: 'contact', status: 'publish', markup: '<input name="a" onfocus="trusted()" />',
  settings: { ...DEFAULT_SETTINGS }, messages: { ...DEFAULT_MESSAGES }, rawSettings: undefined, ...over,
});

describe('renderForm', () => {
  it('wraps the markup, as written, with the form ID, the honeypot and a messages area', () => {
    const html = renderForm(form());
    assert.ok(html.includes('<form method="post" class="frm-form frm-form-7" data-id="7" data-title="Contact" data-slug="contact" data-message-error="Oops. An error occurred.">'));
    assert.ok(html.includes('<input type="hidden" name="_frm_form_id" value="7" />'));
    assert.ok(html.includes('<div style="display: none;" aria-hidden="true"><input type="text" name="_frm_h7" value="" tabindex="-1" autocomplete="off" /></div>'));
    assert.ok(html.includes('<div class="frm-fields-wrap"><input name="a" onfocus="trusted()" /><noscript>'), 'the markup is trusted HTML');
    assert.ok(html.includes('<div class="frm-messages"></div>'));
    assert.ok(!html.includes('_frm_nonce'));
  });

  it('escapes the title, slug, messages and nonce it adds', () => {
    const html = renderForm(form({ title: '"><script>alert(1)</script>', slug: "a'b", messages: { error: '<b>"x"</b>' } }), { nonce: '"><img src=x>' });
    assert.ok(html.includes('data-title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
    assert.ok(html.includes('data-slug="a&#039;b"'));
    assert.ok(html.includes('data-message-error="&lt;b&gt;&quot;x&quot;&lt;/b&gt;"'));
    assert.ok(html.includes('<input type="hidden" name="_frm_nonce" value="&quot;&gt;&lt;img src=x&gt;" />'));
    assert.ok(!html.includes('<script>') && !html.includes('<img'));
  });
});
