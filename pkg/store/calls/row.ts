// A call row as stored, the shapes of its JSON columns, and how a patch of it is written. The
// store sits below the domain: the statuses a call may be in are the column's values here, what
// they mean (the state table, pkg/voice/state.ts) is the domain's.
import type { RoutingStep } from '../routing-step.js';

/** The values of calls.status. */
export const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'no-answer', 'busy', 'failed', 'canceled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export interface TranscriptItem {
  speaker: 'agent' | 'caller';
  text: string;
}

export interface SteeringItem {
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

/** What a simulated caller does: after each thing it hears, its next press while any are left, else its next line ('' stays silent). */
export interface CallerScript {
  lines: string[];
  presses: string[];
}

/** The queue a caller waits in, and its place there when it entered. */
export interface WaitingIn {
  id: string;
  name: string;
  position: number;
  entered_at: string;
}

/** Whom the agent transfers the caller to: `target` in E.164, and who that is when it said. */
export interface Transfer {
  target: string;
  name: string | null;
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

const JSON_COLUMNS = [
  'context',
  'questions',
  'outcomes',
  'metadata',
  'transcript',
  'steering',
  'result',
  'campaign',
  'sim_caller',
  'queue',
  'carrier_step',
  'carrier_transfer',
  'carrier_answer',
] as const;

/** What a write may change of a call besides its status (a transition sets that). */
export type CallPatch = Partial<Omit<CallRow, 'id' | 'seq' | 'status'>>;

/** `patch` as columns: its JSON columns serialised. */
export function encode(patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...patch };
  for (const key of JSON_COLUMNS) if (out[key] !== undefined) out[key] = out[key] === null ? null : JSON.stringify(out[key]);
  return out;
}

/** When a live call's max_duration_sec runs out (SQL), for due times. */
export const DEADLINE = `answered_at + max_duration_sec * interval '1 second'`;
