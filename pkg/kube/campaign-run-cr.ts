// How a campaign run looks as a `CampaignRun` custom resource (crds/campaignruns.switchboard.dev.yaml).
import type { MirroredRun } from '../campaigns/views.js';
import { phaseConditions, type PhaseConditions } from './conditions.js';
import { API_VERSION, type Condition } from './trigger-cr.js';

export const CAMPAIGN_RUNS = 'campaignruns';

export interface CampaignRunStatus {
  phase: string;
  total: number;
  done: number;
  noAnswer: number;
  skipped: number;
  pending: number;
  unfinished: number;
  resultsNotTaken: number;
  startedAt: string;
  endedAt?: string;
  error?: string;
  observedGeneration?: number;
  conditions: Condition[];
}

export interface CampaignRunCR {
  apiVersion: string;
  kind: 'CampaignRun';
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    generation?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: Record<string, unknown>;
  status?: CampaignRunStatus;
}

/** The run id lowercased, its `_` a `-`: an object's name is a DNS subdomain (run_01J… is not one). */
export const campaignRunName = (runId: string): string => runId.toLowerCase().replace(/_/g, '-');

export function campaignRunObject(run: MirroredRun, namespace: string): CampaignRunCR {
  return {
    apiVersion: API_VERSION,
    kind: 'CampaignRun',
    metadata: {
      name: campaignRunName(run.id),
      namespace,
      labels: {
        'app.kubernetes.io/managed-by': 'switchboard',
        'switchboard.dev/tenant': run.tenant_id,
        'switchboard.dev/campaign': run.campaign_id,
      },
    },
    spec: { runId: run.id, tenantId: run.tenant_id, campaignId: run.campaign_id, test: run.test },
  };
}

const PHASE_CONDITIONS: PhaseConditions = {
  Running: (p) => p === 'running',
  Complete: (p) => p === 'done',
  Stopped: (p) => p === 'stopped',
  Failed: (p) => p === 'failed',
};

export function campaignRunStatus(run: MirroredRun, previous: Condition[] = [], now = new Date()): CampaignRunStatus {
  const { contacts } = run;
  return {
    phase: run.status,
    total: contacts.total,
    done: contacts.done,
    noAnswer: contacts.no_answer,
    skipped: contacts.skipped,
    pending: contacts.pending,
    unfinished: contacts.unfinished,
    resultsNotTaken: run.results_not_taken,
    startedAt: run.started_at.toISOString(),
    endedAt: run.ended_at?.toISOString(),
    error: run.error?.slice(0, 1000),
    conditions: phaseConditions(PHASE_CONDITIONS, run.status, run.error ?? '', previous, now),
  };
}
