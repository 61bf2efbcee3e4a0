import { expect } from 'chai';
import pg from 'pg';
import { createDb, type Db } from '../../../pkg/db/index.js';
import { inlined } from '../../../pkg/db/statements.js';
import { testDatabaseUrl } from '../../support/hooks.js';

describe('inlined (pkg/db/statements)', () => {
  let db: Db;
  let client: pg.Client;
  before(async () => {
    db = createDb(testDatabaseUrl(), 2);
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
  });
  after(async () => {
    await client.end();
    await db.destroy();
  });

  it('means in the simple protocol what the statement with parameters means', async () => {
    const statement = db.raw(
      'select ?::text as quoted, ?::text as backslashed, ?::timestamptz as at, ?::jsonb as doc, ?::int as n, ?::boolean as yes, ?::text[] as list, ?::text as nothing, ?::text as dollars',
      ["O'Brien said 'hi'", 'C:\\path\\to', new Date('2026-11-24T14:38:10.123Z'), JSON.stringify({ a: "it's", b: [1, 2] }), 42, true, ['x', "y'z"], null, '$1 and $2'],
    );
    const { rows: expected } = await statement;
    const result = (await client.query(inlined(statement))) as pg.QueryResult;
    expect(result.rows).to.deep.equal(expected);
    expect(expected[0]).to.include({ quoted: "O'Brien said 'hi'", backslashed: 'C:\\path\\to', nothing: null, dollars: '$1 and $2' });
  });

  it('refuses binary values, which it has no literal for', () => {
    expect(() => inlined(db.raw('select ?::bytea', [Buffer.from('x')]))).to.throw(/binary values cannot be inlined/);
  });
});
