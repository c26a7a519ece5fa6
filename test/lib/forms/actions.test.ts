/** The `email` notification action: what it sends, and when it sends nothing. */
import assert from 'node:assert/strict';
import { buildEmail, runActions } from '../../../lib/forms/actions';
import { DEFAULT_MESSAGES, DEFAULT_SETTINGS, FormAction } from '../../../lib/forms/settings';
import type { Form } from '../../../lib/forms/store';
import { memoryLogger } from '../../../lib/logger';
import type { MailMessage } from '../../../lib/mail/mailer';

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

  it('runs every action, skipping unknown types, and carries on after a failure', async () => {
    const sent: MailMessage[] = [];
    let calls = 0;
    const mailer = { send: async (m: MailMessage) => { if (calls++ === 0) throw new Error('down'); sent.push(m); } };
    const logger = memoryLogger();
    const form: Form = {
      id: 3, title: 'F', slug: 'f', status: 'publish', markup: '', rawSettings: undefined, messages: { ...DEFAULT_MESSAGES },
      settings: { ...DEFAULT_SETTINGS, actions: [action(), { type: 'mailchimp' }, action({ to: 'second@example.test' })] },
    };
    const outcomes = await runActions({ mailer, logger, adminEmail: 'a@b.c' }, form, data);
    assert.deepEqual(outcomes.map((o) => o.result), ['failed', 'skipped', 'sent']);
    assert.deepEqual(sent.map((m) => m.to), [['second@example.test']]);
    assert.deepEqual(logger.lines.map((l) => l.level), ['error', 'warn']);
  });
});
