/** The API's `weeklyPulse` holds exactly this many weeks (about three months). */
export const PULSE_WEEKS = 13;

const WEEK = 7 * 24 * 60 * 60 * 1000;

/**
 * Issues per week over the 13 weeks ending at `now`, oldest first: the last number counts the
 * 7 days up to `now`, the one before it the 7 days before those, and so on; an issue exactly 13
 * weeks old or older is not counted. Weeks are counted back from `now`, not calendar weeks, so
 * the numbers do not depend on a time zone or on which day starts a week.
 *
 * A date after `now` (a sender's clock ahead of ours) counts in the last week; a date that does
 * not parse counts nowhere.
 */
export function weeklyPulse(dates: Iterable<string>, now: Date): number[] {
  const pulse = new Array<number>(PULSE_WEEKS).fill(0);
  const end = now.getTime();
  for (const date of dates) {
    const time = Date.parse(date);
    if (Number.isNaN(time)) continue;
    const week = PULSE_WEEKS - 1 - Math.floor(Math.max(0, end - time) / WEEK);
    if (week >= 0) pulse[week]! += 1;
  }
  return pulse;
}
