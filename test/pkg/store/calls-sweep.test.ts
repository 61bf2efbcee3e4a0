import { expect } from 'chai';
import { systemClock } from '../../../pkg/clock.js';
import { createDb, type Db } from '../../../pkg/db/index.js';
import { sweepCalls } from '../../../pkg/store/calls.js';
import { createScratchDatabase, type ScratchDatabase } from '../../support/database.js';

const HISTORY = 3000;

describe('The calls sweep, on an account with a long call history', () => {
  let scratch: ScratchDatabase;
  let db: Db;
  before(async () => {
    scratch = await createScratchDatabase();
    db = createDb(scratch.url, 2);
    await db.raw(`insert into tenants (id, name, created_at, updated_at) values ('t', 'T', now(), now())`);
    const into = (columns: string) => `insert into calls (id, tenant_id, direction, from_number, to_number, status, created_at, updated_at, ${columns})`;
    // The history: calls that ended and were made final long ago.
    await db.raw(`${into('final, answered_at, ended_at')}
      select 'old' || i, 't', 'outbound', '+15550100', '+15550101', 'completed', now(), now(), true, now() - interval '1 day', now() - interval '1 day'
      from generate_series(1, ${HISTORY}) i`);
    // Calls on the line, one past its max duration, and one ended whose finaliser still holds it.
    await db.raw(`${into('final, answered_at, lease_owner, lease_until, max_duration_sec')}
      select 'live' || i, 't', 'outbound', '+15550100', '+15550101', 'in-progress', now(), now(), false, now() - interval '1 minute', 'replica', now() + interval '1 minute', case when i = 1 then 30 else 600 end
      from generate_series(1, 3) i`);
    await db.raw(`${into('final, lease_owner, lease_until')}
      values ('ended', 't', 'outbound', '+15550100', '+15550101', 'completed', now(), now(), false, 'replica', now() + interval '1 minute')`);
    await db.raw('analyze calls');
  });
  after(async () => {
    await db?.destroy();
    await scratch?.drop();
  });

  it("reads only the calls not yet final, not the account's history, and still hangs up the call past its max duration", async () => {
    const { overtime, read } = await db.transaction(async (trx) => {
      // Scanning the table is then the planner's last resort: taken only when no index serves the statement.
      await trx.raw('set local enable_seqscan = off');
      const swept = await sweepCalls({ db: trx, clock: systemClock });
      const { rows } = await trx.raw(`select seq_tup_read + coalesce(idx_tup_fetch, 0) as read from pg_stat_xact_user_tables where relname = 'calls'`);
      return { ...swept, read: Number(rows[0].read) };
    });
    expect(overtime.map((c) => c.id)).to.deep.equal(['live1']);
    expect(read, 'rows of calls the sweep read').to.be.below(HISTORY / 10);
  });
});
