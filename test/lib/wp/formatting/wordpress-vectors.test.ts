/**
 * Our formatting functions against WordPress's own: fixtures/oracle/formatting-vectors.json holds what
 * WordPress 6.1.9 (en_US, PHP 8.2) returned for 80 inputs from each of its formatting functions. Every
 * function of ours that claims to do what one of them does must give the same output for every input.
 * One `it` per function, reporting every mismatch at once; the functions we do not implement are each
 * listed as pending with the reason, and a function the oracle gains later fails the last test until it
 * is given a place here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { escapeHtml as formsEscapeHtml } from '../../../../lib/forms/variables';
import {
  escHtml, escUrlRaw, isEmail, removeAccents, sanitizeEmail, sanitizeTextField, sanitizeTitle, sanitizeTitleWithDashes,
  sanitizeUser, stripAllTags,
} from '../../../../lib/wp/formatting';
import { sanitizeUserLogin } from '../../../../lib/wp/users';
import { oracleFile } from '../../../harness/oracle-files';

interface FormattingVectors {
  wordpress_version: string;
  functions: Record<string, Array<[string, string | false]>>;
}

const oracle = JSON.parse(fs.readFileSync(oracleFile('formatting-vectors.json'), 'utf8')) as FormattingVectors;

/** Each WordPress function we implement, with the functions of ours that claim to do what it does. */
const CHECKED: Record<string, Record<string, (input: string) => string | false>> = {
  sanitize_title: { 'sanitizeTitle (lib/wp/formatting)': sanitizeTitle },
  sanitize_title_with_dashes_save: { "sanitizeTitleWithDashes 'save' (lib/wp/formatting)": (s) => sanitizeTitleWithDashes(s, 'save') },
  sanitize_text_field: { 'sanitizeTextField (lib/wp/formatting)': sanitizeTextField },
  sanitize_email: { 'sanitizeEmail (lib/wp/formatting)': sanitizeEmail },
  // WordPress's is_email() returns the address itself or false; ours says yes or no.
  is_email: { 'isEmail (lib/wp/formatting)': (s) => (isEmail(s) ? s : false) },
  sanitize_user: {
    'sanitizeUser (lib/wp/formatting)': (s) => sanitizeUser(s),
    "sanitizeUserLogin (lib/wp/users, get_user_by('login'))": sanitizeUserLogin,
  },
  sanitize_user_strict: { 'sanitizeUser strict (lib/wp/formatting)': (s) => sanitizeUser(s, true) },
  remove_accents: { 'removeAccents (lib/wp/formatting)': removeAccents },
  wp_strip_all_tags: { 'stripAllTags (lib/wp/formatting)': (s) => stripAllTags(s) },
  esc_html: {
    'escHtml (lib/wp/formatting)': escHtml,
    'escapeHtml (lib/forms/variables)': formsEscapeHtml,
  },
  esc_url_raw: { 'escUrlRaw (lib/wp/formatting)': (s) => escUrlRaw(s) },
};

/** The WordPress functions in the oracle that nothing of ours implements, and why. */
const PENDING: Record<string, string> = {
  sanitize_textarea_field: 'not implemented: nothing of ours sanitizes multi-line text as sanitize_textarea_field() does',
  wp_kses_post: "not implemented: our kses has the 'data' and user-description tag lists, not the post list",
  wpautop: 'not implemented: nothing of ours turns line breaks into paragraphs',
  sanitize_key: 'not implemented: nothing of ours sanitizes keys as sanitize_key() does',
  sanitize_file_name: 'not implemented: attachments are stored under random names, and cleanFilename() (lib/support) keeps a display name without claiming to be sanitize_file_name()',
};

/** A value as JSON, with invisible and combining characters (U+00A0, U+200B, U+030A, …) as \\u escapes. */
const show = (value: string | false): string => (value === false
  ? 'false'
  : JSON.stringify(value).replace(/[^\x20-\x7e\p{L}\p{N}\p{P}\p{S}]/gu, (ch) => `\\u${(ch.codePointAt(0) as number).toString(16).padStart(4, '0')}`));

describe(`formatting functions against WordPress ${oracle.wordpress_version}'s own outputs (fixtures/oracle/formatting-vectors.json)`, () => {
  for (const [wpName, ours] of Object.entries(CHECKED)) {
    const vectors = oracle.functions[wpName] ?? [];
    for (const [ourName, fn] of Object.entries(ours)) {
      it(`${ourName} gives what ${wpName}() gives, for all ${vectors.length} inputs`, () => {
        assert.ok(vectors.length > 0, `the oracle has no vectors for ${wpName}`);
        const mismatches: string[] = [];
        for (const [input, expected] of vectors) {
          let actual: string | false;
          try {
            actual = fn(input);
          } catch (err) {
            mismatches.push(`  input ${show(input)}\n    expected ${show(expected)}\n    threw    ${String(err)}`);
            continue;
          }
          if (actual !== expected) mismatches.push(`  input ${show(input)}\n    expected ${show(expected)}\n    actual   ${show(actual)}`);
        }
        if (mismatches.length) assert.fail(`${mismatches.length} of ${vectors.length} inputs differ from ${wpName}():\n${mismatches.join('\n')}`);
      });
    }
  }

  for (const [wpName, reason] of Object.entries(PENDING)) {
    it.skip(`${wpName}(): ${reason}`, () => {});
  }

  it('every function in the oracle is either checked or listed as pending', () => {
    const placed = new Set([...Object.keys(CHECKED), ...Object.keys(PENDING)]);
    assert.deepEqual(Object.keys(oracle.functions).filter((name) => !placed.has(name)), []);
    assert.deepEqual([...placed].filter((name) => !(name in oracle.functions)), []);
  });
});
