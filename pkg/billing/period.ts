// A company's calendar month, in its timezone: its name ('2025-03') and its bounds as instants. A
// month with a daylight-saving change is as long as the local calendar makes it.
import { DateTime } from 'luxon';

export interface Month {
  /** 'YYYY-MM' in the company's timezone. */
  name: string;
  start: Date;
  /** The next month's start (excluded). */
  end: Date;
}

const MONTH_NAME = /^(\d{4})-(0[1-9]|1[0-2])$/;

function monthStarting(local: DateTime): Month {
  return { name: local.toFormat('yyyy-MM'), start: local.toJSDate(), end: local.plus({ months: 1 }).toJSDate() };
}

/** The month `at` falls in, in `timezone`. */
export const monthOf = (at: Date, timezone: string): Month => monthStarting(DateTime.fromJSDate(at, { zone: timezone }).startOf('month'));

/** The month named `name` ('YYYY-MM') in `timezone`; null when it is not a month's name. */
export function monthNamed(name: string, timezone: string): Month | null {
  const m = MONTH_NAME.exec(name);
  return m ? monthStarting(DateTime.fromObject({ year: Number(m[1]), month: Number(m[2]), day: 1 }, { zone: timezone })) : null;
}

/** The name of the month after the one named `name`, by the calendar (whatever the timezone). */
export const nameAfter = (name: string): string =>
  DateTime.fromFormat(name, 'yyyy-MM', { zone: 'utc' }).plus({ months: 1 }).toFormat('yyyy-MM');
