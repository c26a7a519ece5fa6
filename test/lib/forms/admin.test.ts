/** Admin operations' own rules, beyond what the route tests cover: markup from users without unfiltered_html. */
import assert from 'node:assert/strict';
import * as admin from '../../../lib/forms/admin';
import { findForm } from '../../../lib/forms/store';
import { WpError } from '../../../lib/wp/errors';
import { FormSite, insertFormRow, openFormSite } from '../../harness/forms';

describe('form admin operations', function () {
  let fs: FormSite;
  before(async () => { fs = await openFormSite(); });
  after(async () => { await fs.close(); });

  const filtered: admin.AdminActor = { id: 6, unfilteredHtml: false };
  const trusted: admin.AdminActor = { id: 1, unfilteredHtml: true };

  it('refuses markup that could run script from a user without unfiltered_html, and keeps the form as it was', async () => {
    const id = await insertFormRow(fs.site, { markup: '<input name="a" />' });
    for (const markup of ['<script>x()</script>', '<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>', '<iframe src="//x"></iframe>']) {
      await assert.rejects(admin.saveForm(fs.site, filtered, id, { markup }), (err: WpError) => err.code === 'frm_markup_not_allowed' && err.status === 403, markup);
      await assert.rejects(admin.createForm(fs.site, filtered, { title: 'X', markup }), (err: WpError) => err.code === 'frm_markup_not_allowed');
    }
    assert.equal((await findForm(fs.site.db, id))?.markup, '<input name="a" />');
  });

  it('accepts plain form markup from such a user, and any markup from a user with unfiltered_html', async () => {
    const id = await insertFormRow(fs.site);
    assert.equal((await admin.saveForm(fs.site, filtered, id, { markup: '<label>Name <input name="name" required /></label>' })).markup,
      '<label>Name <input name="name" required /></label>');
    assert.equal((await admin.saveForm(fs.site, trusted, id, { markup: '<script>track()</script>' })).markup, '<script>track()</script>');
  });
});
