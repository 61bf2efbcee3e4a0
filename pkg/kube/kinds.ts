// The kinds the CR mirror writes: for each, the rows it projects, their objects and statuses, the
// operator's annotation, and the phases an operator is told about with an Event.
import type { Ctx } from '../context.js';
import { mirroredRuns, type MirroredRun } from '../campaigns/views.js';
import { CHANNELS } from '../db/notify.js';
import { mirroredTriggers } from '../store/triggers/mirror.js';
import type { TriggerRow } from '../store/triggers/row.js';
import { PENDING } from '../triggers/state.js';
import { applyCancelAnnotation } from './cancel-annotation.js';
import { CAMPAIGN_RUNS, campaignRunObject, campaignRunStatus, type CampaignRunCR } from './campaign-run-cr.js';
import { applyStopAnnotation } from './stop-annotation.js';
import { TRIGGERS, triggerObject, triggerStatus, type Condition, type TriggerCR } from './trigger-cr.js';

/** A mirrored object as the mirror reads and writes it. */
export interface MirroredCR {
  kind: string;
  metadata: { name: string; uid?: string; generation?: number; annotations?: Record<string, string> };
  status?: { phase: string; conditions: Condition[] };
}

export interface Notable {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface MirroredKind<Row extends { id: string; status: string }> {
  kind: string;
  plural: string;
  /** The notify channel whose announcements make the mirror sync. */
  channel: string;
  rows(ctx: Ctx, since: Date): Promise<Row[]>;
  object(row: Row, namespace: string): MirroredCR;
  status(row: Row, previous: Condition[] | undefined, now: Date): { phase: string; conditions: Condition[] };
  /** The Event to record when the object enters the row's phase, if any. */
  notable(row: Row): Notable | undefined;
  /** The operator's annotation, applied; a refusal to show on the object, else null. */
  operatorAction(ctx: Ctx, row: Row, cr: MirroredCR): Promise<Condition | null>;
}

const TRIGGER_EVENTS: Record<string, Pick<Notable, 'type' | 'reason'>> = {
  waiting_for_reply: { type: 'Normal', reason: 'WaitingForReply' },
  failed: { type: 'Warning', reason: 'Failed' },
  expired: { type: 'Warning', reason: 'Expired' },
};

export const triggerKind: MirroredKind<TriggerRow> = {
  kind: 'Trigger',
  plural: TRIGGERS,
  channel: CHANNELS.triggers,
  rows: (ctx, since) => mirroredTriggers(ctx, since, PENDING),
  object: triggerObject,
  status: triggerStatus,
  notable: (row) => {
    const event = TRIGGER_EVENTS[row.status];
    return event && { ...event, message: (row.error_message ?? row.waiting_reason ?? `Job is ${row.status}`).slice(0, 1000) };
  },
  operatorAction: (ctx, row, cr) => applyCancelAnnotation(ctx, row, cr as TriggerCR),
};

export const campaignRunKind: MirroredKind<MirroredRun> = {
  kind: 'CampaignRun',
  plural: CAMPAIGN_RUNS,
  channel: CHANNELS.campaigns,
  rows: mirroredRuns,
  object: campaignRunObject,
  status: campaignRunStatus,
  notable: (run) =>
    run.status === 'failed' ? { type: 'Warning', reason: 'Failed', message: (run.error ?? 'The run failed').slice(0, 1000) } : undefined,
  operatorAction: (ctx, run, cr) => applyStopAnnotation(ctx, run, cr as CampaignRunCR),
};

export const MIRRORED_KINDS = [triggerKind, campaignRunKind] as MirroredKind<{ id: string; status: string }>[];
