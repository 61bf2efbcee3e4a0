// The gap-free numbering of invoices and credit notes: a counter row per series and year, updated
// in the transaction that uses the number, so a transaction that fails gives its number back.
import type { Knex } from 'knex';

/** The next number of `series` for the year of `at` ('INV-2025-000042'), taken in `db`'s transaction. */
export async function takeNumber(db: Knex, series: 'INV' | 'CN', at: Date): Promise<string> {
  const year = at.getUTCFullYear();
  const { rows } = await db.raw(
    `insert into invoice_numbers (series, year, last) values (?, ?, 1)
     on conflict (series, year) do update set last = invoice_numbers.last + 1
     returning last`,
    [series, year],
  );
  return `${series}-${year}-${String(rows[0].last).padStart(6, '0')}`;
}
