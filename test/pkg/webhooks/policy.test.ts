import { expect } from 'chai';
import { prefixedId } from '../../../pkg/ids.js';
import type { WebhookTarget } from '../../../pkg/store/webhooks.js';
import { deliveryPolicies, eventClassOf, retryAfterMs, type EventClass } from '../../../pkg/webhooks/policy.js';
import type { TestApp } from '../../support/app.js';
import { startHttpsServer } from '../../support/https.js';
import { manualClock } from '../../support/triggers.js';
import { eventually } from '../../support/eventually.js';
import { enqueueDirectly, outboxRow, startDeliveries, type Deliveries, type Receiver } from '../../support/webhooks.js';

/** An event type of each class the outbox delivers, and where it goes. */
const QUEUED: Partial<Record<EventClass, { type: string; target: WebhookTarget }>> = {
  call_event: { type: 'call.ended', target: 'events' },
  call_result: { type: 'call.result', target: 'callback' },
  message: { type: 'message.created', target: 'message' },
};

describe('Webhook delivery policies, as the webhooks controller applies them', function () {
  this.timeout(60_000);
  let deliveries: Deliveries;
  let app: TestApp;
  let tenantId: string;
  let receiver: Receiver;
  before(async () => {
    deliveries = await startDeliveries();
    ({ app, tenantId, receiver } = deliveries);
  });
  after(() => deliveries?.close());

  const enqueue = (type: string, target: WebhookTarget, url = receiver.url) => {
    const orderingKey = prefixedId('cal');
    return enqueueDirectly(app, { tenantId, type, target, url, orderingKey, data: { key: orderingKey } });
  };

  it('puts call, queue, ai and invoice events, call.result, message.created and message.test each in its class', () => {
    const classes = [
      'call.initiated',
      'call.ended',
      'queue.entered',
      'ai.summary',
      'invoice.finalized',
      'call.result',
      'message.created',
      'message.test',
      'call.routing',
    ].map(eventClassOf);
    expect(classes).to.deep.equal([
      'call_event',
      'call_event',
      'call_event',
      'call_event',
      'call_event',
      'call_result',
      'message',
      'message_test',
      'routing_step',
    ]);
    expect(() => eventClassOf('message.deleted')).to.throw('No delivery policy for the event type message.deleted');
  });

  it('gives campaign results and summaries one row: 10 s to answer, resent after 1, 2, 4, 8 then every 15 minutes, for an hour', () => {
    expect([eventClassOf('campaign.result'), eventClassOf('campaign.run.finished')]).to.deep.equal(['campaign', 'campaign']);
    const policy = deliveryPolicies(app.runtime.ctx.config).campaign;
    expect(policy.answerWindowMs).to.equal(10_000);
    const waits = Array.from({ length: policy.tries - 1 }, (_, i) => retryAfterMs(policy, i + 1) / 60_000);
    expect(waits).to.deep.equal([1, 2, 4, 8, 15, 15, 15]);
    expect(waits.reduce((a, b) => a + b)).to.equal(60);
  });

  for (const [eventClass, { type, target }] of Object.entries(QUEUED)) {
    it(`tries ${type} (${eventClass}) as many times as its policy says, each retry after the policy's wait`, async () => {
      const clock = manualClock(app);
      const policy = deliveryPolicies(app.runtime.ctx.config)[eventClass as EventClass];
      receiver.answers.push(...Array.from({ length: policy.tries }, () => 500));
      const sent = await enqueue(type, target);
      for (let tries = 1; tries < policy.tries; tries++) {
        await eventually(
          `try ${tries}`,
          async () => (await outboxRow(app, sent.id)).attempts === tries && (await outboxRow(app, sent.id)).lease_owner === null,
        );
        const waitMs = retryAfterMs(policy, tries);
        expect((await outboxRow(app, sent.id)).due_at.getTime() - clock.now().getTime(), `wait after try ${tries}`).to.equal(waitMs);
        clock.advance(waitMs);
        app.controllers!.wake();
      }
      await eventually('the event to fail', async () => (await outboxRow(app, sent.id)).status === 'failed');
      expect(await outboxRow(app, sent.id)).to.include({ attempts: policy.tries, max_attempts: policy.tries });
      expect(receiver.requests.filter((r) => r.headers['webhook-id'] === sent.id)).to.have.length(policy.tries);
    });
  }

  it("gives the receiver its policy's answer window: no answer within it is a failed try", async () => {
    const silent = await startHttpsServer(() => undefined);
    try {
      const sent = await enqueue('call.ended', 'events', silent.url);
      await eventually('the event to fail', async () => (await outboxRow(app, sent.id)).status === 'failed', { withinMs: 10_000 });
      const { answerWindowMs } = deliveryPolicies(app.runtime.ctx.config).call_event;
      expect((await outboxRow(app, sent.id)).last_error).to.equal(`timed out after ${answerWindowMs} ms`);
    } finally {
      await silent.close();
    }
  });
});
