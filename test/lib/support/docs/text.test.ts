/** What of a doc is searched and shown (lib/support/docs/text.ts), and its permalink (store.ts). */
import assert from 'node:assert/strict';
import { docPermalink } from '../../../../lib/support/docs/store';
import { foldForMatching, plainText, searchTerm, trimWords } from '../../../../lib/support/docs/text';

describe('docs text', () => {
  it('keeps what a reader sees: no tags, block comments, scripts, styles or shortcode tags; entities decoded', () => {
    const html = '<!-- wp:paragraph --><p>Caf&eacute; &amp; <strong>bar</strong>&nbsp;&#8211; [note type="tip"]Read&hellip;[/note]</p>' +
      '<script>var secret = 1;</script><style>.x{}</style><!-- /wp:paragraph --><p>Next [[literal]] [gallery ids="1,2"/]</p>';
    assert.equal(plainText(html), 'Café & bar – Read… Next [[literal]]');
  });

  it('separates block elements so words never run together', () => {
    assert.equal(plainText('<h2>Title</h2><p>First</p><ul><li>one</li><li>two</li></ul>line<br>break'), 'Title First one two line break');
  });

  it('an entity that is no HTML entity stays as written; a lone < is text', () => {
    assert.equal(plainText('5 &lt; 6 &notanentity; a < b'), '5 < 6 &notanentity; a < b');
  });

  it('folds case, accents and English plurals the same way for docs and queries', () => {
    assert.deepEqual(['Invoices', 'POLICIES', 'Cafés', 'status', 'access', 'analysis', 'api'].map(searchTerm), ['invoice', 'policy', 'cafe', 'status', 'access', 'analysis', 'api']);
    assert.equal(foldForMatching('Reset  your Password!'), ' reset your password ');
  });

  it('cuts an excerpt at 55 words with …', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    assert.equal(trimWords(words), `${words.split(' ').slice(0, 55).join(' ')}…`);
    assert.equal(trimWords('short text'), 'short text');
  });

  it('links docs as get_permalink() would with the docs rewrite slug', () => {
    const doc = { id: 7, slug: 'password-reset' };
    assert.equal(docPermalink('https://help.example', '/%postname%/', doc), 'https://help.example/docs/password-reset/');
    assert.equal(docPermalink('https://help.example', '/%year%/%postname%', doc), 'https://help.example/docs/password-reset');
    assert.equal(docPermalink('https://help.example', '', doc), 'https://help.example/?svc_doc=password-reset');
    assert.equal(docPermalink('https://help.example', '/%postname%/', { id: 7, slug: '' }), 'https://help.example/?post_type=svc_doc&p=7');
  });
});
