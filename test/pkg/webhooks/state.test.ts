import { expect } from 'chai';
import { prefixedId } from '../../../pkg/ids.js';
import { enqueueEvent, type Envelope, type OutboxEvent } from '../../../pkg/webhooks/outbox.js';
import { deliveryPolicy } from '../../../pkg/webhooks/policy.js';
import { DELIVERY_TRANSITIONS, type DeliveryTransition } from '../../../pkg/webhooks/state.js';
import type { TestApp } from '../../support/app.js';
import { manualClock } from '../../support/triggers.js';
import { eventually } from '../../support/eventually.js';
import { startDeliveries, type Deliveries, type Receiver } from '../../support/webhooks.js';

const rowKey = (t: Pick<DeliveryTransition, 'from' | 'event'>) => `${t.from ?? '(none)'}:${t.event}`;

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
  const enqueue = (fields: Partial<OutboxEvent> = {}): Promise<Envelope> => {
    const { ctx } = app.runtime;
    return ctx.db.transaction((trx) => enqueueEvent(ctx, trx, event(fields)));
  };
  const stored = (id: string) => app.runtime.ctx.db('webhook_outbox').where({ id }).first();
  const triesOf = (id: string) => receiver.requests.filter((r) => r.headers['webhook-id'] === id);
  async function settled(id: string) {
    await eventually(`event ${id} to settle`, async () => (await stored(id))?.status !== 'pending');
    return stored(id);
  }

  const rows: Record<string, { title: string; run: () => Promise<void> }> = {
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
        expect(await settled(sent.id)).to.include({ status: 'delivered' });
        expect(await stored(rolledBack)).to.equal(undefined);
        expect(triesOf(rolledBack)).to.have.length(0);
      },
    },

    'pending:delivered': {
      title: 'a 2xx answer delivers the event, at its first try',
      async run() {
        const sent = await enqueue();
        const row = await settled(sent.id);
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
        await eventually('the first try to be recorded', async () => (await stored(sent.id))?.attempts === 1 && (await stored(sent.id)).lease_owner === null);
        const waiting = await stored(sent.id);
        const waitMs = deliveryPolicy(app.runtime.ctx.config, 'message.created').retryAfterMs[0]!;
        expect(waiting).to.include({ status: 'pending', last_error: 'the receiver answered HTTP 500' });
        expect(waiting.due_at.getTime() - clock.now().getTime()).to.equal(waitMs);

        clock.advance(waitMs);
        app.controllers!.wake();
        expect(await settled(sent.id)).to.include({ status: 'delivered', attempts: 2 });
        expect(triesOf(sent.id).map((r) => JSON.parse(r.body).id)).to.deep.equal([sent.id, sent.id]);
      },
    },

    'pending:failed': {
      title: "a call event not answered 2xx on its last try fails, and the next event of its call goes",
      async run() {
        receiver.answers.push(503);
        const orderingKey = prefixedId('cal');
        const first = await enqueue({ orderingKey });
        const next = await enqueue({ orderingKey });
        expect(await settled(first.id)).to.include({ status: 'failed', attempts: 1, due_at: null, last_error: 'the receiver answered HTTP 503' });
        expect(await settled(next.id)).to.include({ status: 'delivered' });
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
        const row = await settled(lost.id);
        expect(row.status).to.equal('failed');
        expect(row.last_error).to.match(/^interrupted/);
        expect(triesOf(lost.id)).to.have.length(0);
      },
    },
  };

  it('has a test for every row of DELIVERY_TRANSITIONS, and no test for a row that does not exist', () => {
    expect(DELIVERY_TRANSITIONS.map(rowKey).filter((k) => !rows[k])).to.deep.equal([]);
    expect(Object.keys(rows).filter((k) => !DELIVERY_TRANSITIONS.some((t) => rowKey(t) === k))).to.deep.equal([]);
  });

  for (const t of DELIVERY_TRANSITIONS) {
    const row = rows[rowKey(t)];
    it(`${t.from ?? '(none)'} → ${t.to} (${t.event}): ${row?.title ?? 'has no test'}`, async () => {
      if (!row) expect.fail(`no test for the transition row ${rowKey(t)}`);
      await row.run();
    });
  }
});
