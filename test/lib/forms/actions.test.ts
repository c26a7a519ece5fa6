/** The `email` notification action: what it composes, and when it sends nothing. */
import assert from 'node:assert/strict';
import { actionEmails, buildEmail } from '../../../lib/forms/actions';
import { DEFAULT_MESSAGES, DEFAULT_SETTINGS, FormAction } from '../../../lib/forms/settings';
import type { Form } from '../../../lib/forms/store';
import { memoryLogger } from '../../../lib/logger';

const data = { name: 'Ada', email: 'ada@example.test', message: 'Hi <there>' };
const action = (over: Partial<FormAction> = {}): FormAction => ({ type: 'email', to: 'owner@example.test', message: '[message]', ...over });

describe('email action', () => {
  it('defaults to an HTML email from the admin address, with a plain-text alternative', () => {
    const mail = buildEmail(action({ subject: 'From [name]' }), data, 'admin@example.test');
    assert.deepEqual(mail, {
      to: ['owner@example.test'], from: 'admin@example.test', replyTo: undefined, subject: 'From Ada',
      text: 'Hi <there>', html: 'Hi &lt;there&gt;', headers: {},
    });
  });

  it('sends plain text as written when content_type is text/plain', () => {
    const mail = buildEmail(action({ content_type: 'text/plain', from: '' }), data, 'admin@example.test');
    assert.equal(mail?.text, 'Hi <there>');
    assert.equal(mail?.html, undefined);
    assert.equal(mail?.from, undefined, 'an empty From leaves the mailer default (wordpress@host)');
  });

  it('sends nothing without a valid recipient or without a message (as the plugin family)', () => {
    assert.equal(buildEmail(action({ to: '' }), data, 'a@b.c'), null);
    assert.equal(buildEmail(action({ to: '[nope]' }), data, 'a@b.c'), null);
    assert.equal(buildEmail(action({ message: ' ' }), data, 'a@b.c'), null);
  });

  it('mails the visitor when `to` names their field, keeping only real addresses', () => {
    assert.deepEqual(buildEmail(action({ to: '[name] <[email]>, not-an-address, team@example.test' }), data, 'a@b.c')?.to,
      ['"Ada" <ada@example.test>', 'team@example.test']);
  });

  it('takes Reply-To and custom headers from `headers`, never envelope or MIME ones', () => {
    const mail = buildEmail(action({ headers: 'Reply-To: [name] <[email]>\nX-Form: contact\nBcc: spy@example.test\nContent-Type: text/evil' }), data, 'a@b.c');
    assert.equal(mail?.replyTo, '"Ada" <ada@example.test>');
    assert.deepEqual(mail?.headers, { 'X-Form': 'contact' });
  });

  it('composes one email per email action that has something to send, skipping (and logging) other types', () => {
    const logger = memoryLogger();
    const form: Form = {
      id: 3, title: 'F', slug: 'f', status: 'publish', markup: '', rawSettings: undefined, messages: { ...DEFAULT_MESSAGES },
      settings: { ...DEFAULT_SETTINGS, actions: [action(), { type: 'mailchimp' }, action({ to: '' }), action({ to: 'second@example.test' })] },
    };
    const emails = actionEmails(form, data, 'a@b.c', logger);
    assert.deepEqual(emails.map((e) => [e.action, e.message.to]), [[0, ['owner@example.test']], [3, ['second@example.test']]]);
    assert.deepEqual(logger.lines.map((l) => [l.level, l.message]), [['warn', 'form action type not supported; skipped']]);
  });
});
