// Call rows: reading, listing, conditional transitions, and the call controller's claim, sweep,
// heartbeat and release queries. Every change is announced on CHANNELS.calls with the call's id.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { CHANNELS, notify, notifyIdColumn } from '../db/notify.js';
import { heartbeatRows } from '../db/leases.js';
import { ENDED, LIVE, sourcesOf, transition, type CallEvent, type CallStatus } from '../voice/state.js';
import type { CallerScript } from '../voice/gateways/gateway.js';
import type { WaitingIn } from '../voice/routing/queue-events.js';
import type { RoutingStep } from '../voice/routing/steps.js';
import type { Transfer } from '../voice/call-tools.js';

interface TranscriptItem {
  speaker: 'agent' | 'caller';
  text: string;
}

interface SteeringItem {
  instruction?: string;
  say?: string;
  at: string;
}

/** What the agent ended the call with (`end_call`), as the result's `result` object. */
export interface AgentResult {
  outcome: string;
  answers: Record<string, unknown>;
  note: string;
  /** Campaign calls (DECISIONS.md "Outcome details"): text details, a callback asked for, an opt-out. */
  details?: Record<string, string>;
  callback?: { at: string; when: string };
  opt_out?: boolean;
}

/** A campaign's call to one person of a run, for one attempt. */
export interface CampaignOfCall {
  id: string;
  run_id: string;
  contact_id: string;
  attempt: number;
  /** The person's timezone (a callback's time is read in it). */
  timezone: string;
  /** Whether an answering machine gets a message on this attempt (the last one only). */
  voicemail: boolean;
}

export interface CallRow {
  id: string;
  seq: number;
  tenant_id: string;
  direction: 'outbound' | 'inbound';
  from_number: string;
  to_number: string;
  status: CallStatus;
  agent_id: string | null;
  conversation_id: string | null;
  channel: string;
  key_id: string | null;
  task: string | null;
  context: Record<string, unknown>;
  questions: { key: string; question: string }[];
  outcomes: string[] | null;
  /** The voice the call was placed with, or its `ai` step named (a catalogue id); null: its agent's, else the deployment's. */
  voice: string | null;
  /** The language the agent switched the conversation to (switch_language); null: its voice's. */
  language: string | null;
  max_duration_sec: number;
  callback_url: string | null;
  metadata: Record<string, unknown>;
  campaign: CampaignOfCall | null;
  /** Said first when the person answers (a campaign's greeting, filled). */
  greeting: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  handler: string | null;
  hangup_cause: string | null;
  duration_sec: number;
  transcript: TranscriptItem[];
  steering: SteeringItem[];
  result: AgentResult | null;
  summary: string | null;
  final: boolean;
  created_at: Date;
  updated_at: Date;
  ringing_at: Date | null;
  answered_at: Date | null;
  ended_at: Date | null;
  due_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
  /** An inbound call from the simulated network: what its caller does. */
  sim_caller: CallerScript | null;
  /** The queue the caller waits in, while it waits. */
  queue: WaitingIn | null;
  /** The carrier's id of a call placed through a real carrier. */
  carrier_sid: string | null;
  /** The carrier's detection, reported apart from the call's TwiML (Telnyx's), found an answering machine. */
  answered_by_machine: boolean;
  /** The carrier's relay session conducting the call, once bound (pkg/voice/relay.ts). */
  relay_session: string | null;
  /** The routing step the carrier plays now, for the carrier's next request about the call. */
  carrier_step: RoutingStep | null;
  /** The agent's transfer the carrier is dialling, until how it went is reported. */
  carrier_transfer: Transfer | null;
  /** The carrier's last request about the call and its answer (pkg/voice/routing/carrier-repeats.ts). */
  carrier_answer: CarrierAnswer | null;
}

/** A carrier's request about a call (a hash of its address and body), the TwiML that answered it (null while it is answered), and when it was taken (ISO). */
export interface CarrierAnswer {
  request: string;
  twiml: string | null;
  at: string;
}

/** The carrier_answer of `request` taken at `now`, not answered yet. */
export const takenCarrierRequest = (request: string, now: Date): CarrierAnswer => ({ request, twiml: null, at: now.toISOString() });

const JSON_COLUMNS = ['context', 'questions', 'outcomes', 'metadata', 'transcript', 'steering', 'result', 'campaign', 'sim_caller', 'queue', 'carrier_step', 'carrier_transfer', 'carrier_answer'] as const;

function encode(patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...patch };
  for (const key of JSON_COLUMNS) if (out[key] !== undefined) out[key] = out[key] === null ? null : JSON.stringify(out[key]);
  return out;
}

export async function getCall(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<CallRow> {
  const row = await ctx.db('calls').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`No call ${id} on this account`);
  return row;
}

export const callById = (db: Knex, id: string): Promise<CallRow | undefined> => db('calls').where({ id }).first();

/** The call a carrier knows by `sid` (its CallSid). */
export const callByCarrierSid = (db: Knex, sid: string): Promise<CallRow | undefined> => db('calls').where({ carrier_sid: sid }).first();

/** What others change on a live call's row (a hang-up, its lease, steering): all its loop reads again turn by turn. */
export const CHANGED_WHILE_LIVE = ['status', 'lease_owner', 'lease_until', 'due_at', 'steering', 'answered_by_machine'] as const;
export type ChangedWhileLive = Pick<CallRow, (typeof CHANGED_WHILE_LIVE)[number]>;

/** `row` while it is live and leased to `owner`; undefined once it moved on (hung up by the API, the lease lost). */
export const heldLive = (row: CallRow | undefined, owner: string): CallRow | undefined =>
  row && row.lease_owner === owner && LIVE.includes(row.status) ? row : undefined;

/** callById, holding the row until the transaction `db` ends: a transition of the call waits for it, or it for the transition. */
export const lockCallById = (db: Knex, id: string): Promise<CallRow | undefined> => db('calls').where({ id }).forUpdate().first();

export async function findByIdempotencyKey(db: Knex, tenantId: string, key: string): Promise<CallRow | undefined> {
  return db('calls').where({ tenant_id: tenantId, idempotency_key: key }).first();
}

export async function insertCall(db: Knex, row: Partial<CallRow>): Promise<CallRow> {
  const [inserted] = await db('calls').insert(encode(row)).returning('*');
  await notify(db, CHANNELS.calls, inserted.id);
  return inserted;
}

export interface CallFilter {
  status?: CallStatus;
  direction?: 'outbound' | 'inbound';
  to?: string;
  from?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  /** Only calls older than this sequence number (the cursor). */
  beforeSeq?: number;
  limit: number;
}

/** Newest first. */
export async function listCalls(ctx: Pick<Ctx, 'db'>, tenantId: string, f: CallFilter): Promise<CallRow[]> {
  const q = ctx.db('calls').where({ tenant_id: tenantId });
  if (f.status) q.andWhere({ status: f.status });
  if (f.direction) q.andWhere({ direction: f.direction });
  if (f.to) q.andWhere({ to_number: f.to });
  if (f.from) q.andWhere({ from_number: f.from });
  if (f.createdAfter) q.andWhere('created_at', '>', f.createdAfter);
  if (f.createdBefore) q.andWhere('created_at', '<', f.createdBefore);
  if (f.beforeSeq !== undefined) q.andWhere('seq', '<', f.beforeSeq);
  return q.orderBy('seq', 'desc').limit(f.limit);
}

type Patch = Partial<Omit<CallRow, 'id' | 'seq' | 'status'>>;

/**
 * Apply `event` if the call is still in a status the state table allows it from (and, for a
 * controller, still leased to `owner`). Returns the new row, or null when the call had moved on:
 * the caller lost a race and must not act on it.
 */
export async function transitionCall(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  event: CallEvent,
  patch: Patch,
  owner?: string,
): Promise<CallRow | null> {
  const from = sourcesOf(event);
  const to = transition(from[0]!, event)!;
  const query = ctx.db('calls').where({ id }).whereIn('status', from);
  if (owner) query.andWhere({ lease_owner: owner });
  const [row] = await query.update({ ...encode(patch), status: to, updated_at: ctx.clock.now() }).returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, row.id);
  return row ?? null;
}

/** Change a call without a transition (what was said, steering, the conversation). */
export async function updateCall(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, patch: Patch): Promise<CallRow> {
  return (await patchCall(ctx, ctx.db('calls').where({ id }), id, patch))!;
}

/** `updateCall` while the call is live; null once it ended (a routing step reached after the caller hung up changes nothing). */
export const updateLiveCall = (ctx: Pick<Ctx, 'db' | 'clock'>, id: string, patch: Patch): Promise<CallRow | null> =>
  patchCall(ctx, ctx.db('calls').where({ id }).whereIn('status', LIVE), id, patch);

/** Writes `patch` to call `id` if `which` selects it, announced; null when it does not. */
async function patchCall(ctx: Pick<Ctx, 'db' | 'clock'>, which: Knex.QueryBuilder, id: string, patch: Patch): Promise<CallRow | null> {
  const [row] = await which.update({ ...encode(patch), updated_at: ctx.clock.now() }).returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}

/** The agent's last words become what the far end heard of them (it interrupted); added when not yet written. */
export async function reviseLastAgentWords(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, heard: string): Promise<void> {
  const item = JSON.stringify({ speaker: 'agent', text: heard });
  await ctx.db('calls')
    .where({ id })
    .update({
      transcript: ctx.db.raw(
        `case when transcript->-1->>'speaker' = 'agent' then jsonb_set(transcript, '{-1}', ?::jsonb) else transcript || jsonb_build_array(?::jsonb) end`,
        [item, item],
      ),
      updated_at: ctx.clock.now(),
    })
    .returning(notifyIdColumn(ctx.db, CHANNELS.transcripts));
}

export async function appendTranscript(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, item: TranscriptItem): Promise<void> {
  await transcriptAppend(ctx, id, item);
}

/** appendTranscript's statement, unsent, answering the row's `columns` as the append left them. */
export function transcriptAppend(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, item: TranscriptItem, columns: string[] = []): Knex.QueryBuilder {
  return ctx.db('calls')
    .where({ id })
    .update({ transcript: ctx.db.raw('transcript || ?::jsonb', [JSON.stringify([item])]), updated_at: ctx.clock.now() })
    // The console's live calls show the transcript as it grows.
    .returning([...columns, notifyIdColumn(ctx.db, CHANNELS.transcripts)]);
}

/** Adds a steering item to a call that is on the line; null when it is not. */
export async function appendSteering(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, item: SteeringItem): Promise<CallRow | null> {
  const [row] = await ctx.db('calls')
    .where({ id, status: 'in-progress' })
    .update({ steering: ctx.db.raw('steering || ?::jsonb', [JSON.stringify([item])]), updated_at: ctx.clock.now() })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}

/** The summary and result are written: the call is final and leaves the controller's hands. */
export async function markFinal(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, patch: Patch): Promise<CallRow | null> {
  const [row] = await ctx.db('calls')
    .where({ id, final: false })
    .whereIn('status', ENDED)
    .update({ ...encode(patch), final: true, due_at: null, lease_owner: null, lease_until: null, updated_at: ctx.clock.now() })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}

/** When a live call's max_duration_sec runs out (SQL), for due times. */
const DEADLINE = `answered_at + max_duration_sec * interval '1 second'`;

/**
 * Claim one due call for `owner`: a queued call never dialled, an inbound call ringing that nobody
 * picked up yet, or an ended call whose summary and
 * result are still to be written. SKIP LOCKED lets replicas claim side by side.
 */
export async function claimDueCall(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>, owner: string, leaseMs: number): Promise<CallRow | null> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + leaseMs);
  const { rows } = await ctx.db.raw(
    `with candidate as (
       select id, due_at from calls
       where due_at <= ? and lease_owner is null and ((status = 'queued' and lease_until is null)
         or (direction = 'inbound' and status = 'ringing' and lease_until is null) or (status in (${ENDED.map(() => '?').join(', ')}) and not final))
       order by due_at
       limit 1
       for update skip locked
     )
     update calls c set lease_owner = ?, lease_until = ?, due_at = ?, updated_at = ?
     from candidate where c.id = candidate.id
     returning c.*, candidate.due_at as was_due`,
    [now, ...ENDED, owner, until, until, now],
  );
  const claimed = rows[0];
  if (!claimed) return null;
  const { was_due: due, ...row } = claimed;
  ctx.metrics.queueLag.observe({ reconciler: 'calls' }, Math.max(0, now.getTime() - due.getTime()) / 1000);
  return row as CallRow;
}

/**
 * Work that needs no line: live calls whose controller stopped heartbeating fail (`interrupted`),
 * their slots are released by the caller; ended calls whose finaliser was lost become claimable
 * again; calls on the line past max_duration_sec are hung up (the controller holding the line
 * sees the status change and puts the phone down). Returns the calls that ended here.
 */
export async function sweepCalls(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<{ interrupted: CallRow[]; overtime: CallRow[] }> {
  // Each looks only at calls not yet final (`not final`, index calls_unfinished of migration 025), never at the call history.
  const now = ctx.clock.now();
  const live = LIVE.map(() => '?').join(', ');
  const interrupted: CallRow[] = (
    await ctx.db.raw(
      `update calls set status = 'failed', hangup_cause = 'interrupted', ended_at = ?, updated_at = ?,
         duration_sec = case when answered_at is null then 0 else greatest(0, floor(extract(epoch from (?::timestamptz - answered_at))))::int end,
         lease_owner = null, lease_until = null, due_at = ?
       where id in (select id from calls where not final and status in (${live}) and lease_until <= ? for update skip locked)
       returning *`,
      [now, now, now, now, ...LIVE, now],
    )
  ).rows;
  await ctx.db.raw(
    `update calls set lease_owner = null, lease_until = null, due_at = ?
     where id in (select id from calls where not final and status in (${ENDED.map(() => '?').join(', ')}) and lease_until <= ? for update skip locked)`,
    [now, ...ENDED, now],
  );
  const overtime: CallRow[] = (
    await ctx.db.raw(
      `update calls set status = 'completed', hangup_cause = 'max_duration', ended_at = ?, updated_at = ?, duration_sec = max_duration_sec
       where id in (select id from calls where not final and status = 'in-progress' and ${DEADLINE} <= ? for update skip locked)
       returning *`,
      [now, now, now],
    )
  ).rows;
  for (const row of [...interrupted, ...overtime]) await notify(ctx.db, CHANNELS.calls, row.id);
  return { interrupted, overtime };
}

/**
 * `owner` lets go of a live call the carrier conducts on its own until `until` (a transfer it dials):
 * no controller picks it up, and its end is reported by the carrier.
 */
export async function handCallToCarrier(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, owner: string, until: Date): Promise<void> {
  const now = ctx.clock.now();
  // Ended meanwhile (the carrier reported it while `owner` held it): due now, to be made final.
  const due = ctx.db.raw(`case when status in (${LIVE.map(() => '?').join(', ')}) then ?::timestamptz else ?::timestamptz end`, [...LIVE, until, now]);
  await ctx.db('calls').where({ id, lease_owner: owner }).update({ lease_owner: null, lease_until: until, due_at: due, updated_at: now });
}

/** An ended call nobody holds, waiting to be made final (for its voicemail's recording), is due now. */
export async function dueNowIfEnded(ctx: Pick<Ctx, 'db' | 'clock'>, id: string): Promise<void> {
  const due = await ctx.db('calls').where({ id, final: false }).whereNull('lease_owner').whereIn('status', ENDED).update({ due_at: ctx.clock.now() });
  if (due) await notify(ctx.db, CHANNELS.calls, id);
}

/** Keep `owner`'s leases alive; returns the calls still live, whose slots the caller renews. */
export async function heartbeatCalls(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<Pick<CallRow, 'id' | 'tenant_id'>[]> {
  if (!ids.length) return [];
  const until = new Date(ctx.clock.now().getTime() + leaseMs);
  const rows: Pick<CallRow, 'id' | 'tenant_id' | 'status'>[] = await ctx.db('calls')
    .whereIn('id', heartbeatRows(ctx.db, 'calls', ids, { lease_owner: owner }))
    .update({
      lease_until: until,
      // A call on the line is also due when its max_duration_sec runs out.
      due_at: ctx.db.raw(`case when status = 'in-progress' then least(?::timestamptz, ${DEADLINE}) else ?::timestamptz end`, [until, until]),
    })
    .returning(['id', 'tenant_id', 'status']);
  return rows.filter((r) => LIVE.includes(r.status));
}

/** Give up `owner`'s leases on shutdown: live calls are lost (the sweep fails them at once), ended ones claimable again. */
export async function releaseCalls(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  if (!ids.length) return;
  const now = ctx.clock.now();
  await ctx.db('calls')
    .whereIn('id', ids)
    .andWhere({ lease_owner: owner })
    .update({ lease_owner: null, lease_until: now, due_at: now })
    .returning(notifyIdColumn(ctx.db, CHANNELS.calls));
}

/** Hand the call back after a run: due now when it still needs finalising, never again otherwise. */
export async function unleaseCall(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, owner: string): Promise<void> {
  await ctx.db('calls')
    .where({ id, lease_owner: owner })
    .update({ lease_owner: null, lease_until: null, due_at: ctx.db.raw('case when final then null else ?::timestamptz end', [ctx.clock.now()]) });
}

export async function nextCallDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const row = await ctx.db('calls').whereNotNull('due_at').min({ at: 'due_at' }).first();
  return row?.at ?? null;
}

/**
 * The relay session that handed the live call to the carrier is over: another may bind it (the agent's
 * transfer went unanswered and the caller is reconnected).
 */
export async function reopenRelay(ctx: Pick<Ctx, 'db' | 'clock'>, id: string): Promise<void> {
  await ctx.db('calls').where({ id }).whereNotNull('relay_session').update({ relay_session: null, updated_at: ctx.clock.now() });
}

/**
 * Binds the call (of `tenantId`) to relay `session` and leases it to `owner` (the process holding the socket): once
 * only, while the call is still being placed. The controller that placed it learns it lost the line.
 */
export async function bindRelay(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  tenantId: string,
  session: string,
  owner: string,
  leaseMs: number,
  /** When given, only the carrier's call of this sid (or one whose sid is not written yet). */
  callSid?: string,
): Promise<CallRow | null> {
  const [row] = await ctx.db('calls')
    .where({ id, tenant_id: tenantId })
    .whereNull('relay_session')
    .modify((q) => void (callSid !== undefined && q.where((sid) => sid.whereNull('carrier_sid').orWhere({ carrier_sid: callSid }))))
    // Or answered already, the carrier playing its routing until it reached an ai step.
    .where((q) => q.whereIn('status', ['queued', 'ringing']).orWhere((answered) => answered.where({ status: 'in-progress', handler: 'ai' }).whereNull('lease_owner')))
    .update({ relay_session: session, lease_owner: owner, lease_until: new Date(ctx.clock.now().getTime() + leaseMs), updated_at: ctx.clock.now() })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}

/**
 * Takes the carrier's `request` about the call of `sid` to answer (`taken`) when it is not the call's last request,
 * or is that request still unanswered though taken before `takeOverBefore`; else `repeat`, or `unknown` when there is no such call.
 */
export async function takeCarrierRequest(db: Knex, sid: string, request: string, now: Date, takeOverBefore: Date): Promise<'taken' | 'repeat' | 'unknown'> {
  const taken = await db('calls')
    .where({ carrier_sid: sid })
    .where((q) =>
      q
        .whereRaw(`carrier_answer->>'request' is distinct from ?`, [request])
        .orWhereRaw(`carrier_answer->>'twiml' is null and (carrier_answer->>'at')::timestamptz < ?`, [takeOverBefore]),
    )
    .update({ carrier_answer: JSON.stringify(takenCarrierRequest(request, now)) });
  if (taken) return 'taken';
  return (await db('calls').where({ carrier_sid: sid }).first('id')) ? 'repeat' : 'unknown';
}

/** The answer kept for the carrier's `request` about the call of `sid`: its TwiML, null while it is answered, undefined when it is no longer the last request. */
export async function carrierAnswerOf(db: Knex, sid: string, request: string): Promise<string | null | undefined> {
  const row = await db('calls').where({ carrier_sid: sid }).first('carrier_answer');
  const kept = row?.carrier_answer as CarrierAnswer | null | undefined;
  return kept?.request === request ? kept.twiml : undefined;
}

/** Keeps `twiml` as the answer to the carrier's `request` about the call of `sid`, unless a later request was taken meanwhile. */
export async function keepCarrierAnswer(db: Knex, sid: string, request: string, twiml: string, now: Date): Promise<void> {
  await db('calls')
    .where({ carrier_sid: sid })
    .whereRaw(`carrier_answer->>'request' = ?`, [request])
    .update({ carrier_answer: JSON.stringify({ request, twiml, at: now.toISOString() } satisfies CarrierAnswer) });
}

/** Forgets the carrier's `request` about the call of `sid` (its answer failed), so a repeat is answered anew. */
export async function forgetCarrierRequest(db: Knex, sid: string, request: string): Promise<void> {
  await db('calls').where({ carrier_sid: sid }).whereRaw(`carrier_answer->>'request' = ?`, [request]).update({ carrier_answer: null });
}
