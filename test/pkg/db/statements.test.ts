import { expect } from 'chai';
import type { Knex } from 'knex';
import { compiledQuery, inOneTransaction } from '../../../pkg/db/statements.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { watchSent } from '../../support/statements.js';

describe("A store function's statement, sent where its caller is (pkg/db/statements.ts)", () => {
  let app: TestApp;
  let db: Knex;
  before(async () => {
    app = await startTestApp();
    db = app.runtime.ctx.db;
    await db.raw('create table statements_probe (id int primary key, name text not null)');
  });
  after(async () => {
    await db?.raw('drop table if exists statements_probe');
    await app?.close();
  });

  const insertProbe = compiledQuery((q, { id, name }: { id: number; name: string }) =>
    q('statements_probe').insert({ id, name }).returning('*'),
  );
  const names = async (ids: number[]) => (await db('statements_probe').whereIn('id', ids).orderBy('id')).map((r) => r.name);

  it('runs in the transaction it is given, and outside one on a pipelined connection', async () => {
    const { ctx } = app.runtime;
    const sent: string[] = [];
    const stop = watchSent(ctx.pipelined, (sql) => sent.push(sql));
    try {
      const trx = await db.transaction();
      expect(await insertProbe({ ...ctx, db: trx }, { id: 1, name: 'in a transaction' })).to.deep.equal([
        { id: 1, name: 'in a transaction' },
      ]);
      expect(sent).to.deep.equal([]);
      await trx.rollback();
      expect(await insertProbe(ctx, { id: 2, name: 'alone' })).to.deep.equal([{ id: 2, name: 'alone' }]);
    } finally {
      stop();
    }
    expect(sent).to.have.length(1);
    expect(await names([1, 2])).to.deep.equal(['alone']);
  });

  it('sends the writes of one transaction together, each hearing its rows, and none written when one fails', async () => {
    const { ctx } = app.runtime;
    const send = (statements: Parameters<typeof ctx.pipelined.transaction>[0]) => ctx.pipelined.transaction(statements);
    const written = await inOneTransaction(ctx, send, (tx) =>
      Promise.all([insertProbe(tx, { id: 10, name: 'a' }), insertProbe(tx, { id: 11, name: 'b' })]),
    );
    expect(written).to.deep.equal([[{ id: 10, name: 'a' }], [{ id: 11, name: 'b' }]]);

    const refused = await inOneTransaction(ctx, send, (tx) =>
      Promise.all([insertProbe(tx, { id: 12, name: 'c' }), insertProbe(tx, { id: 10, name: 'again' })]),
    ).catch((err: { code?: string }) => err);
    expect(refused).to.have.property('code', '23505');
    expect(await names([10, 11, 12])).to.deep.equal(['a', 'b']);
  });

  it('refuses a write that comes after its transaction was sent, rather than send it on its own', async () => {
    const { ctx } = app.runtime;
    const late = inOneTransaction(
      ctx,
      (statements) => ctx.pipelined.transaction(statements),
      async (tx) => {
        await insertProbe(tx, { id: 20, name: 'gathered' });
        return insertProbe(tx, { id: 21, name: 'late' });
      },
    );
    expect(await late.catch((err: Error) => err.message)).to.equal('A statement came after its transaction had been sent');
    expect(await names([20, 21])).to.deep.equal(['gathered']);
  });
});
