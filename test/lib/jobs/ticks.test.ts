/** The worker's hourly clock: the next run at a minute of the local hour, as cron's `<minute> * * * *` would. */
import assert from 'node:assert/strict';
import { nextMinuteOfHour } from '../../../lib/jobs/ticks';

describe('nextMinuteOfHour', function () {
  const local = (hour: number, minute: number, second = 0, ms = 0) => new Date(2026, 10, 28, hour, minute, second, ms).getTime();

  it('is later in the same hour when the minute is still to come', function () {
    assert.equal(nextMinuteOfHour(17, local(10, 16, 59, 500)), local(10, 17));
    assert.equal(nextMinuteOfHour(17, local(10, 0)), local(10, 17));
  });

  it('is in the next hour once the minute has begun or passed', function () {
    assert.equal(nextMinuteOfHour(17, local(10, 17)), local(11, 17));
    assert.equal(nextMinuteOfHour(17, local(10, 17, 30)), local(11, 17));
    assert.equal(nextMinuteOfHour(17, local(10, 45)), local(11, 17));
  });

  it('crosses midnight', function () {
    assert.equal(nextMinuteOfHour(17, local(23, 50)), new Date(2026, 10, 29, 0, 17).getTime());
  });
});
