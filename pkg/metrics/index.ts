// Prometheus metrics (prom-client), one registry per process. Names follow Prometheus
// conventions: `switchboard_…_total` counters, base units (seconds), bounded label sets — routes
// by template and tenants by id, never raw paths or conversation ids.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Knex } from 'knex';
import { PENDING } from '../triggers/state.js';
import { RUN_STATUSES } from '../campaigns/state.js';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  apiRequests: Counter<'tenant' | 'key' | 'channel'>;
  apiRequestsOverLimit: Counter<'tenant' | 'key' | 'channel'>;
  rateLimiterFallback: Counter<'scope'>;
  callsPlaced: Counter<'tenant' | 'key' | 'channel'>;
  modelTokens: Counter<'tenant' | 'kind'>;
  modelRetries: Counter<'status'>;
  modelSlotWait: Histogram<'result'>;
  credits: Counter<'tenant'>;
  triggerTransitions: Counter<'event' | 'status'>;
  queueLag: Histogram<'reconciler'>;
  reconcileErrors: Counter<'reconciler'>;
  carrierErrors: Counter<'carrier'>;
  carrierHangups: Counter<'carrier' | 'result'>;
  webhookDeliveries: Counter<'result'>;
  campaignDeliveries: Counter<'result'>;
  campaignContacts: Counter<'status' | 'outcome'>;
  campaignListDuration: Histogram<'result'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchboard_' });
  // prom-client names these gauges `…_total`, which Prometheus reserves for counters.
  for (const name of ['active_handles', 'active_requests', 'active_resources']) {
    registry.removeSingleMetric(`switchboard_nodejs_${name}_total`);
  }
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'switchboard_http_requests_total',
      help: 'HTTP requests answered, by route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'switchboard_http_request_duration_seconds',
      help: 'Time to answer an HTTP request (to the last byte for event streams), by route template.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers,
    }),
    apiRequests: new Counter({
      name: 'switchboard_api_requests_total',
      help: 'Authenticated API requests, including those refused by a rate limit (usage metering), by tenant, API key and channel.',
      labelNames: ['tenant', 'key', 'channel'],
      registers,
    }),
    apiRequestsOverLimit: new Counter({
      name: 'switchboard_api_requests_over_limit_total',
      help: 'API requests refused by a rate limit, by tenant, API key and channel.',
      labelNames: ['tenant', 'key', 'channel'],
      registers,
    }),
    rateLimiterFallback: new Counter({
      name: 'switchboard_rate_limiter_fallback_total',
      help: 'Rate-limit checks answered by the per-replica in-memory limiter because Redis was unavailable, by scope.',
      labelNames: ['scope'],
      registers,
    }),
    callsPlaced: new Counter({
      name: 'switchboard_calls_placed_total',
      help: 'Calls placed through the Voice API and MCP (usage metering), by tenant, API key and channel.',
      labelNames: ['tenant', 'key', 'channel'],
      registers,
    }),
    modelTokens: new Counter({
      name: 'switchboard_model_tokens_total',
      help: 'Model tokens used by agent turns, by tenant and kind (prompt, completion).',
      labelNames: ['tenant', 'kind'],
      registers,
    }),
    modelRetries: new Counter({
      name: 'switchboard_model_retries_total',
      help: 'Model requests retried after a 429 or 5xx answer, by the status answered.',
      labelNames: ['status'],
      registers,
    }),
    modelSlotWait: new Histogram({
      name: 'switchboard_model_slot_wait_seconds',
      help: 'Time a turn or model call waited for a slot of SWITCHBOARD_MODEL_CONCURRENCY, by result (acquired, timed_out, aborted).',
      labelNames: ['result'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    credits: new Counter({
      name: 'switchboard_credits_consumed_total',
      help: 'AI credits consumed by agent turns, by tenant.',
      labelNames: ['tenant'],
      registers,
    }),
    triggerTransitions: new Counter({
      name: 'switchboard_trigger_transitions_total',
      help: 'Job (trigger) state transitions, by event and the status entered.',
      labelNames: ['event', 'status'],
      registers,
    }),
    queueLag: new Histogram({
      name: 'switchboard_queue_lag_seconds',
      help: 'Time from when work became due to when a controller claimed it.',
      labelNames: ['reconciler'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    reconcileErrors: new Counter({
      name: 'switchboard_reconcile_errors_total',
      help: 'Controller reconcile and tick failures, by reconciler.',
      labelNames: ['reconciler'],
      registers,
    }),
    carrierErrors: new Counter({
      name: 'switchboard_carrier_errors_total',
      help: 'Errors a carrier reported on a relay socket, by carrier.',
      labelNames: ['carrier'],
      registers,
    }),
    carrierHangups: new Counter({
      name: 'switchboard_carrier_hangups_total',
      help: 'Calls Switchboard ended that it asked the carrier to hang up, by carrier and result (ok, failed).',
      labelNames: ['carrier', 'result'],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'switchboard_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by result.',
      labelNames: ['result'],
      registers,
    }),
    campaignDeliveries: new Counter({
      name: 'switchboard_campaign_results_total',
      help: 'Campaign results and run summaries taken by the customer system (delivered) or given up after the retry hour.',
      labelNames: ['result'],
      registers,
    }),
    campaignContacts: new Counter({
      name: 'switchboard_campaign_contacts_total',
      help: 'People of campaign runs finished, by status (done, no_answer, skipped, unfinished) and outcome.',
      labelNames: ['status', 'outcome'],
      registers,
    }),
    campaignListDuration: new Histogram({
      name: 'switchboard_campaign_list_request_duration_seconds',
      help: 'Time the customer system took to answer a campaign list request, by result (ok, failed).',
      labelNames: ['result'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
      registers,
    }),
  };
}

/** Campaign runs by status, read from Postgres at scrape time. */
export function registerCampaignRunGauge(metrics: Metrics, db: Knex): void {
  new Gauge({
    name: 'switchboard_campaign_runs',
    help: 'Campaign runs in each status.',
    labelNames: ['status'],
    registers: [metrics.registry],
    async collect() {
      const rows: { status: string; n: string }[] = await db('campaign_runs').groupBy('status').select('status', db.raw('count(*) as n'));
      this.reset();
      for (const status of RUN_STATUSES) this.set({ status }, 0);
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
}

/** Current jobs by status, read from Postgres at scrape time (the source of truth, any replica). */
export function registerJobGauge(metrics: Metrics, db: Knex): void {
  new Gauge({
    name: 'switchboard_triggers',
    help: 'Jobs (triggers) currently in each live status.',
    labelNames: ['status'],
    registers: [metrics.registry],
    async collect() {
      const rows: { status: string; n: string }[] = await db('triggers')
        .whereIn('status', PENDING)
        .groupBy('status')
        .select('status', db.raw('count(*) as n'));
      this.reset();
      for (const status of PENDING) this.set({ status }, 0);
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
}
