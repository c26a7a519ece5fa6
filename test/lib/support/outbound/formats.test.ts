/** The small rules of outgoing mail and alerts: subjects, threading, addresses, alert URLs and times. */
import assert from 'node:assert/strict';
import { formatAddress } from '../../../../lib/support/outbound/addresses';
import { alertUrlProblem, signatureOf } from '../../../../lib/support/outbound/alert-sender';
import { isoWithOffset } from '../../../../lib/support/outbound/team-alert';
import { replySubject, threadHeadersFor } from '../../../../lib/support/outbound/threading';
import { Conversation, Message } from '../../../../lib/support/tickets/types';

const message = (id: number, visibility: 'public' | 'internal', messageId: string | null, inReplyTo: string | null = null): Message => ({
  id, ticketId: 1, body: '', visibility, authorId: 0, authorName: '', authorEmail: '', authorKind: 'customer', createdAt: '', messageId, inReplyTo,
});
const conversation = (messages: Message[]) => ({ messages } as unknown as Conversation);

describe('outbound formats', () => {
  it('tags the reply subject with the ticket once, without piling up Re: prefixes', () => {
    assert.equal(replySubject('Export fails', 42), 'Re: Export fails [#42]');
    assert.equal(replySubject('RE: Re: Export fails', 42), 'Re: Export fails [#42]');
    assert.equal(replySubject('Re: Export fails [#42]', 42), 'Re: Export fails [#42]');
  });

  it('threads to the last public message before the reply and lists the public thread in References', () => {
    const messages = [message(1, 'public', '<a@x>'), message(2, 'internal', '<note@x>'), message(3, 'public', '<b@x>'), message(4, 'public', '<c@x>', '<note@x>')];
    assert.deepEqual(threadHeadersFor(conversation(messages), messages[3] as Message), { inReplyTo: '<b@x>', references: ['<a@x>', '<b@x>'] });
    assert.deepEqual(threadHeadersFor(conversation(messages), messages[0] as Message), {});
  });

  it('keeps References short on long threads: the first message and the latest ones', () => {
    const messages = Array.from({ length: 30 }, (_, i) => message(i + 1, 'public', `<m${i + 1}@x>`));
    const { references } = threadHeadersFor(conversation(messages), messages[29] as Message);
    assert.equal(references?.length, 20);
    assert.deepEqual([references?.[0], references?.[1], references?.[19]], ['<m1@x>', '<m11@x>', '<m29@x>']);
  });

  it('quotes display names so commas and quotes survive', () => {
    assert.equal(formatAddress('Doe, "JD" Jane', 'jd@example.test'), '"Doe, \\"JD\\" Jane" <jd@example.test>');
    assert.equal(formatAddress('', 'jd@example.test'), 'jd@example.test');
  });

  it('accepts https:// and loopback http:// alert URLs only', () => {
    for (const ok of ['https://hooks.example.com/x', 'http://127.0.0.1:9000/x', 'http://127.5.6.7/x', 'http://localhost:8080/x', 'http://[::1]:8080/x']) {
      assert.equal(alertUrlProblem(ok), null, ok);
    }
    for (const bad of ['http://hooks.example.com/x', 'http://10.0.0.1/x', 'ftp://127.0.0.1/x', 'not a url', '']) {
      assert.ok(alertUrlProblem(bad), bad);
    }
  });

  it('signs with the hex HMAC-SHA256 of the raw body (RFC 4231, test case 2)', () => {
    assert.equal(signatureOf('what do ya want for nothing?', 'Jefe'), 'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('writes sent_at in ISO 8601 with the site\'s offset', () => {
    const ms = Date.UTC(2026, 10, 22, 14, 33, 7, 900);
    assert.equal(isoWithOffset(ms, 0), '2026-11-22T14:33:07+00:00');
    assert.equal(isoWithOffset(ms, 60), '2026-11-22T15:33:07+01:00');
    assert.equal(isoWithOffset(ms, -330), '2026-11-22T09:03:07-05:30');
  });
});
