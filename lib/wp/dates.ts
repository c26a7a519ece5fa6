/**
 * WordPress keeps two clocks in its rows: site-local time (`post_date`, from the `timezone_string` or
 * `gmt_offset` option) and UTC (`post_date_gmt`), both as `YYYY-MM-DD HH:MM:SS`.
 */
import { OptionStore } from './options';

/** `YYYY-MM-DD HH:MM:SS` of an instant shifted by `offsetMinutes`. */
export function mysqlDateTime(ms: number, offsetMinutes = 0): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The site's offset from UTC at an instant: the named time zone when set, else `gmt_offset` hours. */
export async function siteOffsetMinutes(options: OptionStore, ms: number): Promise<number> {
  const zone = String((await options.get('timezone_string', '')) || '');
  if (zone) {
    try {
      return zoneOffsetMinutes(zone, ms);
    } catch {
      // An unknown zone name falls back to gmt_offset, as WordPress's wp_timezone() does.
    }
  }
  const hours = Number(await options.get('gmt_offset', 0));
  return Number.isFinite(hours) ? Math.round(hours * 60) : 0;
}

/**
 * WP: wp_timezone_string(): the site's time zone as a name (`Europe/Berlin`) when `timezone_string`
 * names a known zone, else its `gmt_offset` as `±HH:MM` (`+05:30`, `+00:00`). Browser scripts read
 * site-local dates (`post_date`) with it.
 */
export async function siteTimeZone(options: OptionStore): Promise<string> {
  const zone = String((await options.get('timezone_string', '')) || '');
  if (zone) {
    try {
      zoneOffsetMinutes(zone, 0);
      return zone;
    } catch {
      // An unknown zone name falls back to gmt_offset, as wp_timezone_string() does.
    }
  }
  const hours = Number(await options.get('gmt_offset', 0));
  const minutes = Number.isFinite(hours) ? Math.round(hours * 60) : 0;
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Both columns of a WordPress date for the instant `ms`. */
export async function siteDates(options: OptionStore, ms: number): Promise<{ local: string; gmt: string }> {
  return { local: mysqlDateTime(ms, await siteOffsetMinutes(options, ms)), gmt: mysqlDateTime(ms) };
}

function zoneOffsetMinutes(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}
