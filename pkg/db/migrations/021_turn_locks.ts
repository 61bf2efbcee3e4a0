// A turn's lock on its conversation (or a campaign step's on its run) as a row rather than a held
// connection: a turn waiting seconds on its model holds none. The row names its holder's listen
// connection (its pid; that connection holds a presence lock, pkg/db/notify.ts), and the lock
// lasts while that does: a crashed process's locks go at once, as advisory locks did. Unlogged: a
// Postgres crash ends every holder's connection, so the rows it truncates were all free to take.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create unlogged table turn_locks (
      key text primary key,
      token uuid not null,
      holder_pid integer not null,
      -- Another process waits for it: its release is announced (an uncontended one costs no NOTIFY).
      wanted boolean not null default false
    );
    -- The closing transaction's first statement: the lock given up, or the transaction failed when
    -- another process took it meanwhile (its holder's connection was seen gone).
    create function switchboard_release_turn_lock(lock_key text, lock_token uuid) returns void
    language plpgsql as $$
    declare
      was_wanted boolean;
    begin
      delete from turn_locks where key = lock_key and token = lock_token returning wanted into was_wanted;
      if not found then
        raise exception 'turn lock % was lost', lock_key using errcode = 'SBL01';
      end if;
      if was_wanted then
        perform pg_notify('switchboard_turn_locks', lock_key);
      end if;
    end $$;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function switchboard_release_turn_lock(text, uuid); drop table turn_locks;');
}
