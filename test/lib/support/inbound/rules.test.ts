/**
 * The rules of mail intake that are pure functions: trimming quoted history, recognising machine mail,
 * route keys and ticket tags. The corpus test (test/routes/support/mail-corpus.test.ts) covers them on
 * whole messages; these pin the edge cases.
 */
import assert from 'node:assert/strict';
import { blogOfRouteKey, mailboxKeyOf, routeKeyOf } from '../../../../lib/support/mailboxes/route-key';
import { bearerSecretMatches, hashBearerSecret } from '../../../../lib/support/bearer-secrets';
import { automatedReason, isOwnMessageId } from '../../../../lib/support/inbound/loops';
import { ParsedEmail, messageIds } from '../../../../lib/support/inbound/parse';
import { trimQuoted } from '../../../../lib/support/inbound/quotes';
import { ticketTag } from '../../../../lib/support/inbound/threading';

function email(headers: Record<string, string>, from = 'someone@example.com', contentType: ParsedEmail['contentType'] = { value: 'text/plain', params: {} }): ParsedEmail {
  return {
    from: { address: from, name: '' }, rawFrom: from, subject: '', text: '', messageId: null, inReplyTo: null, references: [], attachments: [], contentType,
    headers: new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), [v]])),
  };
}

describe('mail intake rules', function () {
  describe('trimQuoted', function () {
    it('keeps inline answers between quotes (only a quote at the very end is history)', () => {
      const text = '> Which plan?\nPro.\n> Monthly or yearly?\nYearly.\n';
      assert.equal(trimQuoted(text), '> Which plan?\nPro.\n> Monthly or yearly?\nYearly.');
    });

    it('drops a trailing quote without attribution', () => {
      assert.equal(trimQuoted('Yes, please.\n\n> Shall we refund it?\n> Agent'), 'Yes, please.');
    });

    it('needs a quote after an attribution: a sentence ending in "wrote:" stays', () => {
      const text = 'On Monday my colleague wrote:\nthe export failed again.';
      assert.equal(trimQuoted(text), text);
    });

    it('cuts at "-----Original Message-----" and at an Outlook header block, but not at a lone "From:" line', () => {
      assert.equal(trimQuoted('Thanks!\n\n-----Original Message-----\nFrom: A\nSent: B\n\nold'), 'Thanks!');
      assert.equal(trimQuoted('Thanks!\n\nVon: Agent One\nGesendet: Montag\nAn: Kunde\nBetreff: Re\n\nalt'), 'Thanks!');
      assert.equal(trimQuoted('From: my accountant\nthe invoice is wrong.'), 'From: my accountant\nthe invoice is wrong.');
    });

    it('keeps the whole text when trimming would leave nothing', () => {
      assert.equal(trimQuoted('> only a quote\n> nothing else'), '> only a quote\n> nothing else');
      assert.equal(trimQuoted('-- \nJust a signature'), '-- \nJust a signature');
    });

    it('removes the signature and mobile footers', () => {
      assert.equal(trimQuoted('Done.\n\n-- \nJane Doe\nACME'), 'Done.');
      assert.equal(trimQuoted('Done.\n\nGet Outlook for iOS'), 'Done.');
    });
  });

  describe('automatedReason', function () {
    it('takes Auto-Submitted other than "no", the X-Autoreply family, and bulk precedence', () => {
      assert.equal(automatedReason(email({ 'Auto-Submitted': 'no' })), null);
      assert.equal(automatedReason(email({ 'Auto-Submitted': 'auto-generated; owner-email="x@y"' })), 'auto_submitted');
      assert.equal(automatedReason(email({ 'X-Autorespond': 'Out of office' })), 'autoreply_header');
      for (const p of ['bulk', 'junk', 'list', 'BULK']) assert.equal(automatedReason(email({ Precedence: p })), 'precedence');
      assert.equal(automatedReason(email({ Precedence: 'first-class' })), null);
    });

    it('recognises bounces and read receipts by their report type, daemons by name, and the null sender', () => {
      assert.equal(automatedReason(email({}, 'a@b.c', { value: 'multipart/report', params: { 'report-type': 'delivery-status' } })), 'delivery_report');
      assert.equal(automatedReason(email({}, 'a@b.c', { value: 'multipart/report', params: { 'report-type': 'disposition-notification' } })), 'delivery_report');
      assert.equal(automatedReason(email({}, 'Postmaster@example.com')), 'mailer_daemon');
      assert.equal(automatedReason(email({ 'Return-Path': '< >' })), 'null_sender');
    });

    it('recognises a daemon in a From that names no usable sender, as a local part only', () => {
      const unusable = (rawFrom: string): ParsedEmail => ({ ...email({}), from: null, rawFrom });
      for (const rawFrom of ['MAILER-DAEMON', 'Mail Delivery System <MAILER-DAEMON>', 'postmaster@mx.example.com (Mail Delivery), x@y.z', '"System" <Postmaster>']) {
        assert.equal(automatedReason(unusable(rawFrom)), 'mailer_daemon', rawFrom);
      }
      for (const rawFrom of ['Big Bug bb@bug.com', 'postmasters@example.com', 'the-postmaster@example.com, a@b.c', '']) {
        assert.equal(automatedReason(unusable(rawFrom)), null, rawFrom);
      }
    });

    it('knows this site\'s own Message-ID shape, on its own host only', () => {
      assert.ok(isOwnMessageId('<svc.12.34.0a1b2c3d4e5f@support.example.com>', 'https://support.example.com/wp'));
      assert.ok(!isOwnMessageId('<svc.12.34.0a1b2c3d4e5f@elsewhere.example>', 'https://support.example.com'));
      assert.ok(!isOwnMessageId('<CAF01@mail.gmail.com>', 'https://support.example.com'));
    });
  });

  it('reads Message-IDs with or without brackets', () => {
    assert.deepEqual(messageIds('<a@b> <c@d>\n <e@f>'), ['<a@b>', '<c@d>', '<e@f>']);
    assert.deepEqual(messageIds('a@b'), ['<a@b>']);
    assert.deepEqual(messageIds(undefined), []);
  });

  it('finds ticket tags in subjects', () => {
    assert.equal(ticketTag('Re: Coupon [#115]'), 115);
    assert.equal(ticketTag('[Ticket #7] Re: help'), 7);
    assert.equal(ticketTag('Order #115 is late'), null);
  });

  it('maps route keys to this blog\'s mailbox keys only', () => {
    assert.equal(routeKeyOf(3, 'help-desk'), 'site-3-help-desk');
    assert.equal(mailboxKeyOf('site-3-help-desk', 3), 'help-desk');
    assert.equal(mailboxKeyOf('site-3-help-desk', 1), null);
    assert.equal(mailboxKeyOf('site-1-Help', 1), null);
    assert.equal(mailboxKeyOf('help', 1), null);
  });

  it('reads the blog a route key names (on a network, the blog that serves it), only from a well-formed key', () => {
    assert.equal(blogOfRouteKey('site-3-help-desk'), 3);
    assert.equal(blogOfRouteKey('site-12-support'), 12);
    assert.equal(blogOfRouteKey('site-3-Help'), null);
    assert.equal(blogOfRouteKey('site-x-help'), null);
    assert.equal(blogOfRouteKey('help'), null);
  });

  it('compares mailbox tokens by hash', () => {
    assert.ok(bearerSecretMatches('s3cret', hashBearerSecret('s3cret')));
    assert.ok(!bearerSecretMatches('s3cret', hashBearerSecret('other')));
    assert.ok(!bearerSecretMatches('', hashBearerSecret('')));
    assert.ok(!bearerSecretMatches('s3cret', ''));
  });
});
