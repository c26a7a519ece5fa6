/**
 * /support/v1/webhooks/inbound/<route-key>: what automation tools post (each provider's shape, the
 * generic JSON, raw source), the connection test, and every error status of contract section 7.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import request from 'supertest';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { SETUP_FAILED_OPTION } from '../../../lib/support/storage-check';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { API } from '../../harness/support';
import { eventually } from '../../harness/eventually';
import { addTestMailbox, attachmentRows, countRows, fixture, inboundPost, postMeta } from '../../harness/mail';
import { OracleSite, openOracle } from '../../harness/oracle';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');

interface Part {
  name: string;
  value: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body built byte by byte, as the providers send it (text fields carry no charset). */
function multipart(parts: Part[]): { body: Buffer; type: string } {
  const boundary = 'xYzZY-inbound-test';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head = [`--${boundary}`, `Content-Disposition: ${disposition}`, ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []), '', ''].join('\r\n');
    chunks.push(Buffer.from(head), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe('/support/v1/webhooks/inbound/<route-key>', function () {
  let oracle: OracleSite;
  let mailbox: IssuedCredentials;
  const stored = async () => ({ posts: await countRows(oracle.site, 'wp_posts'), receipts: await countRows(oracle.site, 'wp_svc_mail_receipts') });
  const messageOf = async (receiptId: string) => {
    const receipt = await oracle.site.db.knex('wp_svc_mail_receipts').where({ receipt_id: receiptId }).first();
    const row = await oracle.site.db.knex('wp_posts').where({ ID: receipt.message_id }).first();
    return { row, meta: await postMeta(oracle.site, Number(receipt.message_id)), files: await attachmentRows(oracle.site, Number(receipt.message_id)) };
  };

  before(async () => {
    oracle = await openOracle();
    mailbox = await addTestMailbox(oracle.site, 'tools', { automation: true });
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  describe('provider shapes', function () {
    it('reads Postmark inbound JSON: FromFull, TextBody, Headers (the real Message-ID) and base64 Attachments', async () => {
      const res = await inboundPost(oracle.app, mailbox).send({
        FromName: 'Customer One', MessageStream: 'inbound', From: 'customer1@example.test',
        FromFull: { Email: 'customer1@example.test', Name: 'Customer One', MailboxHash: '' },
        To: '"Tools" <tools@support.example.test>', ToFull: [{ Email: 'tools@support.example.test', Name: 'Tools', MailboxHash: '' }],
        Cc: '', Bcc: '', OriginalRecipient: 'tools@support.example.test', Subject: 'Re: Cancel my subscription',
        MessageID: '73e6d360-66eb-11e1-8e72-a8904824019b', ReplyTo: '', MailboxHash: '', Date: 'Wed, 18 Mar 2026 09:00:00 +0100',
        TextBody: 'Please cancel at the end of the month.\n\nOn Tue, Mar 17, 2026 at 5:00 PM Agent One <agent1@example.test> wrote:\n> Shall we cancel now?\n',
        HtmlBody: '<p>Please cancel at the end of the month.</p>', StrippedTextReply: 'Please cancel at the end of the month.', Tag: '',
        Headers: [
          { Name: 'X-Spam-Status', Value: 'No' },
          { Name: 'Message-ID', Value: '<pm-inbound-1@mail.example.test>' },
          { Name: 'In-Reply-To', Value: '<ticket-442-2@oracle.example.test>' },
        ],
        Attachments: [{ Name: 'screenshot.png', Content: PNG.toString('base64'), ContentType: 'image/png', ContentLength: PNG.length, ContentID: 'ii_m1x2@mail' }],
      });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', 442]);
      const { row, meta, files } = await messageOf(res.body.receipt_id);
      assert.equal(row.post_content, 'Please cancel at the end of the month.');
      assert.equal(meta._svc_message_id, '<pm-inbound-1@mail.example.test>');
      assert.equal(meta._svc_in_reply_to, '<ticket-442-2@oracle.example.test>');
      assert.deepEqual(files.map((f: { post_title: string; post_mime_type: string }) => [f.post_title, f.post_mime_type]), [['screenshot.png', 'image/png'], ['original.eml', 'message/rfc822']]);
      assert.equal((await postMeta(oracle.site, Number(files[0].ID)))._svc_content_id, 'ii_m1x2@mail');
    });

    it('reads Mailgun\'s form-encoded route fields, with message-headers as a JSON list', async () => {
      const form = new URLSearchParams({
        recipient: 'tools@support.example.test', sender: 'bounce+abc@mg.example.org', from: 'Nadia Petrova <nadia@example.org>',
        subject: 'Löschung meines Kontos', 'body-plain': 'Bitte löschen Sie mein Konto.\n\n-- \nNadia', 'stripped-text': 'Bitte löschen Sie mein Konto.',
        'body-html': '<p>Bitte löschen Sie mein Konto.</p>', 'Message-Id': '<mg-1@example.org>', timestamp: '1773824400', token: 'abc', signature: 'def',
        'message-headers': JSON.stringify([['Received', 'by mg.example.org'], ['Message-Id', '<mg-1@example.org>'], ['X-Mailgun-Incoming', 'Yes']]),
      });
      const res = await inboundPost(oracle.app, mailbox).type('form').send(form.toString());
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.outcome, 'ticket_created');
      const ticket = await oracle.site.db.knex('wp_posts').where({ ID: res.body.ticket_id }).first();
      const ticketMeta = await postMeta(oracle.site, res.body.ticket_id);
      assert.equal(ticket.post_title, 'Löschung meines Kontos');
      assert.deepEqual([ticketMeta._svc_customer_name, ticketMeta._svc_customer_email, ticketMeta._svc_source, ticketMeta._svc_mailbox], ['Nadia Petrova', 'nadia@example.org', 'email', 'tools']);
      const { row, meta } = await messageOf(res.body.receipt_id);
      assert.equal(row.post_content, 'Bitte löschen Sie mein Konto.');
      assert.equal(meta._svc_message_id, '<mg-1@example.org>');
    });

    it('reads Mailgun multipart with attachment-N files and the content-id-map', async () => {
      const { body, type } = multipart([
        { name: 'recipient', value: 'tools@support.example.test' }, { name: 'sender', value: 'ola@example.no' },
        { name: 'from', value: 'Ola Nordmann <ola@example.no>' }, { name: 'subject', value: 'Logo on the invoice' },
        { name: 'body-plain', value: 'The logo is blurry, see [image: logo.png] and the attached PDF.' },
        { name: 'attachment-count', value: '2' }, { name: 'content-id-map', value: JSON.stringify({ '<logo@ola>': 'attachment-1' }) },
        { name: 'attachment-1', value: PNG, filename: 'logo.png', contentType: 'image/png' },
        { name: 'attachment-2', value: Buffer.from('%PDF-1.4\n%%EOF\n'), filename: 'invoice.pdf', contentType: 'application/pdf' },
      ]);
      const res = await inboundPost(oracle.app, mailbox).set('Content-Type', type).send(body);
      assert.equal(res.status, 202, res.text);
      const { files } = await messageOf(res.body.receipt_id);
      assert.deepEqual(files.map((f: { post_title: string }) => f.post_title), ['logo.png', 'invoice.pdf', 'original.eml']);
      assert.equal((await postMeta(oracle.site, Number(files[0].ID)))._svc_content_id, 'logo@ola');
    });

    it('reads Mailgun\'s fields posted as JSON too', async () => {
      const res = await inboundPost(oracle.app, mailbox).send({
        sender: 'ines@example.pt', from: 'Inês Costa <ines@example.pt>', recipient: 'tools@support.example.test',
        subject: 'Fatura duplicada', 'body-plain': 'Recebi a fatura duas vezes.', 'Message-Id': '<mg-json-1@example.pt>',
      });
      assert.equal(res.status, 202, res.text);
      assert.equal((await messageOf(res.body.receipt_id)).row.post_content, 'Recebi a fatura duas vezes.');
    });

    it('reads SendGrid Inbound Parse multipart: raw header block, text in the charset `charsets` names, attachment-info', async () => {
      const { body, type } = multipart([
        { name: 'headers', value: 'Received: by mx.sendgrid.net\nMessage-ID: <sg-1@example.fr>\nIn-Reply-To: <ticket-624-4@oracle.example.test>\nFrom: Customer One <customer1@example.test>\nSubject: Re: Change the shipping address' },
        { name: 'dkim', value: '{@example.test : pass}' }, { name: 'to', value: 'tools@support.example.test' },
        { name: 'from', value: 'Customer One <customer1@example.test>' }, { name: 'subject', value: 'Re: Change the shipping address' },
        { name: 'text', value: Buffer.from('Merci, la nouvelle adresse est à Genève.\n', 'latin1') },
        { name: 'html', value: '<p>Merci, la nouvelle adresse est à Genève.</p>' }, { name: 'sender_ip', value: '203.0.113.10' },
        { name: 'envelope', value: JSON.stringify({ to: ['tools@support.example.test'], from: 'customer1@example.test' }) },
        { name: 'attachments', value: '1' },
        { name: 'attachment-info', value: JSON.stringify({ attachment1: { filename: 'adresse.txt', name: 'adresse.txt', type: 'text/plain' } }) },
        { name: 'charsets', value: JSON.stringify({ to: 'UTF-8', html: 'UTF-8', subject: 'UTF-8', from: 'UTF-8', text: 'iso-8859-1' }) },
        { name: 'SPF', value: 'pass' },
        { name: 'attachment1', value: Buffer.from('Rue du Rhône 1, 1204 Genève\n'), filename: 'adresse.txt', contentType: 'text/plain' },
      ]);
      const res = await inboundPost(oracle.app, mailbox).set('Content-Type', type).send(body);
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', 624]);
      const { row, meta, files } = await messageOf(res.body.receipt_id);
      assert.equal(row.post_content, 'Merci, la nouvelle adresse est à Genève.');
      assert.equal(meta._svc_message_id, '<sg-1@example.fr>');
      assert.deepEqual(files.map((f: { post_title: string }) => f.post_title), ['adresse.txt', 'original.eml']);
    });

    it('reads SendGrid with "send raw" on: the `email` field is the message, its bytes kept as they are', async () => {
      const raw = fixture('08-shift-jis.eml');
      const { body, type } = multipart([
        { name: 'dkim', value: 'none' }, { name: 'email', value: raw }, { name: 'to', value: 'tools@support.example.test' },
        { name: 'from', value: 'tanaka@example.jp' }, { name: 'subject', value: '=?ISO-2022-JP?B?GyRCQ21KOCQsRk8kLSReJDskcxsoQg==?=' },
        { name: 'charsets', value: JSON.stringify({ to: 'UTF-8', subject: 'UTF-8', from: 'UTF-8' }) }, { name: 'SPF', value: 'pass' },
      ]);
      const res = await inboundPost(oracle.app, mailbox).set('Content-Type', type).send(body);
      assert.equal(res.status, 202, res.text);
      const { row, files } = await messageOf(res.body.receipt_id);
      assert.match(row.post_content, /^サポートご担当者様\n\n注文番号 58213/);
      const original = (await postMeta(oracle.site, Number(files[files.length - 1].ID)))._wp_attached_file as string;
      assert.deepEqual(fs.readFileSync(`${uploadsDirOf(oracle.site.config)}/${original}`), raw);
    });

    it('reads the generic JSON shape: from as an object, base64 attachments, headers, threading fields', async () => {
      const res = await inboundPost(oracle.app, mailbox).send({
        from: { name: 'Customer One', email: 'customer1@example.test' }, to: ['tools@support.example.test'], subject: 'Re: Wrong item delivered',
        text: 'The replacement arrived, thanks!\n\nOn Mon, Mar 16, 2026 at 9:00 AM Manager One <manager1@example.test> wrote:\n> We sent a replacement.',
        message_id: '<zap-1@example.test>', in_reply_to: '<ticket-629-4@oracle.example.test>', references: ['<ticket-629-1@oracle.example.test>'],
        headers: { 'X-Zapier-Zap': '123' },
        attachments: [{ filename: 'receipt.png', content_type: 'image/png', content: PNG.toString('base64') }],
      });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', 629]);
      const { row, files } = await messageOf(res.body.receipt_id);
      assert.equal(row.post_content, 'The replacement arrived, thanks!');
      assert.deepEqual(files.map((f: { post_title: string }) => f.post_title), ['receipt.png', 'original.eml']);
    });

    it('gives HTML-only generic mail a text body', async () => {
      const res = await inboundPost(oracle.app, mailbox).send({
        from: 'Ken Adams <ken@example.com>', subject: 'HTML only', html: '<div><b>Order 5512</b> arrived <i>damaged</i>.</div><script>x()</script>',
      });
      assert.equal(res.status, 202, res.text);
      assert.equal((await messageOf(res.body.receipt_id)).row.post_content, 'Order 5512 arrived damaged.');
    });

    it('stores a repeated post once: by its Message-ID, else by its exact body', async () => {
      const withId = { from: 'rep@example.com', subject: 'Repeat', text: 'Same message.', message_id: '<repeat-1@example.com>' };
      const first = await inboundPost(oracle.app, mailbox).send(withId);
      const again = await inboundPost(oracle.app, mailbox).send({ ...withId, headers: { 'X-Retry': '1' } });
      assert.equal(again.body.receipt_id, first.body.receipt_id);
      const noId = { from: 'rep@example.com', subject: 'Repeat without id', text: 'Same message.' };
      const a = await inboundPost(oracle.app, mailbox).send(noId);
      const b = await inboundPost(oracle.app, mailbox).send(noId);
      assert.equal(b.body.receipt_id, a.body.receipt_id);
      assert.notEqual(a.body.receipt_id, first.body.receipt_id);
      assert.equal(await countRows(oracle.site, 'wp_svc_mail_receipts', { mailbox: 'tools', receipt_id: a.body.receipt_id }), 1);
    });

    it('ignores automatic mail posted as fields (Auto-Submitted among the headers)', async () => {
      const res = await inboundPost(oracle.app, mailbox).send({
        from: 'customer1@example.test', subject: 'Out of office', text: 'I am away.', headers: [{ name: 'Auto-Submitted', value: 'auto-replied' }],
      });
      assert.equal(res.status, 202);
      assert.deepEqual([res.body.outcome, res.body.reason], ['ignored', 'auto_submitted']);
    });

    it('takes the raw message as message/rfc822, as text/plain, and without a Content-Type', async () => {
      for (const [name, type] of [['07-windows-1252.eml', 'message/rfc822'], ['03-multipart-alternative.eml', 'text/plain'], ['06-iso-8859-1.eml', undefined]] as const) {
        const req = inboundPost(oracle.app, mailbox);
        const res = await (type ? req.set('Content-Type', type) : req).send(fixture(name));
        assert.equal(res.status, 202, `${name}: ${res.text}`);
        assert.equal(res.body.outcome, 'ticket_created', name);
      }
      const ticket = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_ticket', post_title: 'Price – €19 or €24?' }).first();
      assert.ok(ticket, 'the Windows-1252 subject was decoded');
    });
  });

  describe('the connection test (GET)', function () {
    it('answers ok, the mailbox address and max_bytes, and stores nothing', async () => {
      const before = await stored();
      const res = await request(oracle.app).get(`${API}/webhooks/inbound/${mailbox.routeKey}`).set('Authorization', `Bearer ${mailbox.token}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { ok: true, address: 'tools@support.example.test', max_bytes: 10 * 1024 * 1024 });
      assert.deepEqual(await stored(), before);
    });

    it('needs the token like the POST does', async () => {
      const res = await request(oracle.app).get(`${API}/webhooks/inbound/${mailbox.routeKey}`);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'svc_invalid_token');
    });
  });

  describe('errors', function () {
    const message = { from: 'err@example.com', subject: 'Error test', text: 'Body.' };

    it('401 without a token, with a wrong Bearer token, with a wrong X-Svc-Token; X-Svc-Token works when right', async () => {
      const before = await stored();
      const url = `${API}/webhooks/inbound/${mailbox.routeKey}`;
      for (const req of [
        request(oracle.app).post(url),
        request(oracle.app).post(url).set('Authorization', 'Bearer wrong-token'),
        request(oracle.app).post(url).set('Authorization', `Basic ${Buffer.from(`x:${mailbox.token}`).toString('base64')}`),
        request(oracle.app).post(url).set('X-Svc-Token', 'wrong-token'),
      ]) {
        const res = await req.send(message);
        assert.equal(res.status, 401, res.text);
        assert.equal(res.body.code, 'svc_invalid_token');
      }
      assert.deepEqual(await stored(), before);
      const ok = await request(oracle.app).post(url).set('X-Svc-Token', mailbox.token as string).send(message);
      assert.equal(ok.status, 202, ok.text);
    });

    it('403 while automation tools are off for the mailbox (POST and GET), with a right token', async () => {
      const off = await addTestMailbox(oracle.site, 'tools-off', { automation: false });
      const post = await inboundPost(oracle.app, off).send(message);
      assert.equal(post.status, 403);
      assert.equal(post.body.code, 'svc_automation_disabled');
      const get = await request(oracle.app).get(`${API}/webhooks/inbound/${off.routeKey}`).set('Authorization', `Bearer ${off.token}`);
      assert.equal(get.status, 403);
      assert.equal(await countRows(oracle.site, 'wp_svc_mail_receipts', { mailbox: 'tools-off' }), 0);
    });

    it('404 for a route key that names no mailbox (POST and GET)', async () => {
      for (const res of [
        await request(oracle.app).post(`${API}/webhooks/inbound/site-1-nobody`).set('Authorization', `Bearer ${mailbox.token}`).send(message),
        await request(oracle.app).get(`${API}/webhooks/inbound/site-7-tools`).set('Authorization', `Bearer ${mailbox.token}`),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'svc_mailbox_not_found');
      }
    });

    it('413 past the mailbox\'s own max_bytes', async () => {
      const small = await addTestMailbox(oracle.site, 'tools-small', { maxBytes: 2048 });
      const fits = await inboundPost(oracle.app, small).send({ ...message, text: 'x'.repeat(1000) });
      assert.equal(fits.status, 202, fits.text);
      const res = await inboundPost(oracle.app, small).send({ ...message, text: 'x'.repeat(3000) });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'rest_payload_too_large');
      assert.equal(res.body.data.max_bytes, 2048);
      const test = await request(oracle.app).get(`${API}/webhooks/inbound/${small.routeKey}`).set('Authorization', `Bearer ${small.token}`);
      assert.equal(test.body.max_bytes, 2048);
    });

    it('422 naming the missing fields, in the shape\'s own terms, and storing nothing', async () => {
      const before = await stored();
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ subject: 'No sender, no body' }, ['from', 'text or html']],
        [{ from: 'Someone without an address', text: 'x' }, ['from']],
        [{ FromFull: { Email: '', Name: '' }, Subject: 'Postmark without sender', TextBody: '' }, ['From', 'TextBody or HtmlBody']],
        [{ sender: 'a@example.com', recipient: 'tools@support.example.test', subject: 'Mailgun without body' }, ['body-plain or body-html']],
      ];
      for (const [body, missing] of cases) {
        const res = await inboundPost(oracle.app, mailbox).send(body);
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.code, 'svc_invalid_message');
        assert.deepEqual(res.body.data.missing, missing);
      }
      const raw = await inboundPost(oracle.app, mailbox).set('Content-Type', 'message/rfc822').send('Subject: no sender\r\n\r\nHello\r\n');
      assert.deepEqual([raw.status, raw.body.data.missing], [422, ['from']]);
      const empty = await inboundPost(oracle.app, mailbox).set('Content-Type', 'message/rfc822').send('');
      assert.deepEqual([empty.status, empty.body.data.missing], [422, ['message']]);
      assert.deepEqual(await stored(), before);
    });

    it('422 for fields that cannot be used: broken JSON, bad base64, an unsupported Content-Type', async () => {
      const broken = await inboundPost(oracle.app, mailbox).set('Content-Type', 'application/json').send('{"from": ');
      assert.deepEqual([broken.status, broken.body.data.invalid], [422, ['body']]);
      const base64 = await inboundPost(oracle.app, mailbox).send({ ...message, attachments: [{ filename: 'a.txt', content: 'not base64!' }] });
      assert.deepEqual([base64.status, base64.body.data.invalid], [422, ['attachments[0].content']]);
      const xml = await inboundPost(oracle.app, mailbox).set('Content-Type', 'application/xml').send('<mail/>');
      assert.deepEqual([xml.status, xml.body.data.invalid], [422, ['content-type']]);
    });

    it('503 storage_unavailable while the setup-failed notice is on (POST and GET)', async () => {
      await oracle.site.db.knex('wp_options').insert({ option_name: SETUP_FAILED_OPTION, option_value: 'Table wp_svc_jobs is missing.', autoload: 'no' });
      const url = `${API}/webhooks/inbound/${mailbox.routeKey}`;
      try {
        await eventually(async () => (await inboundPost(oracle.app, mailbox).send(message)).status === 503, 3000);
        const before = await stored();
        const post = await inboundPost(oracle.app, mailbox).send({ ...message, text: 'During the outage.' });
        assert.deepEqual([post.status, post.body.code], [503, 'storage_unavailable']);
        const get = await request(oracle.app).get(url).set('Authorization', `Bearer ${mailbox.token}`);
        assert.deepEqual([get.status, get.body.code], [503, 'storage_unavailable']);
        assert.deepEqual(await stored(), before);
      } finally {
        await oracle.site.db.knex('wp_options').where({ option_name: SETUP_FAILED_OPTION }).del();
      }
      await eventually(async () => (await request(oracle.app).get(url).set('Authorization', `Bearer ${mailbox.token}`)).status === 200, 3000);
    });
  });
});
