/** GET /support/v1/tickets/<id>/attachments/<file-id>: files of a conversation, downloaded safely. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { API, as } from '../../harness/support';
import { OracleSite, openOracle } from '../../harness/oracle';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');
const HTML = Buffer.from('<html><script>alert(document.cookie)</script></html>');

describe('ticket attachments', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  /** A ticket of customer1 with a customer reply carrying files, and an internal note carrying one. */
  const setup = async () => {
    const ticket = (await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Files', body: 'x' })).body;
    const reply = await as(oracle.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`)
      .field('body', 'Screenshots attached').field('version', '1')
      .attach('files[]', PNG, { filename: 'screen.png', contentType: 'image/png' })
      .attach('files[]', HTML, { filename: 'x.png', contentType: 'image/png' });
    assert.equal(reply.status, 201, reply.text);
    const note = await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`)
      .field('body', 'Internal log').field('version', '2').field('visibility', 'internal')
      .attach('file', Buffer.from('secret log'), { filename: 'log.txt', contentType: 'text/plain' });
    assert.equal(note.status, 201, note.text);
    const [png, disguised] = reply.body.attachments;
    return { ticketId: ticket.id as number, png, disguised, log: note.body.attachments[0] };
  };

  it('stores uploaded files in the private uploads folder as attachment posts of the message', async () => {
    const { png } = await setup();
    const row = await oracle.site.db.knex('wp_posts').where({ ID: png.id }).first();
    assert.deepEqual([row.post_type, row.post_status, row.post_mime_type, row.post_title], ['attachment', 'inherit', 'image/png', 'screen.png']);
    const file = await oracle.site.db.knex('wp_postmeta').where({ post_id: png.id, meta_key: '_wp_attached_file' }).first();
    assert.match(file.meta_value, /^svc-private\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    assert.deepEqual(fs.readFileSync(path.join(uploadsDirOf(oracle.site.config), file.meta_value)), PNG);
    assert.ok(fs.existsSync(path.join(uploadsDirOf(oracle.site.config), 'svc-private', '.htaccess')));
  });

  it('always downloads, with nosniff, unless inline=1 is asked for a real image', async () => {
    const { ticketId, png } = await setup();
    const download = await as(oracle.app, 'customer1').get(`${API}/tickets/${ticketId}/attachments/${png.id}`).buffer(true);
    assert.equal(download.status, 200);
    assert.match(download.headers['content-disposition'], /^attachment; filename="screen.png"/);
    assert.equal(download.headers['content-type'], 'application/octet-stream');
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
    assert.equal(download.headers['cache-control'], 'private, no-store');
    assert.deepEqual(download.body, PNG);
    const inline = await as(oracle.app, 'customer1').get(`${API}/tickets/${ticketId}/attachments/${png.id}?inline=1`).buffer(true);
    assert.match(inline.headers['content-disposition'], /^inline; filename="screen.png"/);
    assert.equal(inline.headers['content-type'], 'image/png');
    assert.equal(inline.headers['x-content-type-options'], 'nosniff');
  });

  it('never serves HTML named x.png inline, and never as an image type', async () => {
    const { ticketId, disguised } = await setup();
    assert.equal(disguised.mime_type, 'application/octet-stream', 'the stored type comes from the bytes');
    const res = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticketId}/attachments/${disguised.id}?inline=1`).buffer(true);
    assert.equal(res.status, 200);
    assert.match(res.headers['content-disposition'], /^attachment;/);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.headers['content-security-policy'], /sandbox/);
  });

  it('keeps a declared type only when post_mime_type can hold it whole (100 characters)', async () => {
    const ticket = (await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Types', body: 'x' })).body;
    const long = `application/${'x'.repeat(120)}`;
    const reply = await as(oracle.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`)
      .field('body', 'Files').field('version', '1')
      .attach('files[]', Buffer.from('a'), { filename: 'a.bin', contentType: long })
      .attach('files[]', Buffer.from('b'), { filename: 'b.pdf', contentType: 'application/pdf' });
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(reply.body.attachments.map((a: { mime_type: string }) => a.mime_type), ['application/octet-stream', 'application/pdf']);
  });

  it('gives a customer no file of an internal note, and no file of another customer\'s ticket', async () => {
    const { ticketId, png, log } = await setup();
    const note = await as(oracle.app, 'customer1').get(`${API}/tickets/${ticketId}/attachments/${log.id}`);
    assert.equal(note.status, 404);
    assert.equal(note.body.code, 'svc_attachment_not_found');
    const agent = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticketId}/attachments/${log.id}`).buffer(true);
    assert.equal(agent.status, 200);
    const other = await as(oracle.app, 'customer2').get(`${API}/tickets/${ticketId}/attachments/${png.id}`);
    assert.equal(other.status, 404);
    assert.equal(other.body.code, 'svc_ticket_not_found');
    const wrongTicket = await as(oracle.app, 'agent1').get(`${API}/tickets/4/attachments/${png.id}`);
    assert.equal(wrongTicket.status, 404);
  });
});
