import { expect } from 'chai';
import { COLUMNS } from '../../../pkg/store/columns.js';
import { startTestApp, type TestApp } from '../../support/app.js';

describe('The named columns of prepared statements', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  it("are each table's columns in the schema, all of them", async () => {
    for (const [table, columns] of Object.entries(COLUMNS)) {
      const { rows } = await app.runtime.ctx.db.raw(
        'select column_name from information_schema.columns where table_schema = current_schema() and table_name = ? order by ordinal_position',
        [table],
      );
      expect(rows.map((r: { column_name: string }) => r.column_name), table).to.deep.equal(columns);
    }
  });
});
