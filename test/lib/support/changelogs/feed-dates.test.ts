/** Feed dates of undated releases (lib/support/changelogs/feed-dates.ts): by their order among the dated ones. */
import assert from 'node:assert/strict';
import { feedDates } from '../../../../lib/support/changelogs/feed-dates';

const seen = '2026-11-28 10:00:00';
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('feed dates', () => {
  it('keeps a dated release\'s date, and puts an undated one a second per step above the nearest older dated one', () => {
    assert.deepEqual(iso(feedDates([
      { date: null, publishedGmt: seen },
      { date: null, publishedGmt: seen },
      { date: '2026-01-05', publishedGmt: '2026-01-05 00:00:00' },
    ])), ['2026-01-05T00:00:02.000Z', '2026-01-05T00:00:01.000Z', '2026-01-05T00:00:00.000Z']);
  });

  it('puts undated releases below the nearest newer dated one when none older is dated', () => {
    assert.deepEqual(iso(feedDates([
      { date: '2026-03-02', publishedGmt: '2026-03-02 00:00:00' },
      { date: null, publishedGmt: seen },
      { date: null, publishedGmt: seen },
    ])), ['2026-03-02T00:00:00.000Z', '2026-03-01T23:59:59.000Z', '2026-03-01T23:59:58.000Z']);
  });

  it('counts down from the newest release\'s first sighting when no release is dated', () => {
    assert.deepEqual(iso(feedDates([{ date: null, publishedGmt: seen }, { date: null, publishedGmt: '2026-12-01 00:00:00' }])),
      ['2026-11-28T10:00:00.000Z', '2026-11-28T09:59:59.000Z']);
    assert.deepEqual(feedDates([]), []);
  });
});
