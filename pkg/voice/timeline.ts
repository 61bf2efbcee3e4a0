// A call's timeline for the console: its state changes, steering and the webhooks written about it, by time.
import type { Ctx } from '../context.js';
import type { CallRow } from '../store/calls/row.js';
import { eventsOfCall } from '../webhooks/outbox.js';

export interface TimelineEntry {
  at: string;
  /** `created`, `ringing`, `answered`, `queued`, `steered`, `ended`, or `webhook`. */
  kind: string;
  detail: string;
}

export async function callTimeline(ctx: Pick<Ctx, 'db'>, row: CallRow): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [
    { at: row.created_at.toISOString(), kind: 'created', detail: `${row.direction} call from ${row.from_number} to ${row.to_number}` },
  ];
  if (row.ringing_at) entries.push({ at: row.ringing_at.toISOString(), kind: 'ringing', detail: 'Ringing' });
  if (row.answered_at) entries.push({ at: row.answered_at.toISOString(), kind: 'answered', detail: 'Answered' });
  if (row.queue)
    entries.push({
      at: row.queue.entered_at,
      kind: 'queued',
      detail: `Waiting in queue ${row.queue.name} (position ${row.queue.position})`,
    });
  for (const s of row.steering) {
    entries.push({
      at: s.at,
      kind: 'steered',
      detail: `Steered: ${[s.say && `say "${s.say}"`, s.instruction && `instruction "${s.instruction}"`].filter(Boolean).join(', ')}`,
    });
  }
  if (row.ended_at)
    entries.push({
      at: row.ended_at.toISOString(),
      kind: 'ended',
      detail: `Ended ${row.status}${row.hangup_cause ? ` (${row.hangup_cause})` : ''}`,
    });
  for (const e of await eventsOfCall(ctx, row.tenant_id, row.id))
    entries.push({ at: e.created_at.toISOString(), kind: 'webhook', detail: `${e.type} (${e.status})` });
  // A stable sort: entries of the same instant keep the order above (state before its webhooks).
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
