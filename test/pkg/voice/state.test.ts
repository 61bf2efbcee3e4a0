import { expect } from 'chai';
import { CALL_STATUSES } from '../../../pkg/store/calls/row.js';
import {
  arrivingCall,
  CALL_TRANSITIONS,
  CLAIMABLE,
  ENDED,
  endEventOf,
  hangUpEvent,
  isArriving,
  isLive,
  LIVE,
  moveOf,
  notRungYet,
  ON_THE_LINE,
  placedCall,
  sourcesOf,
  transition,
  UNANSWERED,
  unansweredEnd,
  type CallEvent,
} from '../../../pkg/voice/state.js';

/** The table's rows that move a call (the others create one). */
const moves = CALL_TRANSITIONS.filter((t) => t.from !== null).map((t) => ({ ...t, event: t.event as CallEvent }));

describe('The call state table', () => {
  it('reads as DECISIONS.md: queued → ringing → in-progress → completed', () => {
    expect(transition('queued', 'ring')).to.equal('ringing');
    expect(transition('ringing', 'answer')).to.equal('in-progress');
    expect(transition('in-progress', 'hang_up')).to.equal('completed');
  });

  it('starts a placed call queued and a call arriving on a number ringing, both due at once', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    expect(placedCall(now)).to.deep.equal({ direction: 'outbound', status: 'queued', created_at: now, updated_at: now, due_at: now });
    expect(arrivingCall(now)).to.deep.equal({
      direction: 'inbound',
      status: 'ringing',
      created_at: now,
      updated_at: now,
      ringing_at: now,
      due_at: now,
    });
    expect(isArriving(arrivingCall(now))).to.equal(true);
    expect(isArriving(placedCall(now))).to.equal(false);
    expect(isArriving({ direction: 'inbound', status: 'in-progress' })).to.equal(false);
  });

  it('ends a call before answer no-answer, busy, failed or canceled, and one on the line completed or failed', () => {
    const endings = (from: 'queued' | 'ringing' | 'in-progress') =>
      CALL_TRANSITIONS.filter((t) => t.from === from && !isLive(t.to)).map((t) => t.to);
    expect(new Set([...endings('queued'), ...endings('ringing')])).to.deep.equal(new Set(['no-answer', 'busy', 'failed', 'canceled']));
    expect(new Set(endings('in-progress'))).to.deep.equal(new Set(['completed', 'failed']));
  });

  it('never moves an ended call, and every status is live or ended', () => {
    for (const t of CALL_TRANSITIONS) expect(ENDED, `${t.from} --${t.event}-->`).to.not.include(t.from);
    expect([...LIVE, ...ENDED].sort()).to.deep.equal([...CALL_STATUSES].sort());
  });

  it('gives every event one target status, whatever it is applied from', () => {
    for (const t of moves) {
      for (const from of sourcesOf(t.event)) expect(transition(from, t.event), `${from} --${t.event}-->`).to.equal(t.to);
      expect(moveOf(t.event)).to.deep.equal({ from: sourcesOf(t.event), to: t.to });
    }
  });

  it('splits a live call into not answered (hung up: canceled) and on the line (hung up: completed), not rung yet being queued', () => {
    expect([...UNANSWERED, ...ON_THE_LINE].sort()).to.deep.equal([...LIVE].sort());
    expect(sourcesOf('cancel')).to.have.members([...UNANSWERED]);
    expect(sourcesOf('hang_up')).to.have.members([...ON_THE_LINE]);
    for (const status of LIVE) expect(transition(status, hangUpEvent(status)), status).to.be.oneOf(['canceled', 'completed']);
    expect(LIVE.filter(notRungYet)).to.deep.equal(['queued']);
  });

  it('claims placed calls to dial, arriving calls to pick up and ended calls to make final', () => {
    expect(CLAIMABLE).to.deep.equal({ toDial: 'queued', toPickUp: 'ringing', toFinalize: ENDED });
  });

  it('maps each way the network reports an end to one event, and an end before answer to the status the call ends in', () => {
    const reports = {
      busy: 'busy',
      'no-answer': 'no_answer',
      failed: 'fail',
      canceled: 'cancel',
      callee_hangup: 'hang_up',
      caller_hangup: 'hang_up',
    };
    for (const [report, event] of Object.entries(reports)) expect(endEventOf(report), report).to.equal(event);
    for (const report of ['completed', 'answered', 'initiated', 'ringing', 'constructor', ''])
      expect(endEventOf(report), report).to.equal(null);
    expect(['busy', 'no-answer', 'failed', 'canceled'].map(unansweredEnd)).to.deep.equal(['busy', 'no-answer', 'failed', 'canceled']);
    expect(['callee_hangup', 'caller_hangup', 'completed'].map(unansweredEnd)).to.deep.equal([null, null, null]);
  });
});
