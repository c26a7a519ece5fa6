/** CSV exports: quoting, formula neutralising, column layout. */
import assert from 'node:assert/strict';
import { csvCell, exportFilename, submissionsCsv } from '../../../lib/forms/export';
import type { Submission } from '../../../lib/forms/store';

const submission = (id: number, data: Submission['data'], extra: Partial<Submission> = {}): Submission => ({
  id, formId: 1, data, userAgent: 'UA', ipAddress: '192.0.2.1', refererUrl: '', isSpam: false, submittedAt: '2026-11-22 10:00:00', ...extra,
});

describe('submission export (CSV)', () => {
  it('neutralises every formula start with a leading quote', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) assert.equal(csvCell(value).replace(/^"|"$/g, '').startsWith("'"), true, value);
    assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    assert.equal(csvCell('a=b'), 'a=b');
  });

  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('plain é'), 'plain é');
  });

  it('puts one column per field (first seen first) between the fixed ones, joins lists, marks spam', () => {
    const csv = submissionsCsv([submission(2, { name: 'B', tags: ['x', 'y'] }, { isSpam: true }), submission(1, { email: 'a@b.c', name: 'A' })]);
    assert.equal(csv, '\uFEFF' + [
      'ID,Submitted at (UTC),name,tags,email,IP address,User agent,Referrer URL,Spam',
      '2,2026-11-22 10:00:00,B,"x, y",,192.0.2.1,UA,,yes',
      '1,2026-11-22 10:00:00,A,,a@b.c,192.0.2.1,UA,,no',
    ].join('\r\n') + '\r\n');
  });

  it('names the file after the slug and the day', () => {
    assert.equal(exportFilename('Contact Us!', '2026-11-22 10:00:00'), 'contact-us-submissions-2026-11-22.csv');
    assert.equal(exportFilename('', '2026-11-22 10:00:00'), 'form-submissions-2026-11-22.csv');
    assert.equal(exportFilename('%d0%bc%d0%be%d1%81%d0%ba%d0%b2%d0%b0', '2026-11-22 10:00:00'), 'form-submissions-2026-11-22.csv');
    assert.equal(exportFilename('emoji-%f0%9f%98%80-form', '2026-11-22 10:00:00'), 'emoji-form-submissions-2026-11-22.csv');
  });
});
