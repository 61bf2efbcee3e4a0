import { expect } from 'chai';
import { prefixedId } from '../../../pkg/ids.js';
import { enqueueEvent, type OutboxEvent } from '../../../pkg/webhooks/outbox.js';
import type { Envelope } from '../../../pkg/store/webhooks.js';
import { deliveryPolicy } from '../../../pkg/webhooks/policy.js';
import { DELIVERY_TRANSITIONS } from '../../../pkg/webhooks/state.js';
import type { TestApp } from '../../support/app.js';
import { itTestsEveryRow, type RowTest } from '../../support/state-table.js';
import { manualClock } from '../../support/triggers.js';
import { eventually } from '../../support/eventually.js';
import { enqueueDirectly, outboxRow, settledRow, startDeliveries, type Deliveries, type Receiver } from '../../support/webhooks.js';

describe('Webhook delivery transitions: every row of the state table, driven through the webhooks controller', function () {
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
  afterEach(() => {
    receiver.answers.length = 0;
  });

  const event = (fields: Partial<OutboxEvent> = {}): OutboxEvent => {
    const orderingKey = fields.orderingKey ?? prefixedId('cal');
    return { tenantId, type: 'call.updated', target: 'events', url: receiver.url, orderingKey, data: { key: orderingKey }, ...fields };
  };
  const enqueue = (fields: Partial<OutboxEvent> = {}): Promise<Envelope> => enqueueDirectly(app, event(fields));
  const triesOf = (id: string) => receiver.requests.filter((r) => r.headers['webhook-id'] === id);

  const rows: Record<string, RowTest> = {
    '(none):enqueue': {
      title: 'an event is written with the change it announces: rolled back with it, it is never sent',
      async run() {
        const { ctx } = app.runtime;
        let rolledBack = '';
        const refused = await ctx.db
          .transaction(async (trx) => {
            rolledBack = (await enqueueEvent(ctx, trx, event())).id;
            throw new Error('the change failed');
          })
          .catch((err: Error) => err.message);
        expect(refused).to.equal('the change failed');
        const sent = await enqueue();
        expect(await settledRow(app, sent.id)).to.include({ status: 'delivered' });
        expect(await outboxRow(app, rolledBack)).to.equal(undefined);
        expect(triesOf(rolledBack)).to.have.length(0);
      },
    },

    'pending:delivered': {
      title: 'a 2xx answer delivers the event, at its first try',
      async run() {
        const sent = await enqueue();
        const row = await settledRow(app, sent.id);
        expect(row).to.include({ status: 'delivered', attempts: 1, last_error: null, due_at: null });
        expect(row.delivered_at.toISOString()).to.equal(app.clock.now().toISOString());
        expect(triesOf(sent.id)).to.have.length(1);
      },
    },

    'pending:retry': {
      title: "a message.created not answered 2xx is due again after its policy's wait, with the same event id",
      async run() {
        const clock = manualClock(app);
        receiver.answers.push(500);
        const sent = await enqueue({ type: 'message.created', target: 'message', orderingKey: prefixedId('msg') });
        await eventually(
          'the first try to be recorded',
          async () => (await outboxRow(app, sent.id))?.attempts === 1 && (await outboxRow(app, sent.id)).lease_owner === null,
        );
        const waiting = await outboxRow(app, sent.id);
        const waitMs = deliveryPolicy(app.runtime.ctx.config, 'message.created').retryAfterMs[0]!;
        expect(waiting).to.include({ status: 'pending', last_error: 'the receiver answered HTTP 500' });
        expect(waiting.due_at.getTime() - clock.now().getTime()).to.equal(waitMs);

        clock.advance(waitMs);
        app.controllers!.wake();
        expect(await settledRow(app, sent.id)).to.include({ status: 'delivered', attempts: 2 });
        expect(triesOf(sent.id).map((r) => JSON.parse(r.body).id)).to.deep.equal([sent.id, sent.id]);
      },
    },

    'pending:failed': {
      title: 'a call event not answered 2xx on its last try fails, and the next event of its call goes',
      async run() {
        receiver.answers.push(503);
        const orderingKey = prefixedId('cal');
        const first = await enqueue({ orderingKey });
        const next = await enqueue({ orderingKey });
        expect(await settledRow(app, first.id)).to.include({
          status: 'failed',
          attempts: 1,
          due_at: null,
          last_error: 'the receiver answered HTTP 503',
        });
        expect(await settledRow(app, next.id)).to.include({ status: 'delivered' });
        expect(triesOf(first.id)).to.have.length(1);
      },
    },

    'pending:interrupted': {
      title: 'an event whose last try lost its controller fails, not sent again',
      async run() {
        const { ctx } = app.runtime;
        const past = new Date(app.clock.now().getTime() - 60_000);
        // A try in flight on a replica that is gone: its lease ran out. No public interface makes one.
        const lost = await ctx.db.transaction(async (trx) => {
          const sent = await enqueueEvent(ctx, trx, event());
          await trx('webhook_outbox').where({ id: sent.id }).update({ attempts: 1, lease_owner: 'gone', lease_until: past, due_at: past });
          return sent;
        });
        app.controllers!.wake();
        const row = await settledRow(app, lost.id);
        expect(row.status).to.equal('failed');
        expect(row.last_error).to.match(/^interrupted/);
        expect(triesOf(lost.id)).to.have.length(0);
      },
    },
  };

  itTestsEveryRow('DELIVERY_TRANSITIONS', DELIVERY_TRANSITIONS, rows);
});
