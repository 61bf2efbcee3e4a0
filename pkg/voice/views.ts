// What the API and the webhooks show of a call: the call record and the call result of the spec.
import { agentRef } from '../ids.js';
import type { CallRow } from '../store/calls/row.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The call record (GET /v1/calls/{id}, and `data` of call and ai events). */
export function callRecord(r: CallRow) {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    direction: r.direction,
    from: r.from_number,
    to: r.to_number,
    status: r.status,
    duration_sec: r.duration_sec,
    created_at: iso(r.created_at)!,
    answered_at: iso(r.answered_at),
    ended_at: iso(r.ended_at),
    hangup_cause: r.hangup_cause,
    handler: r.handler,
    ai: r.agent_id ? { agent_id: agentRef(r.agent_id) } : null,
    queue: r.queue,
    max_duration_sec: r.max_duration_sec,
    metadata: r.metadata,
    ...(r.campaign ? { campaign: { id: r.campaign.id, run_id: r.campaign.run_id, contact_id: r.campaign.contact_id } } : {}),
  };
}

export type CallRecord = ReturnType<typeof callRecord>;

/** The agent's outcome when it gave one, else the call's status (`completed`, `no-answer`, `busy`, `failed`, `canceled`). */
export const outcomeOf = (r: CallRow): string => r.result?.outcome ?? r.status;

/** The call result (GET /v1/calls/{id}/result, and `data` of call.result). */
export function callResult(r: CallRow) {
  return {
    call_id: r.id,
    status: r.status,
    final: r.final,
    from: r.from_number,
    to: r.to_number,
    duration_sec: r.duration_sec,
    outcome: outcomeOf(r),
    result: r.result,
    summary: r.summary ?? '',
    transcript: r.transcript,
    metadata: r.metadata,
  };
}
