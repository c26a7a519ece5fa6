/**
 * The documentation a user reads (README.md, docs/) stands on its own: nothing points into a `shared`
 * folder beside the checkout, which a user of the repository does not have.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

describe('the documentation is self-contained', () => {
  it('points nowhere outside the repository (no ../shared)', () => {
    const pages = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const outside = pages.flatMap((page) => fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n')
      .flatMap((text, i) => (/\.\.\/shared\b|\/work\/shared\b/.test(text) ? [`${page}:${i + 1}: ${text.trim()}`] : [])));
    assert.deepEqual(outside, []);
  });

  it('gives the README\'s replay example a capture that is in the repository', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const capture = /the JSON of `([^`]+)`/.exec(readme)?.[1];
    assert.equal(capture, 'fixtures/oracle/wp-core-traffic.json');
    assert.ok(fs.existsSync(path.join(ROOT, capture)));
  });
});
