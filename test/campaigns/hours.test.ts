// The calling-hours rule on its own: each person's window on the run's day in their timezone, and
// when within it they may be called.
import { expect } from 'chai';
import { callableFrom, callingWindow, DEFAULT_CALLING_HOURS, type CallingHours } from '../../pkg/campaigns/hours.js';

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

/** The person's window (UTC) for a run started at `runStart`. */
function windowOf(zone: string, runStart: string, hours: CallingHours = DEFAULT_CALLING_HOURS): { start: string; end: string } {
  const w = callingWindow(hours, zone, new Date(runStart));
  return { start: iso(w.start)!, end: iso(w.end)! };
}

/** When the person may be called at or after `at` (UTC), or null once their window has closed. */
function callable(zone: string, runStart: string, at: string, hours: CallingHours = DEFAULT_CALLING_HOURS): string | null {
  return iso(callableFrom(callingWindow(hours, zone, new Date(runStart)), new Date(at)));
}

describe("Calling hours apply in each person's own timezone, on the run's day there", () => {
  describe('across daylight-saving changes', () => {
    it('New York, spring forward (9 March 2025): 09:00-20:00 is EDT that day, the run starting before the jump', () => {
      // 06:30 UTC is 01:30 EST; the clocks jump from 02:00 to 03:00 at 07:00 UTC.
      expect(windowOf('America/New_York', '2025-03-09T06:30:00Z')).to.deep.equal({
        start: '2025-03-09T13:00:00.000Z',
        end: '2025-03-10T00:00:00.000Z',
      });
      expect(windowOf('America/New_York', '2025-03-08T18:00:00Z')).to.deep.equal({
        start: '2025-03-08T14:00:00.000Z',
        end: '2025-03-09T01:00:00.000Z',
      });
      expect(callable('America/New_York', '2025-03-09T06:30:00Z', '2025-03-09T06:30:00Z')).to.equal('2025-03-09T13:00:00.000Z');
      expect(callable('America/New_York', '2025-03-09T06:30:00Z', '2025-03-09T23:59:00Z')).to.equal('2025-03-09T23:59:00.000Z');
      expect(callable('America/New_York', '2025-03-09T06:30:00Z', '2025-03-10T00:00:00Z')).to.equal(null);
    });

    it('New York, fall back (2 November 2025): a run started in the repeated hour gets that day, in EST', () => {
      // 05:30 UTC is 01:30 EDT, the first of the two 01:30s; from 06:00 UTC it is EST.
      expect(windowOf('America/New_York', '2025-11-02T05:30:00Z')).to.deep.equal({
        start: '2025-11-02T14:00:00.000Z',
        end: '2025-11-03T01:00:00.000Z',
      });
      expect(windowOf('America/New_York', '2025-11-02T06:30:00Z')).to.deep.equal({
        start: '2025-11-02T14:00:00.000Z',
        end: '2025-11-03T01:00:00.000Z',
      });
      expect(callable('America/New_York', '2025-11-02T05:30:00Z', '2025-11-02T13:59:59Z')).to.equal('2025-11-02T14:00:00.000Z');
      expect(callable('America/New_York', '2025-11-02T05:30:00Z', '2025-11-03T00:59:59Z')).to.equal('2025-11-03T00:59:59.000Z');
      expect(callable('America/New_York', '2025-11-02T05:30:00Z', '2025-11-03T01:00:00Z')).to.equal(null);
    });

    it('Berlin, spring forward (30 March 2025): the window is in CEST that day, an hour earlier in UTC than the day before', () => {
      // 00:30 UTC is 01:30 CET; the clocks jump from 02:00 to 03:00 at 01:00 UTC.
      expect(windowOf('Europe/Berlin', '2025-03-30T00:30:00Z')).to.deep.equal({
        start: '2025-03-30T07:00:00.000Z',
        end: '2025-03-30T18:00:00.000Z',
      });
      expect(windowOf('Europe/Berlin', '2025-03-29T12:00:00Z')).to.deep.equal({
        start: '2025-03-29T08:00:00.000Z',
        end: '2025-03-29T19:00:00.000Z',
      });
      expect(callable('Europe/Berlin', '2025-03-30T00:30:00Z', '2025-03-30T07:00:00Z')).to.equal('2025-03-30T07:00:00.000Z');
      expect(callable('Europe/Berlin', '2025-03-30T00:30:00Z', '2025-03-30T18:00:00Z')).to.equal(null);
    });

    it('Berlin, fall back (26 October 2025): a run started in the repeated hour gets that day, in CET', () => {
      // 00:30 UTC is 02:30 CEST, the first of the two 02:30s; from 01:00 UTC it is CET.
      expect(windowOf('Europe/Berlin', '2025-10-26T00:30:00Z')).to.deep.equal({
        start: '2025-10-26T08:00:00.000Z',
        end: '2025-10-26T19:00:00.000Z',
      });
      expect(windowOf('Europe/Berlin', '2025-10-26T01:30:00Z')).to.deep.equal({
        start: '2025-10-26T08:00:00.000Z',
        end: '2025-10-26T19:00:00.000Z',
      });
      expect(callable('Europe/Berlin', '2025-10-26T00:30:00Z', '2025-10-26T18:59:00Z')).to.equal('2025-10-26T18:59:00.000Z');
      expect(callable('Europe/Berlin', '2025-10-26T00:30:00Z', '2025-10-26T19:00:00Z')).to.equal(null);
    });
  });

  describe('at the ends of the clock', () => {
    it('Kiritimati (+14 h): the window of the local day begins on the UTC day before', () => {
      // 00:00 UTC on 1 June is 14:00 on 1 June in Kiritimati; 09:00-20:00 there is 19:00-06:00 UTC.
      expect(windowOf('Pacific/Kiritimati', '2025-06-01T00:00:00Z')).to.deep.equal({
        start: '2025-05-31T19:00:00.000Z',
        end: '2025-06-01T06:00:00.000Z',
      });
      expect(callable('Pacific/Kiritimati', '2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z')).to.equal('2025-06-01T00:00:00.000Z');
      expect(callable('Pacific/Kiritimati', '2025-06-01T00:00:00Z', '2025-06-01T06:00:00Z')).to.equal(null);
    });

    it('Pago Pago (-11 h) and Kiritimati (+14 h) at one instant: one window has closed, the other opens the next UTC evening', () => {
      // 10:00 UTC on 1 June is 23:00 on 31 May in Pago Pago and 00:00 on 2 June in Kiritimati.
      const runStart = '2025-06-01T10:00:00Z';
      expect(windowOf('Pacific/Pago_Pago', runStart)).to.deep.equal({ start: '2025-05-31T20:00:00.000Z', end: '2025-06-01T07:00:00.000Z' });
      expect(callable('Pacific/Pago_Pago', runStart, runStart)).to.equal(null);
      expect(callable('Pacific/Kiritimati', runStart, runStart)).to.equal('2025-06-01T19:00:00.000Z');
    });

    it('Etc/GMT+12 (-12 h): the window of the local day ends on the UTC day after', () => {
      // 12:00 UTC on 1 June is 00:00 on 1 June there; 09:00-20:00 is 21:00-08:00 UTC.
      expect(windowOf('Etc/GMT+12', '2025-06-01T12:00:00Z')).to.deep.equal({
        start: '2025-06-01T21:00:00.000Z',
        end: '2025-06-02T08:00:00.000Z',
      });
      expect(callable('Etc/GMT+12', '2025-06-01T12:00:00Z', '2025-06-02T07:59:59.999Z')).to.equal('2025-06-02T07:59:59.999Z');
      expect(callable('Etc/GMT+12', '2025-06-01T12:00:00Z', '2025-06-02T08:00:00Z')).to.equal(null);
    });
  });

  it('a window that crosses midnight UTC holds on both sides of it, from its opening minute until just before it closes', () => {
    // 08:00-21:00 in Los Angeles (PDT) on 1 June is 15:00 UTC on 1 June to 04:00 UTC on 2 June.
    const hours = { start: '08:00', end: '21:00' };
    const runStart = '2025-06-01T14:00:00Z';
    expect(windowOf('America/Los_Angeles', runStart, hours)).to.deep.equal({
      start: '2025-06-01T15:00:00.000Z',
      end: '2025-06-02T04:00:00.000Z',
    });
    expect(callable('America/Los_Angeles', runStart, '2025-06-01T14:59:59.999Z', hours)).to.equal('2025-06-01T15:00:00.000Z');
    expect(callable('America/Los_Angeles', runStart, '2025-06-01T15:00:00Z', hours)).to.equal('2025-06-01T15:00:00.000Z');
    expect(callable('America/Los_Angeles', runStart, '2025-06-01T23:59:59.999Z', hours)).to.equal('2025-06-01T23:59:59.999Z');
    expect(callable('America/Los_Angeles', runStart, '2025-06-02T00:00:00Z', hours)).to.equal('2025-06-02T00:00:00.000Z');
    expect(callable('America/Los_Angeles', runStart, '2025-06-02T03:59:59.999Z', hours)).to.equal('2025-06-02T03:59:59.999Z');
    expect(callable('America/Los_Angeles', runStart, '2025-06-02T04:00:00Z', hours)).to.equal(null);
  });

  it('a test run, which has no window, may call at any instant', () => {
    const at = new Date('2025-06-01T03:00:00Z');
    expect(callableFrom({ start: null, end: null }, at)).to.equal(at);
  });
});
