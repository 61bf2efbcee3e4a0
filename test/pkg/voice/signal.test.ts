import { expect } from 'chai';
import { Signal } from '../../../pkg/voice/signal.js';
import { settledNow } from '../../support/settled.js';


describe('Signal: a call loop\'s wake-up when its row changes', () => {
  it('keeps a poke made while the waiter that asked had lost its race, until the row is read', async () => {
    const signal = new Signal();
    // The loop races the line against the row; the line wins, and the loop goes on to a turn.
    const abandoned = signal.wait();
    expect(await settledNow(abandoned)).to.equal(false);
    signal.poke();
    expect(await settledNow(abandoned)).to.equal(true);
    // Back at the race: the poke made during the turn is still there.
    expect(signal.poked).to.equal(true);
    expect(await settledNow(signal.wait())).to.equal(true);
    signal.take();
    expect(signal.poked).to.equal(false);
    expect(await settledNow(signal.wait())).to.equal(false);
  });

  it('wakes every waiter of one poke, and a poke made before anyone waits', async () => {
    const signal = new Signal();
    const waits = [signal.wait(), signal.wait()];
    signal.poke();
    expect(await Promise.all(waits.map(settledNow))).to.deep.equal([true, true]);
    signal.take();
    signal.poke();
    expect(await settledNow(signal.wait())).to.equal(true);
  });
});
