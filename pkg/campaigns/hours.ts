// Wall-clock times in a timezone, DST-safe: calling windows in each person's own timezone, and the
// scheduled starts of a campaign on its days.
import { DateTime } from 'luxon';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export interface CallingHours {
  start: string;
  end: string;
}

/** Calling hours a campaign may set lie within these (DECISIONS.md). */
export const CALLING_HOURS_BOUNDS: CallingHours = { start: '08:00', end: '21:00' };
export const DEFAULT_CALLING_HOURS: CallingHours = { start: '09:00', end: '20:00' };

/**
 * `time` (HH:mm) on the local date of `day` in its zone. A time that does not exist that day (the
 * clocks jumped over it) moves forward to the first valid minute; one that occurs twice is taken once.
 */
function atLocalTime(day: DateTime, time: string): DateTime {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  let at = day.set({ hour, minute, second: 0, millisecond: 0 });
  // Luxon moves a skipped time forward by the length of the jump: step back to the jump's first minute.
  const wanted = `${day.toISODate()} ${time}`;
  for (let before = at.minus({ minutes: 1 }); before.toFormat('yyyy-MM-dd HH:mm') >= wanted; before = at.minus({ minutes: 1 })) at = before;
  return at;
}

export interface Window {
  start: Date;
  end: Date;
}

/** The calling window in `zone` on the local date there at `at`. */
export function callingWindow(hours: CallingHours, zone: string, at: Date): Window {
  const day = DateTime.fromJSDate(at, { zone });
  return { start: atLocalTime(day, hours.start).toJSDate(), end: atLocalTime(day, hours.end).toJSDate() };
}

/**
 * The first instant at or after `at` inside a person's calling window: `at` itself inside it, the
 * window's opening before it, null once it has closed. Without a window (a test run) any instant will do.
 */
export function callableFrom(window: { start: Date | null; end: Date | null }, at: Date): Date | null {
  if (window.end && at >= window.end) return null;
  return window.start && at < window.start ? window.start : at;
}

export interface Schedule {
  /** Names from DAYS (the API checks them). */
  days: readonly string[];
  start_time: string;
  timezone: string;
}

/** The first scheduled start after `after`: `start_time` on one of `days` in the schedule's timezone. */
export function nextScheduledStart(schedule: Schedule, after: Date): Date {
  const from = DateTime.fromJSDate(after, { zone: schedule.timezone });
  for (let d = 0; d <= 7; d++) {
    const day = from.plus({ days: d });
    if (!schedule.days.includes(DAYS[day.weekday - 1]!)) continue;
    const start = atLocalTime(day, schedule.start_time).toJSDate();
    if (start > after) return start;
  }
  throw new Error('a schedule with days always starts within eight days');
}
