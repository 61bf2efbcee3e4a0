import { expect } from 'chai';
import { connectKube } from '../../../pkg/kube/client.js';
import { LeaderElector } from '../../../pkg/kube/leader.js';
import { createLogger } from '../../../pkg/log.js';
import { ManualClock } from '../../support/clock.js';
import { eventually } from '../../support/eventually.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver/index.js';

describe('The leader elector on a Lease', () => {
  let kube: KubeApiServer;
  before(async () => {
    kube = await startKubeApiServer();
  });
  after(async () => {
    kube?.setOutage(null);
    await kube?.close();
  });

  it('retries every retry period of its clock, and steps down once its renew deadline has passed without a renewal', async () => {
    const clock = new ManualClock();
    const changes: boolean[] = [];
    const elector = new LeaderElector(connectKube({ KUBECONFIG: kube.kubeconfigPath, KUBERNETES_SERVICE_HOST: undefined, SWITCHBOARD_KUBE_NAMESPACE: 'default' })!, {
      name: 'leader-test',
      identity: 'me',
      clock,
      log: createLogger('silent'),
      timings: { leaseDurationSec: 15, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
      onChange: (leading) => changes.push(leading),
    });
    // Its only timer: the next round, armed once a round has ended.
    const nextRound = () => eventually('the next round to be armed', () => clock.waiting === 1);
    elector.start();
    try {
      await nextRound();
      expect(elector.isLeader).to.equal(true);
      kube.setOutage('unavailable');
      for (let round = 1; round <= 5; round++) {
        clock.advance(2_000);
        await nextRound();
        expect(elector.isLeader, `after ${round * 2} s without a renewal`).to.equal(true);
      }
      clock.advance(2_000);
      await nextRound();
      expect(changes).to.deep.equal([true, false]);
    } finally {
      kube.setOutage(null);
      await elector.stop();
    }
  });
});
