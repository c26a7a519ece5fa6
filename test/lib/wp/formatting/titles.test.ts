/**
 * The slug helpers the oracle's vectors do not cover: sanitize_title() in the `query` context, as
 * WordPress looks a slug from a URL up, and _truncate_post_slug(), which makes room for a `-2`.
 */
import assert from 'node:assert/strict';
import { sanitizeTitle, sanitizeTitleForQuery, sanitizeTitleWithDashes, truncatePostSlug } from '../../../../lib/wp/formatting';

describe('slugs beyond the save context', () => {
  it('sanitize_title_for_query() encodes as saving does, but keeps accents, dashes and quotes encoded', () => {
    assert.equal(sanitizeTitleForQuery('Москва'), '%d0%bc%d0%be%d1%81%d0%ba%d0%b2%d0%b0');
    assert.equal(sanitizeTitleForQuery('%d0%bc%D0%BE'), '%d0%bc%d0%be');
    assert.equal(sanitizeTitleForQuery('Contact Us'), 'contact-us');
    assert.equal(sanitizeTitleForQuery('Café'), 'caf%c3%a9');
    assert.equal(sanitizeTitle('Café'), 'cafe');
    assert.equal(sanitizeTitleForQuery('a\u2013b'), 'a%e2%80%93b');
    assert.equal(sanitizeTitleWithDashes('a\u2013b', 'save'), 'a-b');
    assert.equal(sanitizeTitleWithDashes('a/b'), 'ab', "only the save context makes '/' a hyphen");
  });

  it('_truncate_post_slug() leaves a short slug be, but for trailing hyphens', () => {
    assert.equal(truncatePostSlug('contact-us', 198), 'contact-us');
    assert.equal(truncatePostSlug('contact-', 198), 'contact');
  });

  it('_truncate_post_slug() cuts a plain slug at the byte, then drops trailing hyphens', () => {
    assert.equal(truncatePostSlug('abc-def', 4), 'abc');
    assert.equal(truncatePostSlug('abcdef', 4), 'abcd');
  });

  it('_truncate_post_slug() never cuts a percent-encoded letter in the middle of its octets', () => {
    assert.equal(truncatePostSlug('%d0%bc%d0%be', 8), '%d0%bc');
    assert.equal(truncatePostSlug('ab-%d0%bc', 5), 'ab');
    assert.equal(truncatePostSlug(`a${'%d0%b6'.repeat(33)}`, 198), `a${'%d0%b6'.repeat(32)}`);
    assert.equal(truncatePostSlug('%f0%9f%98%80-x', 13), '%f0%9f%98%80');
  });
});
