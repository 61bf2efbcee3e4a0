import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';

// sendTransaction as a turn lock's closing transaction (HeldLock.close) runs it, like a turn's and a job run's closing writes.
describe('A transaction sent in one round trip (sendTransaction)', () => {
  let app: TestApp;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  before(async () => {
    app = await startTestApp();
    await app.runtime.ctx.db.raw('create table pipeline_probe (n int primary key)');
    process.on('unhandledRejection', record);
  });
  after(async () => {
    process.off('unhandledRejection', record);
    await app?.runtime.ctx.db.raw('drop table if exists pipeline_probe');
    await app?.close();
  });

  const insert = (n: number) => app.runtime.ctx.db('pipeline_probe').insert({ n });
  const stored = async () => (await app.runtime.ctx.db('pipeline_probe').orderBy('n')).map((r) => r.n);

  it('keeps every statement and returns their results in order', async () => {
    const results = await app.runtime.ctx.locks.withLock(
      'pipeline-probe',
      (lock) => lock.close([insert(1).returning('n'), insert(2).returning('n')]),
      { holder: 'test' },
    );
    expect(results.map((r) => r.rows)).to.deep.equal([[{ n: 1 }], [{ n: 2 }]]);
    expect(await stored()).to.deep.equal([1, 2]);
    await app.runtime.ctx.db('pipeline_probe').del();
  });

  it('sends nothing when a statement cannot be compiled, leaving no transaction open', async () => {
    await app.runtime.ctx.locks.withLock(
      'pipeline-probe',
      async (lock) => {
        const uncompilable = app.runtime.ctx.db('pipeline_probe').where({ n: undefined });
        const error = await lock.close([insert(1), uncompilable]).then(
          () => null,
          (err: Error) => err,
        );
        expect(error?.message).to.match(/Undefined binding/);
        await lock.close([insert(2)]);
      },
      { holder: 'test' },
    );
    expect(await stored()).to.deep.equal([2]);
    await app.runtime.ctx.db('pipeline_probe').del();
  });

  it('rolls back the statements before a failing one and throws its error, leaving nothing unhandled', async () => {
    await app.runtime.ctx.locks.withLock(
      'pipeline-probe',
      async (lock) => {
        const error = await lock.close([insert(1), insert(1), insert(2)]).then(
          () => null,
          (err: Error) => err,
        );
        expect(error?.message).to.match(/duplicate key value violates unique constraint/);
        // The connection left no transaction open: the next one on it commits.
        await lock.close([insert(3)]);
      },
      { holder: 'test' },
    );
    // Answers rejected after the first are handled too: a turn of the event loop reports none.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);
    expect(await stored()).to.deep.equal([3]);
  });
});

// pkg/db/result-shapes.ts parses the pipelined statements' rows by their shapes, built once: the rows must be pg's own.
describe('Rows of statements on the pipelined connections', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  const columns = `42::int8 as big, 7 as small, true as yes, null::text as nothing, '{"a":[1,null]}'::jsonb as doc,
    array['x','y'] as list, '2026-12-08T01:02:03.456Z'::timestamptz as at, 'plain' as "__proto__", 'c' as "constructor"`;

  it('are the rows pg itself parses, every type and column name alike, again and again', async () => {
    const sql = `select ${columns} from generate_series(1, 3) n`;
    const expected = (await app.runtime.ctx.db.raw(sql)).rows;
    for (let i = 0; i < 3; i++) {
      const { rows } = await app.runtime.ctx.pipelined.send({ sql, bindings: [] });
      expect(rows).to.deep.equal(expected);
      expect(Object.getPrototypeOf(rows[0])).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value).to.equal('plain');
      expect(rows[0].big).to.equal(42);
    }
  });

  it('follow each statement its own columns, and a statement that answers none', async () => {
    const a = await app.runtime.ctx.pipelined.send({ sql: 'select $1::text as a, 1 as b', bindings: ['x'] });
    const b = await app.runtime.ctx.pipelined.send({ sql: 'select 2 as b, $1::text as a, 3 as c', bindings: ['y'] });
    const none = await app.runtime.ctx.pipelined.send({ sql: 'select where false', bindings: [] });
    expect(a.rows).to.deep.equal([{ a: 'x', b: 1 }]);
    expect(b.rows).to.deep.equal([{ b: 2, a: 'y', c: 3 }]);
    expect(Object.keys(b.rows[0])).to.deep.equal(['b', 'a', 'c']);
    expect(none.rows).to.deep.equal([]);
  });
});
