// What the credit notes against an invoice add up to (minor units).
import type { Knex } from 'knex';

export async function creditedTotal(db: Knex, number: string): Promise<number> {
  const { credited } = await db('invoices').where({ credits_number: number }).first(db.raw('coalesce(sum(total), 0)::bigint as credited'));
  return Number(credited);
}
