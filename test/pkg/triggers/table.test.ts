import { expect } from 'chai';
import { statusLiterals } from '../../../pkg/store/triggers/next-due.js';
import { sweepTriggers } from '../../../pkg/store/triggers/sweep.js';
import { claimDueTriggers } from '../../../pkg/triggers/claim.js';
import { sourcesOf, transition, TRANSITIONS, type TriggerEvent } from '../../../pkg/triggers/state.js';
import { SWEEPS } from '../../../pkg/triggers/sweeps.js';
import type { TestApp } from '../../support/app.js';
import { watchSent } from '../../support/statements.js';
import { startJobsApp } from '../../support/triggers.js';

const SWEPT_EVENTS: TriggerEvent[] = ['interrupted', 'follow_up_past_deadline', 'deadline_passed'];

describe('The controllers take their statuses from the trigger state table', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp();
  });
  after(async () => app?.close());

  /** The bindings of every statement `run` sends through knex. */
  async function bindingsOf(run: () => Promise<unknown>): Promise<unknown[]> {
    const sent: unknown[] = [];
    const listener = (query: { bindings?: unknown[] }) => sent.push(...(query.bindings ?? []));
    app.runtime.ctx.db.on('query', listener);
    try {
      await run();
    } finally {
      app.runtime.ctx.db.removeListener('query', listener);
    }
    return sent;
  }

  it('leads every event to one status, the one a transition writes', () => {
    for (const { event } of TRANSITIONS) {
      expect(new Set(TRANSITIONS.filter((t) => t.event === event).map((t) => t.to)), event).to.have.lengthOf(1);
    }
  });

  it('claims from the sources of claim and follow_up_due, into the status both lead to', async () => {
    const claimable = [...sourcesOf('claim'), ...sourcesOf('follow_up_due')];
    const claimed = transition('queued', 'claim');
    for (const from of claimable) expect(transition(from, 'claim') ?? transition(from, 'follow_up_due')).to.equal(claimed);
    // The claim writes its statuses into its text, so that one plan serves every call (pkg/store/triggers/claim.ts).
    const texts: string[] = [];
    const stop = watchSent(app.runtime.ctx.pipelined, (sql) => texts.push(sql));
    try {
      await claimDueTriggers(app.runtime.ctx, 'replica-a', 30_000, 1);
    } finally {
      stop();
    }
    const claim = texts.find((sql) => sql.includes('update triggers t set status ='))!;
    expect(claim)
      .to.include(`(${statusLiterals(claimable)})`)
      .and.include(`set status = ${statusLiterals([claimed!])}`);
  });

  it("sweeps the rows of interrupted, follow_up_past_deadline and deadline_passed, a running job's only for its lost lease", async () => {
    const rows = TRANSITIONS.filter((t) => SWEPT_EVENTS.includes(t.event) && !(t.from === 'running' && t.event === 'deadline_passed'));
    expect(SWEEPS.map(({ from, event, to }) => ({ from, event, to }))).to.have.deep.members(
      rows.map(({ from, event, to }) => ({ from, event, to })),
    );
    expect(SWEEPS.map((s) => s.passed)).to.deep.equal(SWEEPS.map((s) => (s.from === 'running' ? 'lease_until' : 'expires_at')));
    const sent = await bindingsOf(() => sweepTriggers(app.runtime.ctx, SWEEPS));
    for (const s of SWEEPS) expect(sent).to.include.members([s.from, s.event, s.to, s.message]);
  });
});
