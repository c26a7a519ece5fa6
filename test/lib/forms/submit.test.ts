/** The parts of a submission decided before anything is stored: which fields are data, and validation. */
import assert from 'node:assert/strict';
import { DEFAULT_MESSAGES, DEFAULT_SETTINGS } from '../../../lib/forms/settings';
import type { Form } from '../../../lib/forms/store';
import { formData, validate } from '../../../lib/forms/submit';

const form = (required: string, email = ''): Form => ({
  id: 1, title: 'F', slug: 'f', status: 'publish', markup: '', rawSettings: undefined, messages: { ...DEFAULT_MESSAGES },
  settings: { ...DEFAULT_SETTINGS, required_fields: required, email_fields: email },
});

describe('submission data and validation', () => {
  it('keeps the form fields only, trimmed (names too), nested values included', () => {
    assert.deepEqual(formData({
      action: 'frm_form_submit', _frm_form_id: '1', _frm_h1: '', _wpnonce: 'x', ' name ': ' Ada ', tags: [' a ', 'b'], addr: { ' city ': ' Paris ' },
    }), { name: 'Ada', tags: ['a', 'b'], addr: { city: 'Paris' } });
  });

  it('reports every empty required field (blank, whitespace, absent, an empty group); "0" is an answer', () => {
    const problem = validate(form('a, b, c, d, e, zero'), { a: '', b: '   '.trim(), d: ['', ''], e: { x: '' }, zero: '0' });
    assert.deepEqual(problem, { code: 'required_field_missing', fields: ['a', 'b', 'c', 'd', 'e'] });
  });

  it('checks email fields only once required fields are there, and only when filled', () => {
    assert.equal(validate(form('', 'email'), { email: '' }), null);
    assert.deepEqual(validate(form('', 'email, other'), { email: 'ada@', other: ['a@b.co'] }), { code: 'invalid_email', fields: ['email', 'other'] });
    assert.deepEqual(validate(form('name', 'email'), { email: 'bad' }), { code: 'required_field_missing', fields: ['name'] });
    assert.equal(validate(form('address[email]', 'address.email'), { address: { email: 'ada@example.test' } }), null);
  });
});
