// Placing a call: every refusal is decided, and the call is in Postgres, before the caller hears of it.
import { createHash } from 'node:crypto';
import type { Ctx } from '../context.js';
import { NotFound, TooManyRequests, Unprocessable } from '../errors.js';
import { parseAgentRef, prefixedId } from '../ids.js';
import { getUsableAgent, listAgents } from '../store/agents.js';
import { findByIdempotencyKey } from '../store/calls/get.js';
import { insertCall } from '../store/calls/insert.js';
import type { CallRow } from '../store/calls/row.js';
import { isDoNotCall } from '../store/do-not-call.js';
import { defaultNumber, findNumber } from '../store/phone-numbers.js';
import { allowedCountriesOf, requireFeature, type Tenant } from '../store/tenants.js';
import { destinationProblem } from '../outbound/guard.js';
import { countryOf, toE164 } from './numbers.js';
import { voiceProblem } from './voices.js';
import { placedCall } from './state.js';
import { countCallPlaced } from '../metering/meter.js';

export interface PlaceCallInput {
  to: string;
  from?: string;
  agent_id?: string;
  task?: string;
  context?: Record<string, unknown>;
  questions?: { key: string; question: string }[];
  outcomes?: string[];
  voice?: string;
  max_duration_sec: number;
  callback_url?: string;
  metadata?: Record<string, unknown>;
}

interface Caller {
  tenant: Tenant;
  keyId: string | null;
  channel: 'api' | 'mcp';
  /** The connected app that asked, for usage metering ('' or absent when none). */
  app?: string;
}

interface Placed {
  created: boolean;
  call: CallRow;
}

/** The longest Idempotency-Key taken (header of POST /v1/calls, or place_call's idempotency_key). */
export const IDEMPOTENCY_KEY_MAX = 255;

/** The request's fingerprint: same key and same body means the same call. */
function fingerprint(input: PlaceCallInput): string {
  const stable = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
        )
      : Array.isArray(v)
        ? v.map(stable)
        : v;
  return createHash('sha256')
    .update(JSON.stringify(stable(input)))
    .digest('hex');
}

/** The agent named by `agt_` id; else the tenant's default voice agent; else its first agent. */
export async function agentFor(ctx: Ctx, tenant: Tenant, ref: string | undefined): Promise<string> {
  if (ref !== undefined) {
    const id = parseAgentRef(ref);
    try {
      if (id) return (await getUsableAgent(ctx, tenant.id, id)).id;
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
    throw new Unprocessable(`agent_id ${ref} is not an agent of this account`, 'invalid_agent_id');
  }
  if (tenant.defaultAgentId) return tenant.defaultAgentId;
  const [first] = await listAgents(ctx, tenant.id);
  if (!first) throw new Unprocessable('The account has no AI agent to place the call', 'no_agent');
  return first.id;
}

/**
 * The number the call comes from: `from` when it is one of the account's numbers (no caller id of
 * anyone else's), else the account's default; the deployment's caller id while it has no number.
 */
export async function callerId(ctx: Pick<Ctx, 'db' | 'config'>, tenant: Tenant, raw: string | undefined): Promise<string> {
  if (raw === undefined) return (await defaultNumber(ctx, tenant.id)) ?? ctx.config.SWITCHBOARD_CALLER_ID;
  const from = toE164(raw, tenant.country);
  if (!from) throw new Unprocessable(`from: ${raw} is not a valid phone number`, 'invalid_from');
  if ((await findNumber(ctx.db, from))?.tenantId !== tenant.id) {
    throw new Unprocessable(`from: ${from} is not one of the account's numbers (GET /v1/numbers)`, 'invalid_from');
  }
  return from;
}

/** Refuses a request no call can be placed for; else its numbers in E.164 and its agent. */
async function validateCallRequest(ctx: Ctx, tenant: Tenant, input: PlaceCallInput) {
  const to = toE164(input.to, tenant.country);
  if (!to) throw new Unprocessable(`to: ${input.to} is not a valid phone number (E.164, or national in ${tenant.country})`, 'invalid_to');
  const allowed = allowedCountriesOf(tenant);
  if (!allowed.includes(countryOf(to) ?? '')) {
    throw new Unprocessable(
      `to: ${to} is outside the countries the account may call (${allowed.join(', ')}); an operator can allow more`,
      'country_not_allowed',
    );
  }
  const from = await callerId(ctx, tenant, input.from);
  const voice = input.voice === undefined ? undefined : voiceProblem(ctx.config, input.voice);
  if (voice) throw new Unprocessable(`voice: ${voice}`, 'invalid_voice');
  if (input.callback_url !== undefined) {
    const problem = destinationProblem(input.callback_url, ctx.config);
    if (problem) throw new Unprocessable(`callback_url ${problem}`, 'invalid_callback_url');
  }
  return { to, from, agentId: await agentFor(ctx, tenant, input.agent_id) };
}

export async function placeCall(ctx: Ctx, caller: Caller, input: PlaceCallInput, idempotencyKey?: string): Promise<Placed> {
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX)) {
    throw new Unprocessable(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`, 'invalid_idempotency_key');
  }
  const { tenant } = caller;
  // A brief or a callback is what the calls-through-API-and-MCP feature sells; a plain call needs only a key.
  if (input.task !== undefined || input.callback_url !== undefined) requireFeature(tenant, 'voice_api');
  const { to, from, agentId } = await validateCallRequest(ctx, tenant, input);
  const hash = fingerprint(input);
  const id = prefixedId('cal');
  let slotTaken = false;
  try {
    return await ctx.db.transaction(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (idempotencyKey) {
        // Same-key requests queue here, so exactly one of them places the call.
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`call:${tenant.id}:${idempotencyKey}`]);
        const existing = await findByIdempotencyKey(trx, tenant.id, idempotencyKey);
        if (existing) {
          if (existing.request_hash !== hash) {
            throw new Unprocessable('This Idempotency-Key was used with a different request body', 'idempotency_mismatch');
          }
          return { created: false, call: existing };
        }
      }
      if (await isDoNotCall(tx, tenant.id, to)) throw new Unprocessable(`${to} is on the account's do-not-call list`, 'do_not_call');
      // The slot first: a call refused as busy is not placed, so it does not count against the calls
      // placed per minute. A slot taken for a placement over that limit is given back below.
      await ctx.callLimits.acquireSlot(tenant, id);
      slotTaken = true;
      const rate = await ctx.callLimits.consumePlacement(tenant);
      if (!rate.allowed) throw new TooManyRequests('Over the limit of calls placed per minute', rate.retryAfterSec, 'rate_limited');
      const now = ctx.clock.now();
      const call = await insertCall(trx, {
        ...placedCall(now),
        id,
        tenant_id: tenant.id,
        from_number: from,
        to_number: to,
        agent_id: agentId,
        channel: caller.channel,
        key_id: caller.keyId,
        task: input.task ?? null,
        context: input.context ?? {},
        questions: input.questions ?? [],
        outcomes: input.outcomes ?? null,
        voice: input.voice ?? null,
        max_duration_sec: input.max_duration_sec,
        callback_url: input.callback_url ?? null,
        metadata: input.metadata ?? {},
        idempotency_key: idempotencyKey ?? null,
        request_hash: hash,
      });
      if (caller.keyId) await countCallPlaced(tx, { tenantId: tenant.id, keyId: caller.keyId, app: caller.app, channel: caller.channel });
      return { created: true, call };
    });
  } catch (err) {
    if (slotTaken) await ctx.callLimits.releaseSlot({ tenant_id: tenant.id, id });
    throw err;
  }
}
