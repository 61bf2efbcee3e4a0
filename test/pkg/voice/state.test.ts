import { expect } from 'chai';
import { CALL_STATUSES, CALL_TRANSITIONS, ENDED, LIVE, isLive, sourcesOf, transition } from '../../../pkg/voice/state.js';

describe('The call state table', () => {
  it('reads as DECISIONS.md: queued → ringing → in-progress → completed', () => {
    expect(transition('queued', 'ring')).to.equal('ringing');
    expect(transition('ringing', 'answer')).to.equal('in-progress');
    expect(transition('in-progress', 'hang_up')).to.equal('completed');
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
    for (const t of CALL_TRANSITIONS) {
      for (const from of sourcesOf(t.event)) expect(transition(from, t.event), `${from} --${t.event}-->`).to.equal(t.to);
    }
  });
});
