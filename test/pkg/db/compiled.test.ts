import { expect } from 'chai';
import type { Knex } from 'knex';
import { compiledOnce } from '../../../pkg/db/compiled.js';
import { startTestApp, type TestApp } from '../../support/app.js';

describe('A statement knex compiles once (compiledOnce)', () => {
  let app: TestApp;
  let db: Knex;
  before(async () => {
    app = await startTestApp();
    db = app.runtime.ctx.db;
    await db.raw('create table compiled_probe (id int primary key, name text, note text, data jsonb, at timestamptz, tags text[])');
  });
  after(async () => {
    await db?.raw('drop table if exists compiled_probe');
    await app?.close();
  });

  type Row = { id: number; name: string; note?: string | null; data?: string; at?: Date; tags?: string[] };
  const insertRows = (q: Knex, { rows }: { rows: Row[] }) => q('compiled_probe').insert(rows).returning('*');
  const byName = (q: Knex, { name, id }: { name: string; id: number }) =>
    q('compiled_probe').where({ name }).andWhere('id', '>=', id).orderBy('id');

  it('sends what knex compiles from the values themselves, for each shape of them', () => {
    let builds = 0;
    const insert = compiledOnce((q: Knex, values: { rows: Row[] }) => {
      builds++;
      return insertRows(q, values);
    });
    const cases: Row[][] = [
      [{ id: 1, name: 'a', note: null }],
      [{ id: 2, name: 'b', note: 'n' }],
      [{ id: 3, name: 'c' }],
      [
        { id: 4, name: 'd', note: 'x' },
        { id: 5, name: 'e', note: null },
      ],
      [{ id: 6, name: 'f', data: JSON.stringify({ k: [1, 2] }), at: new Date(0), tags: ['t1', 't2'] }],
    ];
    for (const rows of cases) {
      expect(insert(db, { rows }), JSON.stringify(rows)).to.deep.equal(insertRows(db, { rows }).toSQL().toNative());
    }
    // One row with a note (null or not), one without, two rows, and one with every column: four shapes.
    expect(builds).to.equal(4);
    insert(db, { rows: [{ id: 7, name: 'g', note: 'again' }] });
    expect(builds).to.equal(4);
  });

  it('stores and reads the values sent, nulls, JSON, dates and arrays included', async () => {
    const insert = compiledOnce(insertRows);
    const read = compiledOnce(byName);
    const at = new Date('2026-01-02T03:04:05.678Z');
    for (const row of [
      { id: 10, name: 'same', note: null, data: '{"a":1}', at, tags: ['x', 'y'] },
      { id: 11, name: 'same', note: 'two', data: '[]', at, tags: [] },
      { id: 12, name: 'other', note: 'three', data: 'null', at, tags: ['z'] },
    ]) {
      await app.runtime.ctx.pipelined.send(insert(db, { rows: [row] }));
    }
    const { rows } = await app.runtime.ctx.pipelined.send(read(db, { name: 'same', id: 10 }));
    expect(rows).to.deep.equal([
      { id: 10, name: 'same', note: null, data: { a: 1 }, at, tags: ['x', 'y'] },
      { id: 11, name: 'same', note: 'two', data: [], at, tags: [] },
    ]);
    const other = await app.runtime.ctx.pipelined.send(read(db, { name: 'other', id: 0 }));
    expect(other.rows.map((r) => r.id)).to.deep.equal([12]);
  });

  it('refuses an object knex would bind as one value, whose parameters would never be filled in', () => {
    const update = compiledOnce((q: Knex, { id, data }: { id: number; data: Record<string, unknown> }) =>
      q('compiled_probe')
        .where({ id })
        .update({ data: q.raw('?', [data]) }),
    );
    expect(() => update(db, { id: 1, data: { nested: true } })).to.throw(/value is an object; give it as JSON text/);
  });
});
