import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../pkg/db/embedded.js';
import { testDatabaseUrl } from '../support/hooks.js';
import { startWireCounter, type WireCounter } from './pg-wire-counter.js';

/**
 * Statements in the extended protocol (Parse, Bind, Execute each) and one Sync, sent in one go; `done`
 * settles at ReadyForQuery, or at an error (after which pg hands the batch nothing more).
 */
function batch(texts: string[]) {
  let finish!: (err?: Error) => void;
  const done = new Promise<void>((resolve, reject) => (finish = (err) => (err ? reject(err) : resolve())));
  const submittable = {
    submit(connection: any) {
      for (const text of texts) {
        connection.parse({ text });
        connection.bind({});
        connection.execute({});
      }
      connection.sync();
    },
    handleReadyForQuery: () => finish(),
    handleError: (err: Error) => finish(err),
    handleRowDescription() {},
    handleDataRow() {},
    handleCommandComplete() {},
  };
  return { submittable, done };
}

describe('the Postgres wire counter', () => {
  let counter: WireCounter;
  let client: pg.Client;

  before(async () => {
    counter = startWireCounter();
    client = new pg.Client({ connectionString: await counter.proxy(testDatabaseUrl(), 'test') });
    await client.connect();
    await client.query('create temporary table counted (n int)');
  });
  after(async () => {
    await client.end();
    await counter.close();
  });
  beforeEach(() => counter.reset());

  it('counts a simple query as one statement and one round trip', async () => {
    await client.query('select 1');
    const { test } = counter.counts();
    expect(test).to.include({ connections: 0, statements: 1, roundTrips: 1, rowsWritten: 0, errors: 0 });
    expect(test!.bySql).to.deep.equal({ 'select 1': { executions: 1, rowsWritten: 0, errors: 0 } });
  });

  it('counts three statements sent with one Sync as three statements and one round trip', async () => {
    const { submittable, done } = batch(['select 1', 'select 2', 'insert into counted values (7)']);
    client.query(submittable);
    await done;
    const { test } = counter.counts();
    expect(test).to.include({ statements: 3, roundTrips: 1, rowsWritten: 1 });
    expect(Object.keys(test!.bySql)).to.deep.equal(['select 1', 'select 2', 'insert into counted values (7)']);
  });

  it('counts a transaction inserting two rows as three statements, three round trips and two rows', async () => {
    await client.query('begin');
    await client.query('insert into counted values ($1), ($2)', [1, 2]);
    await client.query('commit');
    const { test } = counter.counts();
    expect(test).to.include({ statements: 3, roundTrips: 3, rowsWritten: 2 });
    expect(test!.bySql['insert into counted values ($1), ($2)']).to.deep.equal({ executions: 1, rowsWritten: 2, errors: 0 });
  });

  it('counts a failed statement as one statement and one error, and the ones an error skipped as none', async () => {
    const { submittable, done } = batch(['select 1/0', 'select 2']);
    client.query(submittable);
    const failed = await done.then(
      () => null,
      (err: Error) => err,
    );
    expect(failed?.message).to.equal('division by zero');
    const { test } = counter.counts();
    expect(test).to.include({ statements: 1, errors: 1, roundTrips: 1 });
    expect(test!.bySql['select 1/0']).to.deep.equal({ executions: 1, rowsWritten: 0, errors: 1 });
    expect(test!.bySql['select 2']).to.deep.equal({ executions: 1, rowsWritten: 0, errors: 0 });
  });

  it('counts the connections a pool opens, and not their startup as round trips', async () => {
    const url = await counter.proxy(testDatabaseUrl(), 'pool');
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const [a, b] = [await pool.connect(), await pool.connect()];
    expect(counter.counts().pool).to.include({ connections: 2, statements: 0, roundTrips: 0 });
    await Promise.all([a.query('select $1::int', [1]), b.query('select 2')]);
    a.release();
    b.release();
    await pool.end();
    expect(counter.counts().pool).to.include({ connections: 2, statements: 2, roundTrips: 2 });
  });

  // The tests' server trusts loopback; the benchmark's embedded one asks for a password first.
  it('counts a password exchange as no round trip', async function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-wire-counter-'));
    const server = await startEmbeddedPostgres(dir, { persistent: false });
    try {
      const password = new pg.Client({ connectionString: await counter.proxy(server.url, 'password') });
      await password.connect();
      await password.query('select $1::int', [1]);
      await password.end();
      expect(counter.counts().password).to.include({ connections: 1, statements: 1, roundTrips: 1 });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
