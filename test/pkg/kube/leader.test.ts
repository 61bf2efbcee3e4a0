import { expect } from 'chai';
import { connectKube } from '../../../pkg/kube/client.js';
import { LeaderElector } from '../../../pkg/kube/leader.js';
import { createLogger } from '../../../pkg/log.js';
import { ManualClock } from '../../support/clock.js';
import { eventually } from '../../support/eventually.js';
import { CLUSTER_START_MS } from '../../support/kube/cluster.js';
import { startFaultyKubeApi, type FaultyKubeApi } from '../../support/kube/faults.js';
import { kubectlOk } from '../../support/kube/kubectl.js';
import { controllerNamespace, type ControllerNamespace } from '../../support/kube/namespace.js';

const TIMINGS = { leaseDurationSec: 15, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

describe('The leader elector on a Lease', () => {
  let ns: ControllerNamespace;
  let kube: FaultyKubeApi;
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    ns = await controllerNamespace();
    kube = await startFaultyKubeApi(ns.cluster.url, ns.cluster.ca);
  });
  after(async () => {
    kube?.setOutage(null);
    await kube?.close();
  });

  /** An elector of the controllers' ServiceAccount on Lease `name`, through `kubeconfig`. */
  const elector = (
    name: string,
    identity: string,
    clock: ManualClock,
    onChange: (leading: boolean) => void = () => {},
    kubeconfig = ns.kubeconfig,
  ) =>
    new LeaderElector(connectKube({ KUBECONFIG: kubeconfig, KUBERNETES_SERVICE_HOST: undefined, SWITCHBOARD_KUBE_NAMESPACE: ns.name })!, {
      name,
      identity,
      clock,
      log: createLogger('silent'),
      timings: TIMINGS,
      onChange,
    });
  const holder = async (lease: string) =>
    JSON.parse(await kubectlOk(ns.cluster.adminKubeconfig, ['get', 'lease', lease, '--namespace', ns.name, '-o', 'json'])).spec
      .holderIdentity;

  it('gives the Lease to one elector, and the other takes it at its next round once the leader stops', async () => {
    const clock = new ManualClock();
    const [first, second] = [elector('handover-test', 'first', clock), elector('handover-test', 'second', clock)];
    // Each elector's only timer: its next round, armed once a round has ended.
    first.start();
    await eventually("the first elector's round", () => clock.waiting === 1);
    second.start();
    await eventually("the second elector's round", () => clock.waiting === 2);
    try {
      expect([first.isLeader, second.isLeader]).to.deep.equal([true, false]);
      expect(await holder('handover-test')).to.equal('first');
      await first.stop();
      clock.advance(TIMINGS.retryPeriodMs);
      await eventually('the second elector to lead', () => second.isLeader);
      expect(await holder('handover-test')).to.equal('second');
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('retries every retry period of its clock, and steps down once its renew deadline has passed without a renewal', async () => {
    const clock = new ManualClock();
    const changes: boolean[] = [];
    const leader = elector('deadline-test', 'me', clock, (leading) => changes.push(leading), ns.kubeconfigVia(kube.url));
    // Its only timer: the next round, armed once a round has ended.
    const nextRound = () => eventually('the next round to be armed', () => clock.waiting === 1);
    leader.start();
    try {
      await nextRound();
      expect(leader.isLeader).to.equal(true);
      kube.setOutage('unavailable');
      for (let round = 1; round <= 5; round++) {
        clock.advance(2_000);
        await nextRound();
        expect(leader.isLeader, `after ${round * 2} s without a renewal`).to.equal(true);
      }
      clock.advance(2_000);
      await nextRound();
      expect(changes).to.deep.equal([true, false]);
    } finally {
      kube.setOutage(null);
      await leader.stop();
    }
  });
});
