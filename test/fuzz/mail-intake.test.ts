/**
 * Fuzzing the mail intake over a listening server: hostile messages (random and injected headers,
 * huge References, broken encodings and charsets, multiparts nested hundreds deep, malformed
 * addresses, the fixture corpus cut and corrupted, random bytes) posted to the relay webhook with a
 * valid signature and to the inbound webhook with the mailbox token, raw and as each provider's fields.
 *
 * Every message is answered in time and never with a 5xx: the relay always acknowledges (202), the
 * inbound route answers 202 or 422 `svc_invalid_message`. Whatever was acknowledged is stored: its
 * receipt names the outcome the answer gave, a ticket or reply exists with the message's whole source
 * kept as `original.eml` (byte for byte as relayed), and a posted field never adds a header of its own
 * to that source. The server goes on answering the connection test.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { IssuedCredentials } from '../../lib/support/mailboxes/admin';
import { relaySignature } from '../../lib/support/inbound/signature';
import { readAttachmentFile, uploadsDirOf } from '../../lib/support/tickets/attachments';
import { ATTACHED_FILE_META } from '../../lib/support/tickets/rows';
import { API } from '../harness/support';
import { MAIL_FIXTURES, addTestMailbox } from '../harness/mail';
import { OracleSite, openOracle } from '../harness/oracle';
import { listen } from '../harness/wp-http';
import { FuzzOutcome, FuzzRequest, explain, requestText, send, stillAnswers } from './client';
import { LONG, params, shown, tally, testTimeout } from './settings';

// ---------------------------------------------------------------------------------------------
// Pieces of messages
// ---------------------------------------------------------------------------------------------

/** The oracle's people (a customer's reply threads; an agent's becomes a note) and strangers. */
const ADDRESSES = [
  'customer1@example.test', 'customer2@example.test', 'agent1@example.test', 'stranger@example.net', 'CUSTOMER1@EXAMPLE.TEST',
  'relay@support.example.test', 'tools@support.example.test', 'MAILER-DAEMON@example.net', 'postmaster@example.net',
];

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const fromArb = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(fc.constantFrom(...ADDRESSES), fc.constantFrom('', 'Ana Silva', '"Silva, Ana"', 'Zoë', '=?utf-8?B?w4lsb2TDrWU=?=', '=?utf-8?B?!!!?=', '=?x-unknown?Q?a=FFb?=', '=?iso-8859-1?Q?Jos=E9?='))
    .map(([address, name]) => (name ? `${name} <${address}>` : address)) },
  { weight: 2, arbitrary: fc.constantFrom(
    '<customer1@example.test>@evil.test', 'customer1@example.test, stranger@example.net', 'Team: customer1@example.test, agent1@example.test;',
    '"unterminated <customer1@example.test>', '<<customer1@example.test>>', 'customer1@', '@example.test', '', ' ', '<>',
    'customer1@example.test (comment) stranger@example.net', `${'x'.repeat(5_000)}@example.net`, 'ünïcode@exämple.test',
    'customer1@example.test\r\n\tfolded', 'Robin <robin@[127.0.0.1]>', '"a\\"b" <a@b.test>', '=?utf-8?Q?evil?= <customer1@example.test>, x@y.test',
  ) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

const messageIdArb = fc.oneof(
  fc.constantFrom(
    '<ticket-442-2@oracle.example.test>', '<ticket-4-1@oracle.example.test>', '<ticket-9-1@oracle.example.test>', '<svc.12.34.a1b2c3d4e5f6@localhost>',
    '<>', '<<>>', 'no-brackets@example.net', '<spaces in@id>', '<a@b><c@d>',
  ),
  fc.tuple(fc.string({ unit: fc.constantFrom(...'abc019.-_$+=/'), minLength: 1, maxLength: 20 }), fc.constantFrom('example.net', 'x', 'oracle.example.test'))
    .map(([local, domain]) => `<${local}@${domain}>`),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => `<${'i'.repeat(n)}@example.net>`),
);

/** Threading headers: a few IDs, or thousands of them (up to most of the 3 MiB the relay accepts). */
const referencesArb = fc.oneof(
  fc.array(messageIdArb, { maxLength: 12 }).map((ids) => ids.join(' ')),
  // Folded over lines or all on one.
  fc.integer({ min: 100, max: LONG ? 60_000 : 8_000 }).map((n) => Array.from({ length: n }, (_, i) => `<r${i}@example.net>`).join(n % 2 ? '\r\n ' : ' ')),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => '<'.repeat(n)),
);

const subjectArb = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 1, max: 1_000 }).map((n) => `Re: Order question [#${n}]`),
  fc.constantFrom('[Ticket #442] still broken', 'Re: x [#442]', '=?utf-8?B?' + b64('Grüße') + '?=', '=?utf-8?Q?=ZZ?=', '=?utf-16?B?2D0=?=', '=?utf-8?B?', ''),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => 'S'.repeat(n)),
);

const HEADER_NAME_CHARS = [...'abcXYZ-019_!#$%&\'*+.^`|~'];
const otherHeaderArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['Auto-Submitted', 'auto-replied'], ['Auto-Submitted', 'no'], ['Precedence', 'bulk'], ['Return-Path', '<>'], ['X-Autoreply', 'yes'],
    ['Content-Type', 'multipart/report; report-type=delivery-status; boundary=x'], ['MIME-Version', '9.9'], ['Content-Transfer-Encoding', 'base64'],
    ['From', 'second-from@example.net'], ['Message-ID', '<dup@example.net>'], ['Date', 'not a date'], ['Date', 'Wed, 18 Mar 2026 09:00:00 +0100'],
    ['Bcc', 'hidden@example.net'], ['Reply-To', 'reply@example.net'], ['Sender', 'agent1@example.test'],
  ),
  fc.tuple(fc.string({ unit: fc.constantFrom(...HEADER_NAME_CHARS), minLength: 1, maxLength: 20 }), fc.string({ maxLength: 80 })),
  // Values that try to start a header or a body of their own.
  fc.tuple(fc.constantFrom('Subject', 'X-Note'), fc.constantFrom('\r\nBcc: injected@example.net', '\nX-Injected: 1', '\r\rX: y', '\r\n\r\nbody?', '\u0000', 'a\r\n b')).map(([n, v]) => [n, `hi${v}`] as [string, string]),
);

const CHARSETS = ['utf-8', 'iso-8859-1', 'windows-1252', 'shift_jis', 'iso-2022-jp', 'utf-16', 'utf-7', 'x-unknown', '', '"utf-8'];
const CTES = ['7bit', '8bit', 'binary', 'base64', 'quoted-printable', 'x-uuencode', 'gzip', 'BASE64', ''];

interface Leaf {
  kind: 'leaf';
  type: string;
  charset: string;
  cte: string;
  disposition: string | null;
  content: Buffer;
}
interface Multi {
  kind: 'multi';
  subtype: string;
  boundary: string;
  children: MimePart[];
  closed: boolean;
}
type MimePart = Leaf | Multi;

const textContent = fc.oneof(
  fc.string({ maxLength: 200 }).map((s) => Buffer.from(s, 'utf8')),
  fc.constantFrom(
    'Thanks!\r\n\r\nOn Tue, Mar 17, 2026 at 5:00 PM Agent One <agent1@example.test> wrote:\r\n> Shall we?\r\n',
    '<p>Hello <img src="cid:img1"></p><script>alert(1)</script><div class="gmail_quote">old</div>', '=ZZ=\r\n=4', 'Zm9v!!!==YmFy', '-- \r\nSignature',
    '\u0000\u0001binary', 'Sent from my iPhone', '<html><body>' + '<div>'.repeat(500) + 'deep',
  ).map((s) => Buffer.from(s, 'utf8')),
  fc.uint8Array({ maxLength: 1_500 }).map((a) => Buffer.from(a)),
);

const leafArb: fc.Arbitrary<Leaf> = fc.record({
  kind: fc.constant('leaf' as const),
  type: fc.constantFrom('text/plain', 'text/plain', 'text/html', 'image/png', 'application/octet-stream', 'message/rfc822', 'text/calendar', 'x/y', ''),
  charset: fc.constantFrom(...CHARSETS),
  cte: fc.constantFrom(...CTES),
  disposition: fc.option(fc.constantFrom(
    'attachment; filename="report.pdf"', 'inline; filename="a.png"', 'attachment; filename="../../etc/passwd"', 'attachment; filename*=UTF-8\'\'%E2%82%AC%20rates.txt',
    'attachment; filename="' + 'n'.repeat(400) + '.txt"', 'attachment; filename="a\u0000b"', 'attachment', 'inline', 'attachment; filename=', 'bogus',
  ), { freq: 2 }),
  content: textContent,
});

/** A MIME tree a few levels deep, plus chains of multiparts nested hundreds deep. */
const { part: treeArb } = fc.letrec<{ part: MimePart; multi: Multi }>((tie) => ({
  part: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leafArb, tie('multi')),
  multi: fc.record({
    kind: fc.constant('multi' as const),
    subtype: fc.constantFrom('mixed', 'alternative', 'related', 'report; report-type=delivery-status', 'signed', 'x-unknown'),
    boundary: fc.constantFrom('b1', 'b2', '=_Part_0', 'same', '', 'a b'),
    children: fc.array(tie('part'), { maxLength: 4 }),
    closed: fc.boolean(),
  }),
}));
const deepChainArb = fc.tuple(fc.integer({ min: 2, max: LONG ? 800 : 250 }), leafArb).map(([n, leaf]): MimePart => {
  let node: MimePart = leaf;
  for (let i = 0; i < n; i++) node = { kind: 'multi', subtype: 'mixed', boundary: `n${i}`, children: [node], closed: true };
  return node;
});

function encodeLeaf(leaf: Leaf): Buffer {
  if (leaf.cte.toLowerCase() === 'base64') return Buffer.from(leaf.content.toString('base64').replace(/.{76}/g, '$&\r\n'));
  return leaf.content;
}

function partHeaders(part: MimePart): string[] {
  if (part.kind === 'multi') return [`Content-Type: multipart/${part.subtype}; boundary="${part.boundary}"`];
  const headers: string[] = [];
  if (part.type) headers.push(`Content-Type: ${part.type}${part.charset ? `; charset=${part.charset}` : ''}`);
  if (part.cte) headers.push(`Content-Transfer-Encoding: ${part.cte}`);
  if (part.disposition) headers.push(`Content-Disposition: ${part.disposition}`);
  if (part.type === 'image/png') headers.push('Content-ID: <img1>');
  return headers;
}

function partBody(part: MimePart): Buffer {
  if (part.kind === 'leaf') return encodeLeaf(part);
  const chunks: Buffer[] = [Buffer.from('This is a multi-part message.\r\n')];
  for (const child of part.children) {
    chunks.push(Buffer.from(`--${part.boundary}\r\n${partHeaders(child).join('\r\n')}\r\n\r\n`), partBody(child), Buffer.from('\r\n'));
  }
  if (part.closed) chunks.push(Buffer.from(`--${part.boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const structuredMessage = fc.record({
  from: fc.option(fromArb, { freq: 8 }),
  subject: fc.option(subjectArb, { freq: 6 }),
  messageId: fc.option(messageIdArb, { freq: 3 }),
  inReplyTo: fc.option(messageIdArb, { freq: 2 }),
  references: fc.option(referencesArb, { freq: 2 }),
  others: fc.array(otherHeaderArb, { maxLength: 5 }),
  body: fc.oneof({ weight: 5, arbitrary: treeArb }, { weight: 1, arbitrary: deepChainArb }),
  lineEnd: fc.oneof({ weight: 6, arbitrary: fc.constant('\r\n') }, { weight: 2, arbitrary: fc.constant('\n') }, { weight: 1, arbitrary: fc.constant('\r') }),
}).map(({ from, subject, messageId, inReplyTo, references, others, body, lineEnd }) => {
  const headers: string[] = [];
  if (from !== null) headers.push(`From: ${from}`);
  headers.push('To: relay@support.example.test');
  if (subject !== null) headers.push(`Subject: ${subject}`);
  if (messageId !== null) headers.push(`Message-ID: ${messageId}`);
  if (inReplyTo !== null) headers.push(`In-Reply-To: ${inReplyTo}`);
  if (references !== null) headers.push(`References: ${references}`);
  for (const [name, value] of others) headers.push(`${name}: ${value}`);
  headers.push('MIME-Version: 1.0', ...partHeaders(body));
  const head = Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'utf8');
  const raw = Buffer.concat([head, partBody(body)]);
  return lineEnd === '\r\n' ? raw : Buffer.from(raw.toString('latin1').replace(/\r\n/g, lineEnd), 'latin1');
});

const CORPUS = fs.readdirSync(MAIL_FIXTURES).filter((f) => f.endsWith('.eml')).map((f) => fs.readFileSync(path.join(MAIL_FIXTURES, f)));

/** A message of the fixture corpus, cut, corrupted, spliced with noise or with another message. */
const corruptedCorpus = fc.tuple(
  fc.constantFrom(...CORPUS),
  fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('truncate', 'flip', 'insert', 'duplicate', 'splice', 'lf'), fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.constantFrom(...CORPUS)), { minLength: 1, maxLength: 4 }),
).map(([message, edits]) => edits.reduce((m, [where, op, noise, other]) => {
  const at = Math.floor(where * m.length);
  switch (op) {
    case 'truncate': return m.subarray(0, at);
    case 'flip': { const copy = Buffer.from(m); for (let i = 0; i < noise.length && at + i < copy.length; i++) copy[at + i] ^= noise[i] as number; return copy; }
    case 'insert': return Buffer.concat([m.subarray(0, at), noise, m.subarray(at)]);
    case 'duplicate': return Buffer.concat([m.subarray(0, at), m.subarray(Math.floor(at / 2)), m.subarray(at)]);
    case 'splice': return Buffer.concat([m.subarray(0, at), other.subarray(Math.floor(where * other.length))]);
    default: return Buffer.from(m.toString('latin1').replace(/\r?\n/g, noise.length % 2 ? '\r' : '\n'), 'latin1');
  }
}, message));

const messageArb: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: structuredMessage },
  { weight: 3, arbitrary: corruptedCorpus },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3_000 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.array(otherHeaderArb, { maxLength: 30 }).map((h) => Buffer.from(h.map(([n, v]) => `${n}: ${v}`).join('\r\n'), 'utf8')) },
);

// ---------------------------------------------------------------------------------------------
// What automation tools post (inbound route)
// ---------------------------------------------------------------------------------------------

/** A marker a posted value tries to smuggle in as a header of its own. */
const INJECTED = 'X-Fuzz-Injected';
const injectable = (arb: fc.Arbitrary<string>) => fc.oneof(
  { weight: 3, arbitrary: arb },
  { weight: 1, arbitrary: fc.tuple(arb, fc.constantFrom('\r\n', '\n', '\r', '\r\n\r\n', '\u2028')).map(([v, nl]) => `${v}${nl}${INJECTED}: 1${nl}Bcc: injected@example.net`) },
);

/** Any JSON value at all, for fields of the wrong type. */
const anyJson = fc.jsonValue({ maxDepth: 2 });
const base64Arb = fc.oneof(fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a).toString('base64')), fc.constantFrom('not base64!', 'Zm9v=YmFy', 'a', ''), anyJson);

const genericJson = fc.record({
  from: fc.oneof(
    { weight: 5, arbitrary: injectable(fromArb) },
    { weight: 2, arbitrary: fc.record({ name: injectable(fc.string({ maxLength: 20 })), email: fc.constantFrom(...ADDRESSES) }) },
    { weight: 1, arbitrary: anyJson },
  ),
  to: fc.oneof(fc.constantFrom('tools@support.example.test'), fc.array(fc.constantFrom(...ADDRESSES)), anyJson),
  subject: injectable(subjectArb),
  text: fc.oneof(textContent.map((b) => b.toString('utf8')), anyJson),
  html: fc.string({ maxLength: 200 }),
  message_id: fc.oneof(injectable(messageIdArb), anyJson),
  in_reply_to: messageIdArb,
  references: fc.oneof(referencesArb, fc.array(messageIdArb, { maxLength: 5 })),
  headers: fc.oneof(
    fc.dictionary(fc.oneof(fc.string({ maxLength: 15 }), fc.constantFrom('Auto-Submitted', 'Precedence', `${INJECTED}\r\nBcc`, 'Content-Type', 'From')), injectable(fc.string({ maxLength: 30 })), { maxKeys: 5 }),
    fc.array(fc.tuple(fc.string({ maxLength: 15 }), injectable(fc.string({ maxLength: 30 }))), { maxLength: 5 }),
    fc.array(fc.record({ name: fc.string({ maxLength: 15 }), value: injectable(fc.string({ maxLength: 30 })) }), { maxLength: 5 }),
    anyJson,
  ),
  attachments: fc.oneof(
    fc.array(fc.record({
      filename: fc.oneof(fc.constantFrom('a.png', '../../x', 'é.txt', ''), injectable(fc.string({ maxLength: 20 }))),
      content_type: fc.oneof(fc.constantFrom('image/png', 'text/plain', `application/${'x'.repeat(200)}`, 'text/plain\r\nX-Fuzz-Injected: 1'), fc.string({ maxLength: 20 })),
      content: base64Arb,
      content_id: fc.string({ maxLength: 20 }),
      inline: fc.oneof(fc.boolean(), anyJson),
    }, { requiredKeys: ['content'] }), { maxLength: 3 }),
    anyJson,
  ),
}, { requiredKeys: ['from'] });

const postmarkJson = fc.record({
  FromFull: fc.oneof(fc.record({ Email: fc.constantFrom(...ADDRESSES), Name: injectable(fc.string({ maxLength: 20 })) }), anyJson),
  From: fromArb,
  Subject: injectable(subjectArb),
  TextBody: fc.oneof(fc.string({ maxLength: 200 }), anyJson),
  HtmlBody: fc.string({ maxLength: 200 }),
  Headers: fc.oneof(fc.array(fc.record({ Name: fc.oneof(fc.constantFrom('Message-ID', 'In-Reply-To', 'References', 'Auto-Submitted'), fc.string({ maxLength: 10 })), Value: injectable(messageIdArb) }), { maxLength: 4 }), anyJson),
  Attachments: fc.oneof(fc.array(fc.record({ Name: fc.string({ maxLength: 20 }), Content: base64Arb, ContentType: fc.string({ maxLength: 20 }), ContentID: fc.string({ maxLength: 10 }) }), { maxLength: 2 }), anyJson),
}, { requiredKeys: [] });

/** Mailgun's fields, as a form body. */
const mailgunForm = fc.record({
  sender: fc.constantFrom(...ADDRESSES),
  from: injectable(fromArb),
  recipient: fc.constant('tools@support.example.test'),
  subject: injectable(subjectArb),
  'body-plain': fc.string({ maxLength: 200 }),
  'stripped-text': fc.string({ maxLength: 50 }),
  'message-headers': fc.oneof(fc.json({ maxDepth: 3 }), fc.array(fc.tuple(fc.string({ maxLength: 10 }), injectable(fc.string({ maxLength: 20 })))).map((h) => JSON.stringify(h))),
  'Message-Id': messageIdArb,
  References: referencesArb,
}, { requiredKeys: [] });

function formEncode(fields: Record<string, string>): string {
  return Object.entries(fields).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

function formMultipart(fields: Record<string, string>, files: Array<{ name: string; filename: string; data: Buffer }>): { body: Buffer; type: string } {
  const boundary = 'fuzz-inbound-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8'));
  for (const f of files) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`), f.data, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

interface InboundPost {
  body: Buffer;
  contentType: string | null;
  /** The body is (or a field holds) a whole message, kept as `original.eml` with its own headers. */
  raw: boolean;
}

const inboundArb: fc.Arbitrary<InboundPost> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(messageArb, fc.constantFrom('message/rfc822', 'text/plain', 'message/rfc822; charset=x-unknown', null))
    .map(([body, contentType]) => ({ body, contentType, raw: contentType !== null || !body.subarray(0, 64).toString('utf8').trimStart().startsWith('{') })) },
  { weight: 3, arbitrary: genericJson.map((j) => ({ body: Buffer.from(JSON.stringify(j)), contentType: 'application/json', raw: false })) },
  { weight: 1, arbitrary: postmarkJson.map((j) => ({ body: Buffer.from(JSON.stringify(j)), contentType: 'application/json', raw: false })) },
  { weight: 1, arbitrary: mailgunForm.map((f) => ({ body: Buffer.from(formEncode(f)), contentType: 'application/x-www-form-urlencoded', raw: false })) },
  { weight: 1, arbitrary: fc.tuple(mailgunForm, fc.array(fc.record({ name: fc.constantFrom('attachment-1', 'attachment-2', 'attachment1', 'email'), filename: fc.string({ maxLength: 20 }), data: fc.uint8Array({ maxLength: 500 }).map((a) => Buffer.from(a)) }), { maxLength: 3 }))
    .map(([f, files]) => { const m = formMultipart(f, files); return { body: m.body, contentType: m.type, raw: false }; }) },
  // A whole message in a field (SendGrid's "send raw", the generic `raw`): kept as sent, headers and all.
  { weight: 1, arbitrary: fc.tuple(messageArb, fc.constantFrom('email', 'raw')).map(([m, field]) => ({ body: Buffer.from(JSON.stringify({ [field]: m.toString('utf8') })), contentType: 'application/json', raw: true })) },
  { weight: 1, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 500 }), fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'image/png', 'text/html', null))
    .map(([bytes, contentType]) => ({ body: Buffer.from(bytes), contentType, raw: false })) },
);

// ---------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------

const IGNORED_REASONS = ['delivery_report', 'mailer_daemon', 'null_sender', 'auto_submitted', 'autoreply_header', 'precedence', 'own_address', 'loop', 'duplicate', 'unreadable', 'no_sender'];

describe('fuzz: mail intake', function () {
  this.timeout(testTimeout(90_000));
  let oracle: OracleSite;
  let server: { port: number; close(): Promise<void> };
  let relay: IssuedCredentials;
  let tools: IssuedCredentials;
  let delivery = 0;

  before(async () => {
    oracle = await openOracle();
    relay = await addTestMailbox(oracle.site, 'relay');
    tools = await addTestMailbox(oracle.site, 'tools', { automation: true });
    server = await listen(oracle.app);
  });
  after(async () => {
    await server?.close();
    if (oracle) fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle?.close();
  });

  /** The tool's connection test (GET with the token) still answers 200. */
  const connectionTestAnswers = () => stillAnswers(server.port, `${API}/webhooks/inbound/${tools.routeKey}`, { Authorization: `Bearer ${tools.token}` });

  /** The receipt the answer names, and what it says was stored. */
  async function assertStored(answer: Record<string, any>, mailboxKey: string, what: string): Promise<Buffer | null> {
    const { site } = oracle;
    const receipt = await site.db.knex(site.db.tables.plugin('svc', 'mail_receipts')).where({ receipt_id: answer.receipt_id }).first();
    assert.ok(receipt, `no receipt ${answer.receipt_id}: ${what}`);
    assert.equal(receipt.mailbox, mailboxKey);
    assert.equal(receipt.outcome, answer.outcome, what);
    assert.equal(receipt.ticket_id === null ? null : Number(receipt.ticket_id), answer.ticket_id, what);
    if (answer.outcome === 'ignored') {
      assert.ok(IGNORED_REASONS.includes(answer.reason), `reason ${answer.reason}: ${what}`);
      // Nothing ignored is lost: the message is kept with its receipt.
      assert.ok(await readAttachmentFile(uploadsDirOf(site.config), String(receipt.raw_file)), `the ignored message is not kept: ${what}`);
      return null;
    }
    const ticket = await site.db.knex(site.db.tables.posts).where({ ID: answer.ticket_id }).first();
    assert.equal(ticket?.post_type, 'svc_ticket', what);
    const message = await site.db.knex(site.db.tables.posts).where({ ID: receipt.message_id }).first();
    assert.equal(message?.post_type, 'svc_message', what);
    assert.equal(Number(message.post_parent), Number(answer.ticket_id), what);
    const original = await site.db.knex(`${site.db.tables.posts} as p`).join(`${site.db.tables.postmeta} as m`, 'm.post_id', 'p.ID')
      .where({ 'p.post_parent': message.ID, 'p.post_type': 'attachment', 'p.post_title': 'original.eml', 'm.meta_key': ATTACHED_FILE_META }).first('m.meta_value');
    assert.ok(original, `no original.eml: ${what}`);
    const bytes = await readAttachmentFile(uploadsDirOf(site.config), String(original.meta_value));
    assert.ok(bytes, `original.eml is not on disk: ${what}`);
    return bytes;
  }

  function assertAnswered(request: FuzzRequest, outcome: FuzzOutcome, statuses: number[]): Record<string, any> {
    const what = explain(request, outcome);
    assert.equal(outcome.kind, 'answer', what);
    if (outcome.kind !== 'answer') throw new Error('unreachable');
    assert.ok(outcome.status < 500, what);
    assert.ok(statuses.includes(outcome.status), what);
    assert.equal(outcome.headers['content-type'], 'application/json; charset=UTF-8', what);
    assert.equal(outcome.headers['cache-control'], 'no-store', what);
    return JSON.parse(outcome.body.toString('utf8'));
  }

  it('relay: acknowledges every signed message with 202 and stores what it acknowledged, byte for byte', async () => {
    const sentBefore = tally.messages;
    await fc.assert(fc.asyncProperty(messageArb.map((m) => shown(m, `message (${m.length} bytes) ${JSON.stringify(m.subarray(0, 300).toString('latin1'))}`)), async (message) => {
      const deliveryId = `fuzz-${process.pid}-${String(++delivery).padStart(8, '0')}`;
      const timestamp = String(Math.floor(oracle.clock.now() / 1000));
      const request: FuzzRequest = {
        method: 'POST', path: `${API}/webhooks/relay/${relay.routeKey}`, body: message,
        headers: {
          'Content-Type': 'message/rfc822', 'X-Svc-Timestamp': timestamp, 'X-Svc-Delivery': deliveryId,
          'X-Svc-Signature': relaySignature(relay.relaySecret, relay.routeKey, timestamp, deliveryId, message),
        },
      };
      tally.messages++;
      const outcome = await send(server.port, request);
      const answer = assertAnswered(request, outcome, [202]);
      const what = explain(request, outcome);
      assert.match(answer.receipt_id, /^[0-9a-f]{32}$/, what);
      const kept = await assertStored(answer, 'relay', what);
      if (kept) assert.ok(kept.equals(message), `original.eml differs from what was relayed: ${what}`);
      assert.ok(await connectionTestAnswers(), `the server stopped answering after ${what}`);
    }), params(60, 300));
    assert.ok(tally.messages > sentBefore);
    assertNothingFailed();
  });

  it('inbound: answers 202 or 422 to anything a tool posts, stores what it acknowledged, and no field adds a header', async () => {
    await fc.assert(fc.asyncProperty(inboundArb.map((p) => shown(p, requestText({ method: 'POST', path: '(inbound)', headers: p.contentType ? { 'Content-Type': p.contentType } : {}, body: p.body }))), async (post) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${tools.token}` };
      if (post.contentType !== null) headers['Content-Type'] = post.contentType;
      const request: FuzzRequest = { method: 'POST', path: `${API}/webhooks/inbound/${tools.routeKey}`, headers, body: post.body };
      tally.messages++;
      const outcome = await send(server.port, request);
      const answer = assertAnswered(request, outcome, [202, 422]);
      const what = explain(request, outcome);
      if (outcome.kind === 'answer' && outcome.status === 422) {
        assert.equal(answer.code, 'svc_invalid_message', what);
        assert.equal(answer.data.status, 422, what);
        assert.ok(Array.isArray(answer.data.missing ?? answer.data.invalid), what);
      } else {
        assert.ok(!['unreadable', 'no_sender'].includes(answer.reason), `the inbound route answers 422 for these: ${what}`);
        const kept = await assertStored(answer, 'tools', what);
        if (kept && !post.raw) {
          // The message composed from posted fields: only the composer writes its header block.
          const head = kept.toString('latin1').split(/\r?\n\r?\n/)[0] as string;
          assert.ok(!new RegExp(`^${INJECTED}:`, 'im').test(head), `a posted field added a header: ${what}\n${head.slice(0, 2_000)}`);
          assert.ok(!/^Bcc:/im.test(head), `a posted field added Bcc: ${what}\n${head.slice(0, 2_000)}`);
        }
      }
      assert.ok(await connectionTestAnswers(), `the server stopped answering after ${what}`);
    }), params(60, 300));
    assertNothingFailed();
  });

  function assertNothingFailed(): void {
    const lines = (oracle.site.logger as unknown as { lines?: Array<{ level: string; message: string; fields?: unknown }> }).lines ?? [];
    assert.deepEqual(lines.filter((l) => l.level === 'error'), [], 'nothing failed unexpectedly');
  }
});
