// A call ringing in through Twilio on one of an account's numbers: stored as the simulated network's
// calls are (arrive.ts), and answered with TwiML built from the number's routing. The ai step is
// connected to the relay socket, where the agent greets and converses; transfer dials its number.
import type { Ctx } from '../../context.js';
import { agentRef, parseAgentRef } from '../../ids.js';
import { findNumber } from '../../store/phone-numbers.js';
import { callByCarrierSid } from '../../store/calls.js';
import { getTenant } from '../../store/tenants.js';
import { TRANSFER_RING_SEC } from '../ai-transfer.js';
import { applyCallEvent, ending } from '../events.js';
import { carrierCredentials } from '../carrier-accounts.js';
import { relayTwiml } from '../gateways/twilio/gateway.js';
import { relayToken } from '../gateways/twilio/relay-token.js';
import { dial, reject } from '../gateways/twilio/twiml.js';
import { DEFAULT_GREETING } from './answer.js';
import { ringIn } from './arrive.js';
import type { RoutingStep } from './steps.js';

const UNIQUE_VIOLATION = '23505';

/** How long the relay parameter of an answered call stays good: the carrier opens the socket at once. */
const RELAY_TOKEN_MS = 60_000;

/** What the carrier plays: ai and transfer as routed; any other step (not yet played by the carrier) the account's default agent. */
async function carriedStep(ctx: Ctx, tenantId: string, routing: RoutingStep | null): Promise<Extract<RoutingStep, { type: 'ai' | 'transfer' }> | null> {
  if (!routing) return null;
  if (routing.type === 'ai' || routing.type === 'transfer') return routing;
  const { defaultAgentId } = await getTenant(ctx, tenantId);
  return defaultAgentId ? { type: 'ai', agent_id: agentRef(defaultAgentId) } : null;
}

/** The TwiML answering a call from `from` to `to` (the carrier's `callSid`); an unknown number is refused with no record. */
export async function answerCarriedCall(ctx: Ctx, call: { to: string; from: string; callSid: string }): Promise<string> {
  const number = await findNumber(ctx.db, call.to);
  if (!number) return reject();
  const step = await carriedStep(ctx, number.tenantId, number.routing);
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + RELAY_TOKEN_MS);
  const agentId = step?.type === 'ai' ? parseAgentRef(step.agent_id) : null;
  const greeting = step?.type === 'ai' ? (step.greeting ?? DEFAULT_GREETING) : null;
  // The carrier may ask again for a call it already rang in (a retry): it is the same call, answered again.
  const row =
    (await callByCarrierSid(ctx.db, call.callSid)) ??
    (await ringIn(ctx, { to: call.to, from: call.from, caller: null, carried: { carrierSid: call.callSid, agentId, greeting, until } }).catch(async (err) => {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      return (await callByCarrierSid(ctx.db, call.callSid))!;
    }));
  if (!step) {
    // Nobody is there to answer a number without routing: the controllers make the call final now.
    await applyCallEvent(ctx, row.id, 'no_answer', { ...ending(row, now, 'not_routed'), due_at: now });
    return reject();
  }
  if (step.type === 'ai') {
    const account = (await carrierCredentials(ctx, number.tenantId))!;
    return relayTwiml(ctx.config, number.tenantId, relayToken(account.authToken, row.id, until), false);
  }
  // The carrier bridges the caller for as long as the call may last; its status callback ends it.
  const bridgedUntil = new Date(now.getTime() + (TRANSFER_RING_SEC + row.max_duration_sec) * 1000);
  await applyCallEvent(ctx, row.id, 'answer', { answered_at: now, handler: 'transfer', lease_until: bridgedUntil, due_at: bridgedUntil });
  return dial({ to: step.to, callerId: call.to, timeoutSec: TRANSFER_RING_SEC });
}
