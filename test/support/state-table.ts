// A state table tested row by row: a test per row, keyed `from:event` (`(none)` for a creation), and
// a test that no row lacks one and no test names a row the table does not have.
import { expect } from 'chai';

export interface RowTest {
  title: string;
  run: () => Promise<void>;
}

const rowKey = (t: { from: string | null; event: string }) => `${t.from ?? '(none)'}:${t.event}`;

/** Mocha tests, in the calling describe block, of every row of `table` (named `name` in the titles) by `rows`. */
export function itTestsEveryRow(
  name: string,
  table: readonly { from: string | null; to: string; event: string }[],
  rows: Record<string, RowTest>,
): void {
  it(`has a test for every row of ${name}, and no test for a row that does not exist`, () => {
    expect(table.map(rowKey).filter((k) => !rows[k])).to.deep.equal([]);
    expect(Object.keys(rows).filter((k) => !table.some((t) => rowKey(t) === k))).to.deep.equal([]);
  });

  for (const t of table) {
    const row = rows[rowKey(t)];
    it(`${t.from ?? '(none)'} → ${t.to} (${t.event}): ${row?.title ?? 'has no test'}`, async () => {
      if (!row) expect.fail(`no test for the transition row ${rowKey(t)}`);
      await row.run();
    });
  }
}
