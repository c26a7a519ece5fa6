/**
 * Text from anyone (a sync source, the PHP site, a manager's paste) against the changelog code that
 * runs on the main thread (docs/security.md "Super-linear inputs"): the plain view that stands in for
 * notes marked cannot render in time, the changelog parser, version parsing, and WordPress's tag
 * stripping and kses. Each takes time that grows with its input, not with its square: 16 times the
 * input may take about 16 times as long (assertAboutLinear), never about 256.
 */
import assert from 'node:assert/strict';
import { cappedNotes, MAX_NOTES_CHARS, plainNotesView, RELEASE_NOTE_TAGS } from '../../../../lib/support/changelogs/notes';
import { parseChangelog } from '../../../../lib/support/changelogs/parse';
import { parseVersion } from '../../../../lib/support/changelogs/version';
import { kses, stripAllTags } from '../../../../lib/wp/formatting';
import { assertAboutLinear } from '../../../fuzz/settings';

/** Runs `f` on `unit` repeated n and 16n times. */
function linearIn(what: string, unit: string, f: (text: string) => unknown, n = 1024): void {
  const small = unit.repeat(n);
  const large = unit.repeat(n * 16);
  assertAboutLinear(what, () => f(small), () => f(large));
}

/** The inputs, and the tag soups kses and the tag stripper scan. */
const SLOW_UNITS = ['_a', '*a', '**a', '<!--', '<!--a\n', '- a\n  ', '<script>', '<script', '<style x', '<a ', '<a href="', "<a title='x' ", '&#', '</', '<!--<!--a-->'];

describe('changelogs: main-thread work on hostile text is linear', function () {
  this.timeout(120_000);

  it('builds the plain view (notes marked could not render in time) in linear time', () => {
    for (const unit of SLOW_UNITS) linearIn(`plainNotesView(${JSON.stringify(unit)}…)`, unit, plainNotesView);
    linearIn('plainNotesView of a heading with a long run of spaces', ' ', (s) => plainNotesView(`## a${s}b\n- x${s}y`), 4096);
  });

  it('shows the plain view as escaped paragraphs, list items as written', () => {
    const view = plainNotesView('Intro <b>bold</b>\n& more\n\n### Fixed\n- _a_a_\n- `b`\n  continued');
    assert.equal(view.html, '<p>Intro &lt;b&gt;bold&lt;/b&gt;\n&amp; more</p>\n<p>### Fixed\n- _a_a_\n- `b`\ncontinued</p>');
    assert.deepEqual(view.changes, [{ type: 'fixed', text: '_a_a_' }, { type: 'fixed', text: '`b` continued' }]);
    assert.equal(view.summary, 'Intro <b>bold</b> & more');
  });

  it('cuts notes longer than MAX_NOTES_CHARS at a line break, and says so', () => {
    const long = 'line of notes\n'.repeat(10_000);
    const cut = cappedNotes(long);
    assert.ok(cut.length < MAX_NOTES_CHARS + 200);
    assert.match(cut, /line of notes\n\n\*\[The rest of these notes is longer than 65,536 characters and is not shown\.\]\*$/);
    assert.equal(cappedNotes('short'), 'short');
  });

  it('parses changelogs with long runs in headings in linear time (a 400,000-space heading ran for minutes)', () => {
    linearIn('ATX heading of spaces', ' ', (s) => parseChangelog(`## 1.0 ${s}x\n- a`), 4096);
    linearIn('ATX heading of spaces and hashes', ' #', (s) => parseChangelog(`## 1.0${s}x\n- a`), 4096);
    linearIn('readme heading of spaces', ' ', (s) => parseChangelog(`= 1.0 ${s}x\n* a`), 4096);
    linearIn('readme heading of spaces, closed', ' ', (s) => parseChangelog(`= 1.0 ${s}x =\n* a`), 4096);
    linearIn('heading of digits', '1.', (s) => parseChangelog(`## ${s}x\n- a`), 4096);
    linearIn('lines of notes', '- _a_a\n', parseChangelog, 4096);
    // The headings read as before.
    assert.deepEqual(parseChangelog('## 1.2.0 - 2026-01-05 ##\n- a\n## 1.1.0   \n- b').releases.map((r) => [r.version, r.date]), [['1.2.0', '2026-01-05'], ['1.1.0', null]]);
    assert.deepEqual(parseChangelog('= 1.1 =\n* a\n=  1.0 (January 5, 2026)  =  \n* b').releases.map((r) => [r.version, r.date]), [['1.1', null], ['1.0', '2026-01-05']]);
  });

  it('reads no version from text longer than 100 characters (the version regex is quadratic on long text)', () => {
    assert.equal(parseVersion(`${'1.'.repeat(4_000)}!`), null);
    assert.equal(parseVersion(`${'1.'.repeat(49)}1`)?.release.length, 50);
    linearIn('parseVersion', '1.', (s) => parseVersion(`${s}!`), 4096);
  });

  it('strips tags and runs kses in linear time (an unclosed <script> was rescanned to the end from each later one)', () => {
    for (const unit of SLOW_UNITS) {
      linearIn(`stripAllTags(${JSON.stringify(unit)}…)`, unit, stripAllTags);
      linearIn(`kses(${JSON.stringify(unit)}…)`, unit, (s) => kses(s, RELEASE_NOTE_TAGS), 512);
    }
    // WP's `</\\1>`: a script or style ends only at `</script>` or `</style>` exactly (any case).
    assert.equal(stripAllTags('a<script>x</SCRIPT>b<STYLE type="t">y</style>c<style>z</style >d<script>e'), 'abczde');
  });
});
