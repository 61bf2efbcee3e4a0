// Deferred starts and follow-ups: delayMinutes, or runAt as ISO with an offset or as a naive
// company-local `YYYY-MM-DDTHH:mm` read in the company's timezone; never more than 7 days ahead.
import { DateTime } from 'luxon';
import { Invalid } from '../errors.js';

export const MAX_DELAY_MINUTES = 10_080;
const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
// A time, then Z or an offset of hours, with or without minutes (ISO 8601: +02, +0200, +02:00).
const WITH_OFFSET = /T[\d:.]+(Z|[+-]\d{2}(:?\d{2})?)$/i;

export interface StartInput {
  delayMinutes?: number;
  runAt?: string;
}

function invalid(path: string, message: string): never {
  throw new Invalid(`${path}: ${message}`, [{ path, message }]);
}

/** The UTC time a job should start, or null to start now. */
export function startTime(input: StartInput, timezone: string, now: Date): Date | null {
  if (input.delayMinutes !== undefined && input.runAt !== undefined) {
    invalid('runAt', 'delayMinutes and runAt are mutually exclusive');
  }
  if (input.delayMinutes !== undefined) {
    if (!Number.isInteger(input.delayMinutes) || input.delayMinutes < 1 || input.delayMinutes > MAX_DELAY_MINUTES) {
      invalid('delayMinutes', `must be an integer from 1 to ${MAX_DELAY_MINUTES}`);
    }
    return new Date(now.getTime() + input.delayMinutes * 60_000);
  }
  if (input.runAt === undefined) return null;
  const runAt = input.runAt.trim();
  let at: DateTime;
  if (NAIVE.test(runAt)) at = DateTime.fromISO(runAt, { zone: timezone });
  else if (WITH_OFFSET.test(runAt)) at = DateTime.fromISO(runAt, { setZone: true });
  else invalid('runAt', 'must be ISO 8601 with UTC or an offset, or company-local YYYY-MM-DDTHH:mm');
  if (!at.isValid) invalid('runAt', `is not a valid time (${at.invalidExplanation ?? at.invalidReason})`);
  const when = at.toJSDate();
  if (when.getTime() <= now.getTime()) invalid('runAt', 'must be in the future');
  if (when.getTime() > now.getTime() + MAX_DELAY_MINUTES * 60_000) invalid('runAt', 'must be within 7 days');
  return when;
}
