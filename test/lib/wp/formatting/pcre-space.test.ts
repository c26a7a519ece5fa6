/**
 * WordPress's patterns run without PCRE's `u` modifier, and PHP's strip_tags() asks C's isspace():
 * there, white space is ASCII only (space, tab, line feed, vertical tab, form feed, carriage return).
 * A no-break space (U+00A0, two bytes in UTF-8) is just text to them, never white space.
 */
import assert from 'node:assert/strict';
import { KSES_DATA_TAGS, kses, sanitizeTextField, sanitizeUser, stripAllTags } from '../../../../lib/wp/formatting';

const NBSP = '\u00a0';

describe("white space as WordPress's patterns see it (ASCII only)", () => {
  it('strip_tags() takes `<` before a no-break space as the start of a tag, `<` before a space as text', () => {
    assert.equal(stripAllTags(`a <${NBSP}b> c`), 'a  c');
    assert.equal(stripAllTags('a < b> c'), 'a < b> c');
    assert.equal(sanitizeTextField(`a <${NBSP}b> c`), 'a c');
  });

  it('sanitize_user() folds runs of ASCII white space, and keeps a no-break space', () => {
    assert.equal(sanitizeUser(`a \t\n b${NBSP}c`), `a b${NBSP}c`);
  });

  it('kses: a no-break space does not separate a tag name from its attributes; the rest is dropped as malformed', () => {
    assert.equal(kses(`<a${NBSP}href="http://x.test">t</a>`, KSES_DATA_TAGS), '<a>t</a>');
    assert.equal(kses('<a href="http://x.test">t</a>', KSES_DATA_TAGS), '<a href="http://x.test">t</a>');
  });

  it('kses: a no-break space is part of an unquoted attribute value, not its end', () => {
    assert.equal(kses(`<a title=x${NBSP}y>t</a>`, KSES_DATA_TAGS), `<a title="x${NBSP}y">t</a>`);
  });
});
