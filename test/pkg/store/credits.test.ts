import { expect } from 'chai';
import type { Knex } from 'knex';
import { addCredits, balance, STRIPES } from '../../../pkg/store/credits.js';
import { startTestApp, type TestApp } from '../../support/app.js';

describe("A company's credit balance", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  /** Open transactions until one's connection charges a stripe other than `taken`'s; all are given back to end. */
  async function transactionsOnTwoStripes(): Promise<{ first: Knex.Transaction; second: Knex.Transaction; all: Knex.Transaction[] }> {
    const all: Knex.Transaction[] = [];
    const stripeOf = async (trx: Knex.Transaction) => Number((await trx.raw('select pg_backend_pid() as pid')).rows[0].pid) % STRIPES;
    const first = await app.runtime.ctx.db.transaction();
    all.push(first);
    const taken = await stripeOf(first);
    for (;;) {
      const next = await app.runtime.ctx.db.transaction();
      all.push(next);
      if ((await stripeOf(next)) !== taken) return { first, second: next, all };
    }
  }

  it("takes a company's concurrent charges without one waiting for the other's commit, and sums them", async () => {
    const { tenantId } = await app.company({ credits: 10 });
    const { first, second, all } = await transactionsOnTwoStripes();
    const ctx = app.runtime.ctx;
    try {
      await addCredits({ ...ctx, db: first }, tenantId, -1, 'api');
      const pid = Number((await second.raw('select pg_backend_pid() as pid')).rows[0].pid);
      // The second charge either ends or is seen waiting on a lock (the first one's, held until it commits).
      let ended = false;
      const charging = addCredits({ ...ctx, db: second }, tenantId, -2, 'api').then(() => (ended = true));
      for (;;) {
        const { rows } = await ctx.db.raw('select wait_event_type from pg_stat_activity where pid = ?', [pid]);
        if (ended) break;
        expect(rows[0]?.wait_event_type, 'the second charge waits for the first').not.to.equal('Lock');
      }
      await charging;
      await second.commit();
      expect(await balance(ctx, tenantId), 'the first charge is not committed yet').to.equal(8);
      await first.commit();
      expect(await balance(ctx, tenantId)).to.equal(7);
    } finally {
      for (const trx of all) if (!trx.isCompleted()) await trx.rollback();
    }
  });

  it('is the sum of every charge and top-up, however many run at once', async () => {
    const { tenantId } = await app.company({ credits: 5 });
    await Promise.all(Array.from({ length: 20 }, () => addCredits(app.runtime.ctx, tenantId, -0.25, 'api')));
    await addCredits(app.runtime.ctx, tenantId, 1.5, 'topup');
    expect(await balance(app.runtime.ctx, tenantId)).to.equal(1.5);
  });
});
