/** `GET /wp-json/frm/forms`: the block editor's form list, for users with `edit_forms` only. */
import assert from 'node:assert/strict';
import request from 'supertest';
import { credentials } from '../../harness/oracle';
import { FormSite, cookieOf, insertFormRow, openFormSite } from '../../harness/forms';

describe('GET /wp-json/frm/forms', function () {
  let fs: FormSite;
  const made: Record<string, number> = {};
  before(async () => {
    fs = await openFormSite();
    made.contact = await insertFormRow(fs.site, { title: 'Contact', slug: 'contact' });
    fs.clock.advance(60_000);
    made.draft = await insertFormRow(fs.site, { title: 'Draft "quoted" <b>', slug: 'draft-form', status: 'draft' });
    made.trashed = await insertFormRow(fs.site, { title: 'Old', slug: 'old', status: 'trash' });
  });
  after(async () => { await fs.close(); });

  const asAdmin = () => request(fs.app).get('/wp-json/frm/forms').set('Authorization', credentials.application_passwords.admin.basic_auth_header);

  it('lists every form (drafts too, not trashed ones), newest first, as exactly {ID, title, slug}', async () => {
    const res = await asAdmin();
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, [
      { ID: made.draft, title: 'Draft "quoted" <b>', slug: 'draft-form' },
      { ID: made.contact, title: 'Contact', slug: 'contact' },
    ]);
  });

  it('answers a user with edit_forms as a direct capability (editor1, cookie and wp_rest nonce)', async () => {
    const res = await request(fs.app).get('/wp-json/frm/forms')
      .set('Cookie', cookieOf('editor1')).set('X-WP-Nonce', credentials.sessions.editor1.rest_nonce);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 2);
  });

  it('refuses a signed-in user without edit_forms with 403 rest_forbidden', async () => {
    const res = await request(fs.app).get('/wp-json/frm/forms').set('Authorization', credentials.application_passwords.customer1.basic_auth_header);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
  });

  it('refuses a signed-out caller with 401 rest_forbidden', async () => {
    const res = await request(fs.app).get('/wp-json/frm/forms');
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'rest_forbidden');
  });

  it('describes its item schema on OPTIONS', async () => {
    const res = await request(fs.app).options('/wp-json/frm/forms');
    assert.equal(res.status, 200);
    assert.equal(res.body.namespace, 'frm');
    assert.deepEqual(Object.keys(res.body.schema.properties), ['ID', 'title', 'slug']);
  });
});
