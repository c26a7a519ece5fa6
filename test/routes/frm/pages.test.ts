/**
 * The form script (with frm_js_vars localized as wp_localize_script prints it) and the embeddable form
 * pages: what they contain, what they escape, and the nonce they carry for the visitor.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { formScriptSource } from '../../../lib/forms/assets';
import { PhpArray } from '../../../lib/wp/php';
import { FormSite, cookieOf, insertFormRow, nonceFor, openFormSite } from '../../harness/forms';

describe('form pages', function () {
  let fs: FormSite;
  let formId: number;
  before(async () => {
    fs = await openFormSite();
    formId = await insertFormRow(fs.site, { title: 'Say "hi" <now>', slug: 'say-hi', markup: '<p><input name="name" /> <em>as written</em></p>' });
  });
  after(async () => { await fs.close(); });

  describe('GET /wp-content/plugins/frm/assets/js/forms.js', () => {
    it('serves the script after frm_js_vars, printed as wp_localize_script prints it', async () => {
      const res = await request(fs.app).get('/wp-content/plugins/frm/assets/js/forms.js');
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/javascript; charset=UTF-8');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.text, `var frm_js_vars = {"ajax_url":"http:\\/\\/127.0.0.1:8081\\/wp-admin\\/admin-ajax.php"};\n${formScriptSource()}`);
    });
  });

  describe('GET /frm/embed/<id|slug>/fragment', () => {
    it('renders the form element around the markup as written, by ID or by slug', async () => {
      for (const key of [String(formId), 'say-hi']) {
        const res = await request(fs.app).get(`/frm/embed/${key}/fragment`);
        assert.equal(res.status, 200, key);
        assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.ok(res.text.includes(`<form method="post" class="frm-form frm-form-${formId}" data-id="${formId}" data-title="Say &quot;hi&quot; &lt;now&gt;" data-slug="say-hi"`), res.text);
        assert.ok(res.text.includes(`<input type="hidden" name="_frm_form_id" value="${formId}" />`));
        assert.ok(res.text.includes(`<input type="text" name="_frm_h${formId}" value="" tabindex="-1" autocomplete="off" />`));
        assert.ok(res.text.includes('<div class="frm-fields-wrap"><p><input name="name" /> <em>as written</em></p>'));
        assert.ok(res.text.includes('<div class="frm-messages"></div>'));
        assert.ok(!res.text.includes('_frm_nonce'), 'no nonce while verification is off');
        assert.ok(!res.text.includes('<html'), 'a fragment only');
      }
    });

    it("finds a form by its percent-encoded slug, however the path spells it, as WordPress's sanitize_title_for_query() does", async () => {
      const slug = '%d0%bc%d0%be%d1%81%d0%ba%d0%b2%d0%b0';
      const moscow = await insertFormRow(fs.site, { title: 'Москва', slug });
      for (const key of [slug, slug.toUpperCase(), encodeURIComponent('Москва'), encodeURIComponent('москва')]) {
        const res = await request(fs.app).get(`/frm/embed/${key}/fragment`);
        assert.equal(res.status, 200, key);
        assert.ok(res.text.includes(`data-id="${moscow}"`), key);
        assert.ok(res.text.includes(`data-slug="${slug}"`), key);
      }
    });

    it('answers 404 for an unknown or unpublished form', async () => {
      const draft = await insertFormRow(fs.site, { status: 'draft', slug: 'secret-draft' });
      for (const key of ['999999', String(draft), 'secret-draft', 'no-such-form']) {
        const res = await request(fs.app).get(`/frm/embed/${key}/fragment`);
        assert.equal(res.status, 404, key);
        assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
        assert.ok(!res.text.includes('<form'));
      }
    });

    describe('with nonce verification enabled', () => {
      before(() => fs.site.options.update('frm_settings', new PhpArray([['enable_nonce', 1]])));
      after(() => fs.site.options.update('frm_settings', new PhpArray([['enable_nonce', 0]])));

      it("carries the visitor's own nonce (user 0, or the signed-in user) that the submit action accepts", async () => {
        const anonymous = await request(fs.app).get(`/frm/embed/${formId}/fragment`);
        const expected = await nonceFor(fs.site, 'frm_form_submit');
        assert.ok(anonymous.text.includes(`<input type="hidden" name="_frm_nonce" value="${expected}" />`), anonymous.text);
        assert.match(String(anonymous.headers['cache-control']), /no-store/);
        const signedIn = await request(fs.app).get(`/frm/embed/${formId}/fragment`).set('Cookie', cookieOf('customer1'));
        const theirs = /name="_frm_nonce" value="([0-9a-f]{10})"/.exec(signedIn.text)?.[1];
        assert.equal(theirs, await nonceFor(fs.site, 'frm_form_submit', 'customer1'));
        const res = await request(fs.app).post('/wp-admin/admin-ajax.php').type('form').set('Cookie', cookieOf('customer1'))
          .send({ action: 'frm_form_submit', _frm_form_id: String(formId), [`_frm_h${formId}`]: '', _frm_nonce: String(theirs), name: 'x' });
        assert.equal(res.body.message.type, 'success', res.text);
      });
    });
  });

  describe('GET /frm/embed/<id|slug>', () => {
    it('wraps the form in a small page that loads the versioned script from the site', async () => {
      const res = await request(fs.app).get(`/frm/embed/${formId}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
      assert.match(res.text, /^<!DOCTYPE html>/);
      assert.ok(res.text.includes('<title>Say &quot;hi&quot; &lt;now&gt;</title>'));
      assert.match(res.text, /<script src="http:\/\/127\.0\.0\.1:8081\/wp-content\/plugins\/frm\/assets\/js\/forms\.js\?ver=[0-9a-f]{10}"><\/script>/);
      assert.ok(res.text.indexOf('<form') < res.text.indexOf('<script'), 'the script comes after the form');
    });
  });
});
