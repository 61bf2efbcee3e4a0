import { expect } from 'chai';
import { ControllerManager, type Claimed, type Reconciler } from '../../controllers/manager.js';
import { notify } from '../../pkg/db/notify.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { manualClock } from '../support/triggers.js';

/**
 * A reconciler of the test's own rows, to drive the manager's loop step by step: claims take ids
 * from `due`, and a run is closing, then ends, when the test lets it.
 */
function probe(channel: string, { concurrency = 1, sweepsDueRowsOnly = false, quietWhileRunning = false } = {}) {
  const due: string[] = [];
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const closing = new Map<string, () => void>();
  let ticks = 0;
  const claimed = (id: string): Claimed => ({
    id,
    run: (close) =>
      new Promise<void>((resolve) => {
        started.push(id);
        finish.set(id, resolve);
        closing.set(id, close);
      }),
  });
  const reconciler: Reconciler = {
    name: 'probe',
    channel,
    concurrency,
    sweepsDueRowsOnly,
    quietWhileRunning,
    sweep: async () => void ticks++,
    claim: async (_ctx, _owner, _leaseMs, max) => ({ claimed: due.splice(0, max).map(claimed), nextDue: async () => null }),
    heartbeat: async () => {},
    release: async () => {},
  };
  return {
    reconciler,
    due,
    started,
    finish: (id: string) => finish.get(id)!(),
    close: (id: string) => closing.get(id)!(),
    sweeps: () => ticks,
  };
}

describe('The controller manager', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  it('claims work announced while every slot was taken once a slot frees', async () => {
    const channel = 'manager_test_probe';
    const p = probe(channel);
    // Nothing but a wake-up makes it look again within the test: its idle sleep is longer than the test may take.
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 1,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    p.due.push('first');
    await manager.start();
    try {
      await eventually('the first row running', async () => p.started.includes('first'));
      const looked = p.sweeps();
      p.due.push('second');
      await notify(app.runtime.ctx.db, channel, 'second');
      // The loop woke for the announcement and found its only slot taken.
      await eventually('the loop looking while full', async () => p.sweeps() > looked);
      expect(p.started).to.deep.equal(['first']);

      p.finish('first');

      await eventually('the second row running', async () => p.started.includes('second'));
      p.finish('second');
    } finally {
      await manager.stop();
    }
  });

  it('starts the claimed rows before it asks when the rest is next due', async () => {
    const channel = 'manager_test_next_due';
    const p = probe(channel, { concurrency: 2 });
    let answer!: (due: Date | null) => void;
    const asked = new Promise<Date | null>((resolve) => (answer = resolve));
    const claim = p.reconciler.claim;
    p.reconciler.claim = async (...args) => ({ ...(await claim(...args)), nextDue: () => asked });
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 2,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    p.due.push('first');
    await manager.start();
    try {
      // One row for two slots: the next-due question is asked, and not answered yet.
      await eventually('the first row running', async () => p.started.includes('first'));
      answer(null);
      p.finish('first');
    } finally {
      await manager.stop();
    }
  });

  it("gives a closing run's slot to the next due row, and drains the closing run as a running one", async () => {
    const channel = 'manager_test_closing';
    const p = probe(channel);
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 1,
      leaseMs: 60_000,
      graceMs: 50,
      maxIdleMs: 600_000,
    });
    p.due.push('first', 'second');
    await manager.start();
    await eventually('the first row running', async () => p.started.includes('first'));
    expect(p.started).to.deep.equal(['first']);

    p.close('first');

    await eventually('the second row running while the first closes', async () => p.started.includes('second'));
    p.finish('second');
    // Still closing when the grace period ends: its lease is released like any running row's.
    expect(await manager.stop()).to.deep.equal(['first']);
    p.finish('first');
  });

  it('looks again when a run that gave up its slot at closing ends', async () => {
    const channel = 'manager_test_closed';
    // As the jobs' reconciler: a job queued behind the running one on its conversation is due once that one ends.
    const p = probe(channel, { quietWhileRunning: true });
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 1,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    p.due.push('first');
    await manager.start();
    try {
      await eventually('the first row running', async () => p.started.includes('first'));
      const looked = p.sweeps();
      p.close('first');
      await eventually('the loop looking with the freed slot', async () => p.sweeps() > looked);
      // The closing write makes the second row due; its announcement, heard while the first still runs, is ignored.
      p.due.push('second');
      p.finish('first');
      await eventually('the second row running', async () => p.started.includes('second'));
      p.finish('second');
    } finally {
      await manager.stop();
    }
  });

  it('sweeps while every slot is taken, though nothing wakes the loop and the last claim found nothing else due', async () => {
    const channel = 'manager_test_full';
    // As the jobs' reconciler: the sweep runs once a due time has passed, not on every wake.
    const p = probe(channel, { concurrency: 2, sweepsDueRowsOnly: true });
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 2,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    p.due.push('first');
    await manager.start();
    try {
      // One row for two slots: the claim reported nothing else due.
      await eventually('the first row running', async () => p.started.includes('first'));
      p.due.push('second');
      await notify(app.runtime.ctx.db, channel, 'second');
      await eventually('the second row running', async () => p.started.includes('second'));
      // Both slots are taken (as by runs that each claim the next job on their way out): lost
      // leases and passed deadlines are still swept, within about FULL_SWEEP_MS.
      const swept = p.sweeps();
      await eventually('sweeps while full', async () => p.sweeps() > swept + 1);
      p.finish('first');
      p.finish('second');
    } finally {
      await manager.stop();
    }
  });

  it('asks when the rest is next due only on a look no wake-up followed, and sweeps each second while woken on every look', async () => {
    const channel = 'manager_test_woken';
    const p = probe(channel, { concurrency: 2, sweepsDueRowsOnly: true });
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 2,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    let claims = 0;
    let asked = 0;
    let wakeWhileClaiming = 1;
    const claim = p.reconciler.claim;
    p.reconciler.claim = async (...args) => {
      claims++;
      // As an announcement heard while the claim is on its way; a pause, so the looks do not spin.
      if (wakeWhileClaiming-- > 0) await new Promise((resolve) => setTimeout(resolve, 20)).then(() => manager.wake());
      const claimed = await claim(...args);
      return {
        ...claimed,
        nextDue: async () => {
          asked++;
          return null;
        },
      };
    };
    await manager.start();
    try {
      // The first look was woken while claiming: the look after it, at once, is the one that asks.
      await eventually('the next due time asked', () => asked > 0);
      expect({ claims, asked }).to.deep.equal({ claims: 2, asked: 1 });

      // Woken on every look from now on: no look asks, and the sweep still runs, within about FULL_SWEEP_MS.
      wakeWhileClaiming = Infinity;
      manager.wake();
      const swept = p.sweeps();
      await eventually('sweeps while woken on every look', () => p.sweeps() > swept + 1);
      expect(asked).to.equal(1);
    } finally {
      wakeWhileClaiming = 0;
      await manager.stop();
    }
  });

  it('claims at once when woken while asking when the rest is next due, dropping the answer', async () => {
    const channel = 'manager_test_asking';
    const p = probe(channel, { concurrency: 2 });
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 2,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    let asked = 0;
    let fail!: (err: Error) => void;
    const answer = new Promise<null>((_, reject) => (fail = reject));
    const claim = p.reconciler.claim;
    // The first look's question is never answered (a slow database): it fails once the test is done.
    p.reconciler.claim = async (...args) => ({
      ...(await claim(...args)),
      nextDue: () => (asked++ === 0 ? answer : Promise.resolve(null)),
    });
    p.due.push('first');
    await manager.start();
    try {
      await eventually('the first row running, and the rest asked', () => p.started.includes('first') && asked === 1);
      p.due.push('second');
      await notify(app.runtime.ctx.db, channel, 'second');
      await eventually('the second row running', () => p.started.includes('second'));
      fail(new Error('the dropped answer'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).to.deep.equal([]);
      p.finish('first');
      p.finish('second');
    } finally {
      fail(new Error('the dropped answer'));
      process.off('unhandledRejection', record);
      await manager.stop();
    }
  });
});

describe('The controller manager on a manual clock', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ manualClock: true });
  });
  after(async () => app.close());

  it('looks again when the clock reaches the due time a claim reported, with no wake-up', async () => {
    const clock = manualClock(app);
    const due = new Date(clock.now().getTime() + 60_000);
    let claims = 0;
    const reconciler: Reconciler = {
      name: 'probe',
      channel: 'manager_test_clock',
      sweep: async () => {},
      claim: async () => {
        const first = ++claims === 1;
        return { claimed: [], nextDue: async () => (first ? due : null) };
      },
      heartbeat: async () => {},
      release: async () => {},
    };
    // The idle sleep is far longer than the test may take: only the due time can end it.
    const manager = new ControllerManager(app.runtime.ctx, [reconciler], {
      concurrency: 1,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    await manager.start();
    try {
      await eventually('the first look', () => claims === 1);
      clock.set(due);
      await eventually('a look at the due time', () => claims === 2);
    } finally {
      await manager.stop();
    }
  });

  it('lets other work in while it starts a large claim, rather than starting every run in one stretch', async () => {
    const p = probe('manager_test_many', { concurrency: 1000 });
    for (let i = 0; i < 250; i++) p.due.push(`row${i}`);
    // Other work waiting when the claim's rows come back (an answer, a timer): how many runs had started when it ran.
    let startedBeforeOtherWork = -1;
    const claim = p.reconciler.claim;
    p.reconciler.claim = async (...args) => {
      const claims = await claim(...args);
      setImmediate(() => (startedBeforeOtherWork = p.started.length));
      return claims;
    };
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 1000,
      leaseMs: 60_000,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    await manager.start();
    try {
      await eventually('every row running', async () => p.started.length === 250);
      expect(startedBeforeOtherWork).to.be.within(1, 249);
      for (let i = 0; i < 250; i++) p.finish(`row${i}`);
    } finally {
      await manager.stop();
    }
  });

  it('beats one heartbeat at a time: a beat held up (a slow database, a locked row) is not joined by more', async () => {
    const p = probe('manager_test_beats');
    let beats = 0;
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    p.reconciler.heartbeat = async () => {
      beats++;
      most = Math.max(most, ++inFlight);
      await held;
      inFlight--;
    };
    // A beat every 50 ms (a third of the lease).
    const manager = new ControllerManager(app.runtime.ctx, [p.reconciler], {
      concurrency: 1,
      leaseMs: 150,
      graceMs: 1_000,
      maxIdleMs: 600_000,
    });
    p.due.push('beating');
    await manager.start();
    const clock = manualClock(app);
    try {
      await eventually('the row running', async () => p.started.includes('beating'));
      await eventually('the first beat', () => beats === 1 || void clock.advance(50));
      // Ten beats' time, a beat at a time: a loop that did not wait for the held beat would have set its next timer by each move.
      for (let i = 0; i < 10; i++) {
        clock.advance(50);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(most).to.equal(1);
      release();
      await eventually('the beats going on', () => beats >= 3 || void clock.advance(50));
      p.finish('beating');
    } finally {
      release();
      await manager.stop();
    }
  });
});
