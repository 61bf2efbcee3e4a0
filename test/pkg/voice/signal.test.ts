import { expect } from 'chai';
import { Signal } from '../../../pkg/voice/signal.js';
import { settledNow } from '../../support/settled.js';

describe("Signal: a call loop's wake-up when its row changes", () => {
  it('keeps a change announced while the waiter that asked had lost its race, until the row is read', async () => {
    const signal = new Signal();
    // The loop races the line against the row; the line wins, and the loop goes on to a turn.
    const abandoned = signal.wait();
    expect(await settledNow(abandoned)).to.equal(false);
    signal.noteChange();
    expect(await settledNow(abandoned)).to.equal(true);
    // Back at the race: the change announced during the turn is still there.
    expect(signal.hasUnreadChange).to.equal(true);
    expect(await settledNow(signal.wait())).to.equal(true);
    signal.markRead();
    expect(signal.hasUnreadChange).to.equal(false);
    expect(await settledNow(signal.wait())).to.equal(false);
  });

  it('wakes every waiter of one change, and a change announced before anyone waits', async () => {
    const signal = new Signal();
    const waits = [signal.wait(), signal.wait()];
    signal.noteChange();
    expect(await Promise.all(waits.map(settledNow))).to.deep.equal([true, true]);
    signal.markRead();
    signal.noteChange();
    expect(await settledNow(signal.wait())).to.equal(true);
  });
});
