/** Reading and writing `_frm_settings`, `frm_message_<code>` and `frm_settings` as PHP leaves them. */
import assert from 'node:assert/strict';
import {
  DEFAULT_SETTINGS, fieldNames, messageText, messagesFromMeta, parseGlobalSettings, parseSettings, phpInt, settingsForStorage,
} from '../../../lib/forms/settings';
import { PhpArray, PhpFloat, PhpValue, unserialize } from '../../../lib/wp/php';

describe('form settings', () => {
  describe('parseSettings', () => {
    it('reads what PHP saved (strings "1"/"0") with PHP truthiness', () => {
      const raw = 'a:5:{s:16:"save_submissions";s:1:"0";s:18:"hide_after_success";s:1:"1";s:12:"redirect_url";s:5:"/done";' +
        's:15:"required_fields";s:10:"name,email";s:7:"actions";a:1:{i:0;a:3:{s:4:"type";s:5:"email";s:2:"to";s:5:"a@b.c";s:7:"subject";i:5;}}}';
      assert.deepEqual(parseSettings(raw), {
        save_submissions: false, hide_after_success: true, redirect_url: '/done', required_fields: 'name,email', email_fields: '',
        actions: [{ type: 'email', to: 'a@b.c', subject: '5' }],
      });
    });

    it('falls back to the defaults for a missing, empty or unreadable value, and for missing keys', () => {
      for (const raw of [undefined, '', 'not serialized', 'a:1:{s:3:"foo";', 'a:0:{}']) assert.deepEqual(parseSettings(raw), DEFAULT_SETTINGS, String(raw));
    });

    it('reads ints and booleans as flags, and skips actions without a type', () => {
      const raw = 'a:3:{s:16:"save_submissions";i:0;s:18:"hide_after_success";b:1;s:7:"actions";a:2:{i:0;a:1:{s:2:"to";s:1:"x";}s:3:"abc";a:1:{s:4:"type";s:4:"hook";}}}';
      const settings = parseSettings(raw);
      assert.equal(settings.save_submissions, false);
      assert.equal(settings.hide_after_success, true);
      assert.deepEqual(settings.actions, [{ type: 'hook' }]);
    });
  });

  describe('settingsForStorage', () => {
    it('writes a new form as the defaults plus the changes, flags as ints', () => {
      assert.equal(settingsForStorage(undefined, { required_fields: 'email' }),
        'a:6:{s:16:"save_submissions";i:1;s:18:"hide_after_success";i:0;s:12:"redirect_url";s:0:"";s:15:"required_fields";s:5:"email";s:12:"email_fields";s:0:"";s:7:"actions";a:0:{}}');
    });

    it('keeps the stored keys it does not know, and their order', () => {
      const stored = 'a:2:{s:15:"load_stylesheet";s:1:"1";s:16:"save_submissions";s:1:"1";}';
      const written = unserialize(settingsForStorage(stored, { save_submissions: false, actions: [{ type: 'email', to: 'a@b.c' }] })) as PhpArray;
      assert.deepEqual([...written.keys()], ['load_stylesheet', 'save_submissions', 'actions']);
      assert.equal(written.get('load_stylesheet'), '1');
      assert.equal(written.get('save_submissions'), 0);
    });
  });

  describe('messages', () => {
    it("lays the form's frm_message_<code> rows over the plugin family's defaults", () => {
      const messages = messagesFromMeta(new Map([['frm_message_success', 'Merci'], ['frm_message_spam_detected', 'No'], ['_frm_settings', 'x']]));
      assert.deepEqual(messages, {
        success: 'Merci', invalid_email: 'Sorry, that email address looks invalid.', required_field_missing: 'Please fill in the required fields.',
        error: 'Oops. An error occurred.', spam_detected: 'No',
      });
    });

    it("falls back from an unknown or empty code to the form's error message", () => {
      const messages = { ...messagesFromMeta(new Map([['frm_message_error', 'Custom error']])), empty: '' };
      assert.equal(messageText(messages, 'no_such_code'), 'Custom error');
      assert.equal(messageText(messages, 'empty'), 'Custom error');
      assert.equal(messageText(messages, 'no_such_code', 'Fallback'), 'Fallback');
      assert.equal(messageText(messages, 'constructor'), 'Custom error', 'no prototype lookups');
    });
  });

  it('splits comma-separated field names, dropping blanks', () => {
    assert.deepEqual(fieldNames(' name, email,,address[city] ,'), ['name', 'email', 'address[city]']);
  });

  it('reads enable_nonce from the frm_settings option, off when absent', () => {
    const off = { enable_nonce: false, submit_limit: 0, submit_limit_window: 10 };
    assert.deepEqual(parseGlobalSettings(undefined), off);
    assert.deepEqual(parseGlobalSettings(new PhpArray([['enable_nonce', '1']])), { ...off, enable_nonce: true });
    assert.deepEqual(parseGlobalSettings(new PhpArray([['enable_nonce', '0']])), off);
    assert.deepEqual(parseGlobalSettings('garbage'), off);
  });

  it('reads the submission limit as PHP casts to int: no limit unless positive, the window 10 minutes unless positive, at most a day', () => {
    const read = (limit: PhpValue, window?: PhpValue) => {
      const entries: Array<[string, PhpValue]> = [['submit_limit', limit]];
      if (window !== undefined) entries.push(['submit_limit_window', window]);
      const { submit_limit, submit_limit_window } = parseGlobalSettings(new PhpArray(entries));
      return [submit_limit, submit_limit_window];
    };
    assert.deepEqual(read('5'), [5, 10]);
    assert.deepEqual(read(5, '30'), [5, 30]);
    assert.deepEqual(read(' 7 per form', 15), [7, 15]);
    assert.deepEqual(read(new PhpFloat(4.9), new PhpFloat(2.5)), [4, 2]);
    assert.deepEqual(read(true, '1'), [1, 1]);
    for (const none of ['', '0', '-3', 'many', null, false, 0]) assert.deepEqual(read(none), [0, 10], String(none));
    for (const window of ['0', '-1', 'soon', '']) assert.deepEqual(read('5', window), [5, 10], String(window));
    assert.deepEqual(read('9999999', '100000'), [100_000, 1440]);
  });

  it('phpInt is the leading integer of a string, as (int) reads it', () => {
    assert.deepEqual(['12', '  12abc', '+3', '-4', '1.9', 'x1', '', '\n5'].map((v) => phpInt(v)), [12, 12, 3, -4, 1, 0, 0, 5]);
  });
});
