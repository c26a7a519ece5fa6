/**
 * Changelog text → releases (lib/support/changelogs/parse.ts and notes.ts) on the styles projects
 * write, from test/fixtures/changelogs/: a WordPress plugin readme.txt (newest first, and oldest
 * first), a Keep a Changelog file, a plain markdown CHANGELOG, and a note that carries scripts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { notesView } from '../../../../lib/support/changelogs/notes';
import { ParsedRelease, parseChangelog } from '../../../../lib/support/changelogs/parse';
import { presentParsedRelease } from '../../../../lib/support/changelogs/present';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../../fixtures/changelogs', name), 'utf8');
/** A release as admin/parse shows it (rendered here, on the test's thread). */
const shown = (r: ParsedRelease) => presentParsedRelease(r, notesView(r.notes));
const versions = (text: string) => parseChangelog(text).releases.map((r) => r.version);

describe('changelog parsing', () => {
  describe('WordPress readme.txt', () => {
    it('reads only the == Changelog == section, newest first by version, dates where the heading has one', () => {
      const parsed = parseChangelog(fixture('readme.txt'));
      assert.equal(parsed.format, 'readme');
      // The FAQ's `= Does it work… =` and the Upgrade Notice's `= 3.9.2 =` are not releases.
      assert.deepEqual(parsed.releases.map((r) => [r.version, r.date]), [
        ['3.10.1', '2026-02-11'], ['3.10.0', '2026-01-28'], ['3.10.0-beta.1', null], ['3.9.2', null], ['3.9.0', null],
      ]);
    });

    it('shows each release as the public shape: summary, changes, sanitized html, stability', () => {
      const [, feature, beta] = parseChangelog(fixture('readme.txt')).releases.map(shown);
      assert.deepEqual(feature?.changes, [
        { type: null, text: 'New: Conditional logic for checkboxes and radio buttons.' },
        { type: null, text: 'New: acme_forms_before_send filter.' },
        { type: null, text: 'Tweak: Faster loading of the entries screen on sites with many entries.' },
      ]);
      assert.equal(feature?.summary, 'This release adds conditional logic to every field type.');
      assert.match(feature?.html ?? '', /<li>New: <code>acme_forms_before_send<\/code> filter.<\/li>/);
      assert.equal(feature?.stability, 'stable');
      assert.equal(beta?.stability, 'pre-release');
      assert.equal(beta?.summary, 'Beta of conditional logic. Please test on a staging site.');
    });

    it('reads an oldest-first changelog newest first, 1.10 above 1.9', () => {
      assert.deepEqual(versions(fixture('readme-oldest-first.txt')), ['1.10', '1.9', '1.2', '1.1', '1.0']);
    });

    it('reads a changelog.txt that is only = x.y = headings', () => {
      assert.deepEqual(versions('= 2.1 =\n* b\n\n= 2.0 =\n* a\n'), ['2.1', '2.0']);
    });
  });

  describe('Keep a Changelog', () => {
    const parsed = parseChangelog(fixture('keep-a-changelog.md'));

    it('skips Unreleased, orders pre-releases before their release and beta.10 after beta.2', () => {
      assert.equal(parsed.format, 'keep-a-changelog');
      assert.deepEqual(parsed.releases.map((r) => r.version), ['2.0.0', '2.0.0-rc.1', '2.0.0-beta.10', '2.0.0-beta.2', '1.4.1', '1.4.0']);
    });

    it('takes the dates from the headings and the URLs from the link references', () => {
      const [major] = parsed.releases;
      assert.equal(major?.date, '2026-03-02');
      assert.equal(major?.url, 'https://github.com/acme/widget/compare/v1.4.1...v2.0.0');
      assert.equal(parsed.releases.at(-1)?.url, 'https://github.com/acme/widget/releases/tag/v1.4.0');
      assert.ok(!parsed.releases.some((r) => r.notes.includes(']: https://')), 'reference definitions are not notes');
    });

    it('types every change by its section, all six types', () => {
      const view = shown(parsed.releases[0] as (typeof parsed.releases)[0]);
      assert.deepEqual(view.changes.map((c) => c.type), ['added', 'added', 'changed', 'deprecated', 'removed', 'fixed', 'security']);
      assert.equal(view.changes[0]?.text, '<acme-widget> custom element.', 'plain text: the code span is its text');
      assert.equal(view.summary, 'Version 2 moves the widget to a web component.');
      assert.match(view.html, /<h3>Security<\/h3>\n<ul>\n<li>Escape user input in the search box \(<a href="https:\/\/github.com\/acme\/widget\/issues\/412">#412<\/a>\)/);
      assert.equal(view.stability, 'stable');
      assert.equal(shown(parsed.releases[1] as (typeof parsed.releases)[0]).stability, 'pre-release');
    });
  });

  describe('plain markdown', () => {
    const parsed = parseChangelog(fixture('plain-changelog.md'));

    it('finds the release level, v prefixes and four-part versions, written dates; ignores code samples and the closing section', () => {
      assert.equal(parsed.format, 'markdown');
      assert.deepEqual(parsed.releases.map((r) => [r.version, r.date]), [
        ['6.10.0-alpha', '2026-01-05'], ['6.4.3.1', '2026-03-03'], ['6.4.3', '2026-02-20'], ['6.4.2', '2026-02-01'],
      ]);
      assert.ok(!parsed.releases.some((r) => r.notes.includes('Thanks to everyone')), 'the Contributors section ends the changelog');
    });

    it('keeps deeper headings and code samples in the notes', () => {
      const r643 = parsed.releases.find((r) => r.version === '6.4.3');
      assert.match(r643?.notes ?? '', /## 9\.9\.9 this is inside a code sample/);
      const r642 = shown(parsed.releases.find((r) => r.version === '6.4.2') as (typeof parsed.releases)[0]);
      assert.deepEqual(r642.changes, []);
      assert.equal(r642.summary, 'Only documentation changes.');
    });
  });

  it('never lets a script, an event handler or a javascript: URL into html, changes or summary', () => {
    const [view, linked] = parseChangelog(fixture('hostile.md')).releases.map(shown);
    assert.equal(linked?.url, '', 'a heading linked to javascript: gives no release URL');
    const all = JSON.stringify(view);
    assert.ok(!/<script|onerror|onclick|javascript:/i.test(all), all);
    assert.deepEqual(view?.changes.map((c) => c.text), ['Image', 'Click', 'safe link']);
    assert.ok(!/alert\(document\.cookie\)/.test(view?.html ?? ''), 'a script\'s code is not kept as text either');
    assert.match(view?.html ?? '', /<img src="x.png">/);
    assert.match(view?.html ?? '', /<a href="https:\/\/example.com\/">safe link<\/a>/);
    assert.equal(view?.summary, 'Hello world.');
  });

  it('finds nothing in text without version headings', () => {
    assert.deepEqual(parseChangelog('# Read me\n\nJust some text.\n\n## Usage\n\nRun it.').releases, []);
    assert.deepEqual(parseChangelog('').releases, []);
  });
});
