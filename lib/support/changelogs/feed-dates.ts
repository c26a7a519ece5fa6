/**
 * The dates a feed gives its releases. A release the changelog dated keeps its date. A release it did
 * not date (`date: null`; stored with the time a sync first saw it) is **dated by its order**: feed
 * readers sort by date, and the sync time would make an old release first seen late look newest. So
 * an undated release gets the date of the nearest older dated release in the feed plus one second per
 * step above it; without one, the nearest newer dated release's date minus one second per step; in a
 * feed with no dated release at all, the newest release's first-seen time minus one second per step.
 * A function of the stored rows alone, so an unchanged changelog keeps its bytes (docs/changelogs.md).
 */

export interface DatedRow {
  /** `YYYY-MM-DD`, or null when the changelog gave no date. */
  date: string | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`: the release date, or when a sync first saw an undated release. */
  publishedGmt: string;
}

/** Dates for `releases`, which are ordered newest first by version. */
export function feedDates(releases: readonly DatedRow[]): Date[] {
  const own = releases.map((r) => (r.date === null ? null : gmtDate(r.publishedGmt)));
  return releases.map((_, i) => own[i] ?? byOrder(own, releases, i));
}

function byOrder(own: ReadonlyArray<Date | null>, releases: readonly DatedRow[], i: number): Date {
  for (let older = i + 1; older < own.length; older++) {
    const anchor = own[older];
    if (anchor) return new Date(anchor.getTime() + (older - i) * 1000);
  }
  for (let newer = i - 1; newer >= 0; newer--) {
    const anchor = own[newer];
    if (anchor) return new Date(anchor.getTime() - (i - newer) * 1000);
  }
  const newest = releases[0] as DatedRow;
  return new Date(gmtDate(newest.publishedGmt).getTime() - i * 1000);
}

/** A MySQL UTC datetime as a Date (the epoch when it is none, such as `0000-00-00 00:00:00`). */
export function gmtDate(mysql: string): Date {
  const t = Date.parse(`${mysql.replace(' ', 'T')}Z`);
  return new Date(Number.isFinite(t) ? t : 0);
}
