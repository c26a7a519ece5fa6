/** The machine report: the whole report under a versioned format name. */
import assert from 'node:assert/strict';
import { REPORT_FORMAT, jsonReport } from '../../../../lib/replay/report/json';
import { sampleReport } from './fixture';

describe('JSON report', () => {
  it('is the report, parseable, with its format name first', () => {
    const parsed = JSON.parse(jsonReport(sampleReport()));
    assert.equal(Object.keys(parsed)[0], 'format');
    assert.equal(parsed.format, REPORT_FORMAT);
    assert.deepEqual({ ...parsed, format: undefined }, { ...sampleReport(), format: undefined });
  });
});
