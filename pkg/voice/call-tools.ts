// The tools an agent has on a call: end it with an outcome, transfer the caller, take a message,
// and on an answering machine leave a voicemail. An outcome is written to the call at once, so it
// holds even if the line drops before the turn ends.
import { DateTime } from 'luxon';
import type { Ctx } from '../context.js';
import type { TurnTool } from '../agent/tools.js';
import type { Agent } from '../store/agents.js';
import { lockCallById } from '../store/calls/get.js';
import type { AgentResult, CallRow, Transfer } from '../store/calls/row.js';
import { updateCall } from '../store/calls/update.js';
import type { Tenant } from '../store/tenants.js';
import { insertVoiceMessage } from '../store/voice-messages.js';
import { enqueueCallEvent } from './events.js';
import { toE164 } from './numbers.js';

export type { Transfer };

/** What the agent asked for during a turn; the call loop acts on it after the turn's words are spoken. */
export interface CallDecision {
  end?: AgentResult;
  transfer?: Transfer;
  voicemail?: string;
}

/** The language a call is in, the catalogue's languages it may switch to, and the switch. */
export interface Speaking {
  language: string;
  languages: string[];
  switchTo(language: string): Promise<void>;
}

/** The call a turn is on, with the agent conducting it, the account, and what it speaks. */
export interface OnCall {
  call: CallRow;
  agent: Agent;
  tenant: Tenant;
  speaking: Speaking;
}

const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[]) => ({
  type: 'function' as const,
  function: { name, description, parameters: { type: 'object', properties, required } },
});

const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.trim().slice(0, max) : '');
const object = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The outcomes the call was placed with, else its agent's (DECISIONS.md "Agent outcome values"). */
export const outcomesOf = (call: CallRow, agent: Agent): string[] => call.outcomes ?? agent.outcomes;

/** end_call's parameters on a campaign call (DECISIONS.md "Outcome details"). */
const CAMPAIGN_END_PARAMETERS = {
  details: { type: 'object', description: 'Outcome details the customer asked for, as text values' },
  callback: {
    type: 'object',
    description:
      'When the person asked to be called back: `at` as a date-time (their local time, or with an offset) and `when` as they said it',
    properties: { at: { type: 'string' }, when: { type: 'string' } },
    required: ['at', 'when'],
  },
  opt_out: { type: 'boolean', description: 'True when the person asked not to be called again' },
};

/** The campaign extras of end_call's arguments, or why they are refused. */
function campaignExtras(call: CallRow, args: Record<string, unknown>): Pick<AgentResult, 'details' | 'callback' | 'opt_out'> | string {
  const out: Pick<AgentResult, 'details' | 'callback' | 'opt_out'> = {};
  const details = Object.entries(object(args.details)).map(
    ([k, v]) => [k.slice(0, 100), typeof v === 'string' ? v.slice(0, 2000) : JSON.stringify(v)] as const,
  );
  if (details.length) out.details = Object.fromEntries(details);
  if (args.callback !== undefined && args.callback !== null) {
    const callback = object(args.callback);
    const at = DateTime.fromISO(text(callback.at, 100), { zone: call.campaign!.timezone });
    if (!at.isValid) return 'Refused: callback.at must be a date-time such as 2025-03-04T15:00';
    out.callback = { at: at.toISO({ suppressMilliseconds: true })!, when: text(callback.when, 200) };
  }
  if (args.opt_out === true) out.opt_out = true;
  return out;
}

function endCall(ctx: Ctx, { call, agent }: OnCall, decision: CallDecision): TurnTool {
  const outcomes = outcomesOf(call, agent);
  return {
    definition: tool(
      'end_call',
      'End the call once the conversation is done: the outcome, the answers to the questions (by key), and a short note',
      {
        outcome: { type: 'string', enum: outcomes },
        answers: { type: 'object', description: 'Answers keyed by question key' },
        note: { type: 'string' },
        ...(call.campaign ? CAMPAIGN_END_PARAMETERS : {}),
      },
      ['outcome'],
    ),
    run: async (args) => {
      const outcome = text(args.outcome, 100);
      if (!outcomes.includes(outcome)) return { output: `Refused: outcome must be one of ${outcomes.join(', ')}` };
      const extras = call.campaign ? campaignExtras(call, args) : {};
      if (typeof extras === 'string') return { output: extras };
      decision.end = { outcome, answers: object(args.answers), note: text(args.note, 2000), ...extras };
      await updateCall(ctx, call.id, { result: decision.end });
      return { output: 'The call ends after your closing words. Say a short goodbye now.' };
    },
  };
}

function transferCall({ tenant }: OnCall, decision: CallDecision): TurnTool {
  return {
    definition: tool(
      'transfer_call',
      'Transfer the caller to a phone number: it is rung and, when answered, connected to the caller; if not, you are told and stay on the call',
      {
        target: { type: 'string', description: `Phone number to transfer to (E.164, or national in ${tenant.country})` },
        name: { type: 'string', description: 'Who that is (a person or a team)' },
      },
      ['target'],
    ),
    run: async (args) => {
      const raw = text(args.target, 200);
      const target = toE164(raw, tenant.country);
      if (!target)
        return { output: `Refused: target must be a phone number (E.164, or national in ${tenant.country}); ${raw || 'none'} is not` };
      decision.transfer = { target, name: text(args.name, 200) || null };
      return { output: `${target} will be rung after your words. Tell the person briefly that you are transferring them.` };
    },
  };
}

function takeMessage(ctx: Ctx, { call }: OnCall): TurnTool {
  return {
    definition: tool(
      'take_message',
      'Take down a message from the person for the company',
      { summary: { type: 'string' }, details: { type: 'object', description: 'What you collected (name, callback number, …)' } },
      ['summary'],
    ),
    run: async (args) => {
      const summary = text(args.summary, 2000);
      if (!summary) return { output: 'Refused: summary is required' };
      const details = object(args.details);
      const message = await ctx.db.transaction(async (trx) => {
        const tx = { ...ctx, db: trx };
        // Locked first, so the event carries the call as it is when announced: a hang-up committing
        // meanwhile is announced before this message, which then says the call has ended.
        const now = (await lockCallById(trx, call.id))!;
        const m = await insertVoiceMessage(tx, {
          tenant_id: call.tenant_id,
          call_id: call.id,
          kind: 'ai_message',
          // The person on the line: whom a placed call rang, or who rang in.
          caller: call.direction === 'inbound' ? call.from_number : call.to_number,
          summary,
          details,
          agent_id: call.agent_id,
        });
        await enqueueCallEvent(tx, now, 'ai.message', { ai: { message: { summary, details } } });
        return m;
      });
      return { output: `Message ${message.id} taken.` };
    },
  };
}

function switchLanguage({ speaking }: OnCall): TurnTool {
  return {
    definition: tool(
      'switch_language',
      "Speak and hear another language from now on, in this deployment's voice of it; call it before your first words in that language",
      { language: { type: 'string', enum: speaking.languages, description: 'The language tag' } },
      ['language'],
    ),
    run: async (args) => {
      const language = text(args.language, 35);
      if (!speaking.languages.includes(language)) return { output: `Refused: language must be one of ${speaking.languages.join(', ')}` };
      await speaking.switchTo(language);
      return { output: `The call is in ${language} now: say your next words in it.` };
    },
  };
}

function leaveVoicemail(decision: CallDecision): TurnTool {
  return {
    definition: tool('leave_voicemail', 'Leave this message on the answering machine', { message: { type: 'string' } }, ['message']),
    run: async (args) => {
      const message = text(args.message, 4000);
      if (!message) return { output: 'Refused: message is required' };
      decision.voicemail = message;
      return { output: 'The message is recorded after the beep; the call then ends.' };
    },
  };
}

/**
 * A person on the line: end, transfer, take a message, and switch language when the catalogue speaks
 * more than one. An answering machine: leave a voicemail.
 */
export function callTools(ctx: Ctx, on: OnCall, decision: CallDecision, machine: boolean): Map<string, TurnTool> {
  if (machine) return new Map([['leave_voicemail', leaveVoicemail(decision)]]);
  return new Map([
    ['end_call', endCall(ctx, on, decision)],
    ['transfer_call', transferCall(on, decision)],
    ['take_message', takeMessage(ctx, on)],
    ...(on.speaking.languages.length > 1 ? [['switch_language', switchLanguage(on)] as const] : []),
  ]);
}
