// A call and the carrier's relay session conducting it: bound once, opened again after an unanswered
// transfer, and the call handed to the carrier while it dials one.
import type { Ctx } from '../../context.js';
import { leaseEnd } from '../../db/leases.js';
import { CHANNELS, notify } from '../../db/notify.js';
import type { CallRow, CallStatus } from './row.js';
import { placeholders } from '../../db/index.js';

/** The statuses a relay session may bind a call in (pkg/voice/state.ts). */
export interface RelayBindable {
  /** Still being placed. */
  unanswered: readonly CallStatus[];
  /** Answered, the carrier playing its routing until it reached an ai step (handler ai, held by nobody). */
  onTheLine: readonly CallStatus[];
}

/** Who binds which call, as the relay session's setup and its process name them. */
export interface RelayBinding {
  id: string;
  tenantId: string;
  session: string;
  /** The process holding the socket: it leases the call for `leaseMs`. */
  owner: string;
  leaseMs: number;
  /** When given, only the carrier's call of this sid (or one whose sid is not written yet). */
  callSid?: string;
}

/**
 * Binds the call (of `tenantId`) to relay `session` and leases it to `owner`: once only, while it is
 * `bindable`. The controller that placed it learns it lost the line.
 */
export async function bindRelay(ctx: Pick<Ctx, 'db' | 'clock'>, binding: RelayBinding, bindable: RelayBindable): Promise<CallRow | null> {
  const { id, tenantId, session, owner, leaseMs, callSid } = binding;
  const [row] = await ctx
    .db('calls')
    .where({ id, tenant_id: tenantId })
    .whereNull('relay_session')
    .modify((q) => void (callSid !== undefined && q.where((sid) => sid.whereNull('carrier_sid').orWhere({ carrier_sid: callSid }))))
    .where((q) =>
      q
        .whereIn('status', bindable.unanswered)
        .orWhere((answered) => answered.whereIn('status', bindable.onTheLine).andWhere({ handler: 'ai' }).whereNull('lease_owner')),
    )
    .update({
      relay_session: session,
      lease_owner: owner,
      lease_until: leaseEnd(ctx.clock.now(), leaseMs),
      updated_at: ctx.clock.now(),
    })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}

/**
 * The relay session that handed the live call to the carrier is over: another may bind it (the agent's
 * transfer went unanswered and the caller is reconnected).
 */
export async function reopenRelay(ctx: Pick<Ctx, 'db' | 'clock'>, id: string): Promise<void> {
  await ctx.db('calls').where({ id }).whereNotNull('relay_session').update({ relay_session: null, updated_at: ctx.clock.now() });
}

/**
 * `owner` lets go of a call the carrier conducts on its own until `until` (a transfer it dials): no
 * controller picks it up, and its end is reported by the carrier. A call no longer in one of the `live`
 * statuses (the carrier reported its end while `owner` held it) is due now, to be made final.
 */
export async function handCallToCarrier(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  owner: string,
  until: Date,
  live: readonly CallStatus[],
): Promise<void> {
  const now = ctx.clock.now();
  const due = ctx.db.raw(`case when status in (${placeholders(live)}) then ?::timestamptz else ?::timestamptz end`, [...live, until, now]);
  await ctx.db('calls').where({ id, lease_owner: owner }).update({ lease_owner: null, lease_until: until, due_at: due, updated_at: now });
}
