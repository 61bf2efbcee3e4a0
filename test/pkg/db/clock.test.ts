import { expect } from 'chai';
import type { Knex } from 'knex';
import { DatabaseClock } from '../../../pkg/db/clock.js';
import { createDb } from '../../../pkg/db/index.js';
import { createLogger } from '../../../pkg/log.js';
import { eventually } from '../../support/eventually.js';
import { testDatabaseUrl } from '../../support/hooks.js';

// Two replicas whose clocks disagree by a few ms: a job one makes due now is not due yet on the
// other, which claims it a timer and a sweep later. The clock reading keeps the closest agreement.
describe("A replica's clock (the database's time)", function () {
  this.timeout(60_000);
  let db: Knex;
  let clock: DatabaseClock | undefined;
  /** Each reading is held this long on its way to the database, or back: the round trip is lopsided, the middle of it wrong. */
  let held = { there: 0, back: 0 };
  /** Readings taken so far. */
  let readings = 0;
  before(() => {
    db = createDb(testDatabaseUrl(), 2);
  });
  afterEach(() => clock?.stop());
  after(() => db.destroy());

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const lopsided = {
    raw: async (sql: string) => {
      readings += 1;
      await pause(held.there);
      const result = await db.raw(sql);
      await pause(held.back);
      return result;
    },
  } as unknown as Knex;

  /** How far the clock is from the database's time now, read over a round trip short enough to tell (else null). */
  async function offBy(c: DatabaseClock): Promise<number | null> {
    const sent = performance.now();
    const { rows } = await db.raw('select extract(epoch from clock_timestamp())::float8 * 1000 as ms');
    const trip = performance.now() - sent;
    if (trip > 2) return null;
    return Math.abs(c.now().getTime() - (rows[0].ms + trip / 2));
  }
  const within = (c: DatabaseClock, ms: number) => async () => {
    const off = await offBy(c);
    return off !== null && off <= ms;
  };

  it('read while the round trips are lopsided (a busy start), reads again soon, until it agrees to within 2 ms', async () => {
    held = { there: 0, back: 40 };
    clock = new DatabaseClock(lopsided, createLogger('silent'), { syncMs: 60_000, retryMs: 100 });
    clock.start();
    await eventually('the first reading, off by half the hold', async () => ((await offBy(clock!)) ?? 0) > 10);
    held = { there: 0, back: 0 };
    await eventually('the clock agreeing with the database', within(clock, 2), { withinMs: 10_000 });
  });

  it('put back by a closer reading, holds its time rather than going back', async () => {
    held = { there: 40, back: 0 };
    clock = new DatabaseClock(lopsided, createLogger('silent'), { syncMs: 60_000, retryMs: 100 });
    clock.start();
    await eventually('the first reading, ahead by half the hold', async () => ((await offBy(clock!)) ?? 0) > 10);
    const times: number[] = [];
    const sampling = setInterval(() => times.push(clock!.now().getTime()), 1);
    try {
      held = { there: 0, back: 0 };
      await eventually('the clock agreeing with the database', within(clock, 2), { withinMs: 10_000 });
    } finally {
      clearInterval(sampling);
    }
    expect(
      times.every((t, i) => i === 0 || t >= times[i - 1]!),
      'the clock went back',
    ).to.equal(true);
  });

  it('keeps a close reading over a later lopsided one', async () => {
    held = { there: 0, back: 0 };
    clock = new DatabaseClock(lopsided, createLogger('silent'), { syncMs: 100, retryMs: 100 });
    readings = 0;
    clock.start();
    // Until its first reading the clock is the wall clock, which on this machine is the database's too.
    await eventually('two readings taken', () => readings >= 6);
    await eventually('the clock agreeing with the database', within(clock, 2), { withinMs: 10_000 });
    held = { there: 0, back: 40 };
    // Several readings come and go, each 20 ms off: nine taken once the tenth has begun.
    const taken = readings;
    await eventually('nine lopsided readings taken', () => readings >= taken + 10);
    await eventually('the clock still agreeing with the database', within(clock, 2), { withinMs: 3_000 });
  });
});
