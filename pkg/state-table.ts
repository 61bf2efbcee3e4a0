// What every lifecycle table (jobs, calls, deliveries: each domain's state.ts) is asked; the rows stay in their domain.

/** One row of a lifecycle table, shaped like the spec's: `from` null is a creation. */
export interface TableRow<S, E> {
  from: S | null;
  event: E;
  to: S;
  effect: string;
}

/** The status `event` leads to from `from`, or null when the table has no such row. */
export const targetIn = <S, E>(table: readonly TableRow<S, E>[], from: S | null, event: E): S | null =>
  table.find((t) => t.from === from && t.event === event)?.to ?? null;

/** Statuses from which `event` is allowed (for conditional UPDATEs: `where status in (...)`). */
export const sourcesIn = <S, E>(table: readonly TableRow<S, E>[], event: E): S[] =>
  table.filter((t) => t.event === event && t.from !== null).map((t) => t.from as S);
