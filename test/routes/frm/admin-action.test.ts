/**
 * `admin-ajax.php?action=frm_admin_action`: each sub-operation on rows an existing site already has,
 * and the refusals (signed out, bad nonce, no `edit_forms`, bad arguments) that must change nothing.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { toPlain, unserialize } from '../../../lib/wp/php';
import { FormSite, cookieOf, insertFormRow, insertSubmissionRow, nonceFor, openFormSite, submissionRows } from '../../harness/forms';

/** PHP's bracket syntax, as a browser or jQuery.param would send nested admin payloads. */
function phpForm(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, item]) => {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (item !== null && typeof item === 'object') return phpForm(item as Record<string, unknown>, name);
    return [`${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`];
  });
}

describe('POST /wp-admin/admin-ajax.php action=frm_admin_action', function () {
  let fs: FormSite;
  before(async () => { fs = await openFormSite(); });
  after(async () => { await fs.close(); });

  const call = async (login: string | undefined, fields: Record<string, unknown>, nonce?: string) => {
    const body = { action: 'frm_admin_action', _ajax_nonce: nonce ?? (login ? await nonceFor(fs.site, 'frm_admin_action', login) : ''), ...fields };
    const req = request(fs.app).post('/wp-admin/admin-ajax.php').type('form');
    if (login) req.set('Cookie', cookieOf(login));
    return req.send(phpForm(body).join('&'));
  };
  const formCount = async () => Number((await fs.site.db.knex(fs.site.db.tables.posts).where({ post_type: 'frm-form' }).count({ n: '*' }).first())?.n);
  const metaOf = async (id: number) => Object.fromEntries((await fs.site.db.knex(fs.site.db.tables.postmeta).where({ post_id: id }))
    .map((r: { meta_key: string; meta_value: string }) => [r.meta_key, r.meta_value]));

  describe('refusals', () => {
    it('answers a signed-out caller 0 with 400 (the action has no nopriv hook) and creates nothing', async () => {
      const before = await formCount();
      const res = await call(undefined, { _frm_admin_action: 'create_form', title: 'Nope' }, 'x');
      assert.equal(res.status, 400);
      assert.equal(res.text, '0');
      assert.equal(await formCount(), before);
    });

    it('refuses a missing, wrong or other-action nonce with -1 and 403, and creates nothing', async () => {
      const before = await formCount();
      for (const nonce of ['', 'deadbeef00', await nonceFor(fs.site, 'frm_form_submit', 'editor1'), await nonceFor(fs.site, 'frm_admin_action', 'admin')]) {
        const res = await call('editor1', { _frm_admin_action: 'create_form', title: 'Nope' }, nonce);
        assert.equal(res.status, 403, nonce);
        assert.equal(res.text, '-1');
      }
      assert.equal(await formCount(), before);
    });

    it('refuses a signed-in user without edit_forms with 403 frm_cannot_edit_forms, and creates nothing', async () => {
      const before = await formCount();
      const res = await call('customer1', { _frm_admin_action: 'create_form', title: 'Nope' });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { success: false, data: [{ code: 'frm_cannot_edit_forms', message: 'Sorry, you are not allowed to manage forms.' }] });
      assert.equal(await formCount(), before);
    });

    it('refuses an unknown sub-operation and bad arguments with 400, naming them, and changes nothing', async () => {
      const id = await insertFormRow(fs.site, { title: 'Keep me' });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ _frm_admin_action: 'drop_tables' }, 'frm_unknown_admin_action'],
        [{ _frm_admin_action: 'create_form' }, 'rest_missing_callback_param'],
        [{ _frm_admin_action: 'save_form', form_id: id, title: 'Changed', settings: { colour: 'red' } }, 'rest_invalid_param'],
        [{ _frm_admin_action: 'save_form', form_id: id, messages: { 'Bad Code': 'x' } }, 'rest_invalid_param'],
        [{ _frm_admin_action: 'list_submissions', form_id: id, per_page: 500 }, 'rest_invalid_param'],
      ];
      for (const [fields, code] of cases) {
        const res = await call('editor1', fields);
        assert.equal(res.status, 400, JSON.stringify(fields));
        assert.equal(res.body.success, false);
        assert.equal(res.body.data[0].code, code, res.text);
      }
      const form = await fs.site.db.knex(fs.site.db.tables.posts).where({ ID: id }).first();
      assert.equal(form.post_title, 'Keep me');
    });

    it('answers 404 frm_form_not_found for a form that does not exist, and leaves other posts alone', async () => {
      const ticket = await fs.site.db.knex(fs.site.db.tables.posts).whereNot({ post_type: 'frm-form' }).first('ID', 'post_title');
      const metaBefore = await metaOf(ticket.ID);
      for (const op of ['save_form', 'delete_form', 'list_submissions', 'export_submissions']) {
        const res = await call('editor1', { _frm_admin_action: op, form_id: ticket.ID, title: 'x' });
        assert.equal(res.status, 404, op);
        assert.equal(res.body.data[0].code, 'frm_form_not_found', op);
      }
      assert.equal((await fs.site.db.knex(fs.site.db.tables.posts).where({ ID: ticket.ID }).first()).post_title, ticket.post_title);
      assert.deepEqual(await metaOf(ticket.ID), metaBefore);
    });
  });

  describe('create_form', () => {
    it('creates a published frm-form post with its settings and messages in postmeta (editor with the capability given directly)', async () => {
      const res = await call('editor1', {
        _frm_admin_action: 'create_form', title: 'Contact us', markup: '<input name="email" />',
        settings: { required_fields: 'email', hide_after_success: 'true', actions: [{ type: 'email', to: 'owner@example.test', message: '[all]' }] },
        messages: { success: 'Got it.' },
      });
      assert.equal(res.status, 200, res.text);
      const form = res.body.data;
      assert.equal(res.body.success, true);
      assert.deepEqual({ ...form, ID: 0 }, {
        ID: 0, title: 'Contact us', slug: 'contact-us', status: 'publish', markup: '<input name="email" />',
        settings: { save_submissions: true, hide_after_success: true, redirect_url: '', required_fields: 'email', email_fields: '', actions: [{ type: 'email', to: 'owner@example.test', message: '[all]' }] },
        messages: { success: 'Got it.', invalid_email: 'Sorry, that email address looks invalid.', required_field_missing: 'Please fill in the required fields.', error: 'Oops. An error occurred.' },
      });
      const post = await fs.site.db.knex(fs.site.db.tables.posts).where({ ID: form.ID }).first();
      assert.deepEqual([post.post_type, post.post_status, post.post_name, post.post_content, Number(post.post_author)], ['frm-form', 'publish', 'contact-us', '<input name="email" />', 6]);
      const meta = await metaOf(form.ID);
      assert.equal(meta.frm_message_success, 'Got it.');
      assert.deepEqual(toPlain(unserialize(meta._frm_settings)!), {
        save_submissions: 1, hide_after_success: 1, redirect_url: '', required_fields: 'email', email_fields: '',
        actions: [{ type: 'email', to: 'owner@example.test', message: '[all]' }],
      });
    });

    it('gives a second form with the same title a unique slug', async () => {
      const first = await call('admin', { _frm_admin_action: 'create_form', title: 'Newsletter' });
      const second = await call('admin', { _frm_admin_action: 'create_form', title: 'Newsletter' });
      assert.equal(first.body.data.slug, 'newsletter');
      assert.equal(second.body.data.slug, 'newsletter-2');
    });
  });

  describe('save_form', () => {
    it("changes what is sent, keeps the rest, and keeps settings keys another plugin version wrote", async () => {
      // Exactly as PHP's admin screen saved it: strings everywhere, plus a key we do not know.
      const settings = 'a:6:{s:16:"save_submissions";s:1:"1";s:18:"hide_after_success";s:1:"0";s:12:"redirect_url";s:0:"";' +
        's:15:"required_fields";s:4:"name";s:12:"email_fields";s:0:"";s:15:"load_stylesheet";s:1:"1";}';
      const id = await insertFormRow(fs.site, { title: 'Old', slug: 'old', settings, messages: { error: 'Custom error', success: 'Custom success' } });
      const res = await call('admin', {
        _frm_admin_action: 'save_form', form_id: id, title: 'New title', slug: 'New Slug!',
        settings: { redirect_url: 'https://example.test/thanks', save_submissions: '0' }, messages: { success: '', invalid_nonce: 'Reload, please.' },
      });
      assert.equal(res.status, 200, res.text);
      const form = res.body.data;
      assert.equal(form.title, 'New title');
      assert.equal(form.slug, 'new-slug');
      assert.equal(form.settings.required_fields, 'name', 'unchanged keys stay');
      assert.equal(form.settings.save_submissions, false);
      assert.equal(form.messages.success, 'Thank you! We will be in touch soon.', 'an empty message restores the default');
      assert.equal(form.messages.error, 'Custom error');
      assert.equal(form.messages.invalid_nonce, 'Reload, please.');
      const meta = await metaOf(id);
      assert.equal(meta.frm_message_success, undefined);
      assert.equal(meta._frm_settings, 'a:6:{s:16:"save_submissions";i:0;s:18:"hide_after_success";s:1:"0";s:12:"redirect_url";s:27:"https://example.test/thanks";' +
        's:15:"required_fields";s:4:"name";s:12:"email_fields";s:0:"";s:15:"load_stylesheet";s:1:"1";}');
    });
  });

  describe('delete_form', () => {
    it('deletes the form, its meta and its submissions, and nothing of other forms', async () => {
      const doomed = await insertFormRow(fs.site, { settings: { save_submissions: '1' }, messages: { success: 'x' } });
      const other = await insertFormRow(fs.site);
      await insertSubmissionRow(fs.site, { form_id: doomed, data: { a: '1' } });
      await insertSubmissionRow(fs.site, { form_id: other, data: { b: '2' } });
      const res = await call('editor1', { _frm_admin_action: 'delete_form', form_id: doomed });
      assert.deepEqual(res.body, { success: true, data: { ID: doomed, deleted: true, submissions_deleted: 1 } });
      assert.equal(await fs.site.db.knex(fs.site.db.tables.posts).where({ ID: doomed }).first(), undefined);
      assert.deepEqual(await metaOf(doomed), {});
      assert.equal((await submissionRows(fs.site, doomed)).length, 0);
      assert.equal((await submissionRows(fs.site, other)).length, 1);
    });
  });

  describe('submissions of an existing site', () => {
    let formId: number;
    let otherId: number;
    const ids: number[] = [];
    before(async () => {
      formId = await insertFormRow(fs.site, { title: 'Survey', slug: 'survey' });
      otherId = await insertFormRow(fs.site, { title: 'Other' });
      // `data` exactly as PHP's json_encode wrote it: escaped slashes and \u escapes.
      ids.push(await insertSubmissionRow(fs.site, { form_id: formId, data: '{"name":"Ren\\u00e9e","site":"https:\\/\\/example.test"}', submitted_at: '2026-11-01 10:00:00' }));
      ids.push(await insertSubmissionRow(fs.site, { form_id: formId, data: { name: '=HYPERLINK("http://evil.test","x")', note: 'a, "quoted"\nline' }, submitted_at: '2026-11-02 10:00:00' }));
      ids.push(await insertSubmissionRow(fs.site, { form_id: formId, data: { name: 'Bot' }, is_spam: 1, submitted_at: '2026-11-03 10:00:00' }));
      ids.push(await insertSubmissionRow(fs.site, { form_id: otherId, data: { secret: 'other form' }, submitted_at: '2026-11-04 10:00:00' }));
    });

    it('lists a page newest first, without spam by default, with totals and nothing of another form', async () => {
      const res = await call('editor1', { _frm_admin_action: 'list_submissions', form_id: formId, per_page: 1 });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, {
        submissions: [{
          id: ids[1], form_id: formId, data: { name: '=HYPERLINK("http://evil.test","x")', note: 'a, "quoted"\nline' },
          user_agent: 'Mozilla/5.0 (fixture)', ip_address: '203.0.113.9', referer_url: 'https://example.test/contact/', is_spam: false, submitted_at: '2026-11-02 10:00:00',
        }],
        total: 2, total_pages: 2, page: 1, per_page: 1,
      });
      const second = await call('editor1', { _frm_admin_action: 'list_submissions', form_id: formId, per_page: 1, page: 2 });
      assert.deepEqual(second.body.data.submissions[0].data, { name: 'Renée', site: 'https://example.test' });
    });

    it('filters spam only or includes everything', async () => {
      const only = await call('editor1', { _frm_admin_action: 'list_submissions', form_id: formId, spam: 'only' });
      assert.deepEqual(only.body.data.submissions.map((s: { id: number }) => s.id), [ids[2]]);
      const all = await call('editor1', { _frm_admin_action: 'list_submissions', form_id: formId, spam: 'all' });
      assert.deepEqual(all.body.data.submissions.map((s: { id: number }) => s.id), [ids[2], ids[1], ids[0]]);
    });

    it('reads a page with the same number of queries whatever its size (no query per row)', async () => {
      const queries: string[] = [];
      const listen = (q: { sql: string }) => queries.push(q.sql);
      const count = async (perPage: number) => {
        await call('editor1', { _frm_admin_action: 'list_submissions', form_id: formId, per_page: perPage, spam: 'all' });
        queries.length = 0;
        fs.site.db.knex.on('query', listen);
        try {
          await call('editor1', { _frm_admin_action: 'list_submissions', form_id: formId, per_page: perPage, spam: 'all' });
        } finally {
          fs.site.db.knex.off('query', listen);
        }
        return queries.filter((sql) => /frm_submissions|postmeta|posts/.test(sql)).length;
      };
      assert.equal(await count(1), await count(3));
      assert.ok((await count(3)) <= 4, queries.join('\n'));
    });

    it('exports CSV with formulas neutralised and quoting right, leaving out spam and other forms', async () => {
      const res = await call('editor1', { _frm_admin_action: 'export_submissions', form_id: formId });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'text/csv; charset=UTF-8');
      assert.equal(res.headers['content-disposition'], 'attachment; filename="survey-submissions-2026-11-22.csv"');
      assert.equal(res.text, '\uFEFF' + [
        'ID,Submitted at (UTC),name,note,site,IP address,User agent,Referrer URL,Spam',
        `${ids[1]},2026-11-02 10:00:00,"'=HYPERLINK(""http://evil.test"",""x"")","a, ""quoted""\nline",,203.0.113.9,Mozilla/5.0 (fixture),https://example.test/contact/,no`,
        `${ids[0]},2026-11-01 10:00:00,Renée,,https://example.test,203.0.113.9,Mozilla/5.0 (fixture),https://example.test/contact/,no`,
      ].join('\r\n') + '\r\n');
    });

    it("unmarks spam and bulk-deletes only this form's submissions", async () => {
      const unmarked = await call('editor1', { _frm_admin_action: 'unmark_spam', form_id: formId, ids: [ids[2], ids[3]] });
      assert.deepEqual(unmarked.body, { success: true, data: { updated: 1 } });
      assert.deepEqual((await submissionRows(fs.site, formId)).map((r) => r.is_spam), [0, 0, 0]);
      const deleted = await call('editor1', { _frm_admin_action: 'bulk_delete_submissions', form_id: formId, ids: [ids[0], ids[3]] });
      assert.deepEqual(deleted.body, { success: true, data: { deleted: 1 } });
      assert.deepEqual((await submissionRows(fs.site, formId)).map((r) => r.id), [ids[1], ids[2]]);
      assert.deepEqual((await submissionRows(fs.site, otherId)).map((r) => r.id), [ids[3]], "another form's submission is untouched");
    });
  });
});
