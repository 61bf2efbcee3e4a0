// Campaign test helpers: a customer's system as a real HTTPS server on loopback — it serves the
// list and records the results and summaries it receives, checking the signatures (written from the
// spec, as a receiver would) and the connection's sign-in header — and a company with campaigns.
import type { ServerResponse } from 'node:http';
import { updateTenant, type TenantSettings } from '../../pkg/tenants/settings.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import type { Client } from './app.js';
import { startCallsApp, type CallsApp } from './calls.js';
import { startHttpsServer, type HttpsServerOptions, type RecordedRequest } from './https.js';
import { signatureProblem } from './webhooks.js';
import { eventually } from './eventually.js';

export const SIGN_IN = { name: 'X-Customer-Token', value: 'ct_very-secret-token-123' };

/** How the list path answers a request: a reply (once `until` settles, if set), a connection dropped, or no answer at all. */
export type ListAnswer = { status: number; body: string | object; until?: Promise<unknown> } | 'reset' | 'silent';

export interface CustomerSystem {
  /** The connection's base_url. */
  url: string;
  /** The next answers of the list path, one per request (then `{contacts: []}`). */
  lists: ListAnswer[];
  listRequests: RecordedRequest[];
  /** Campaign results whose checks passed, in arrival order (every try, repeats included). */
  results: any[];
  summaries: any[];
  /** Requests to the results path whose checks passed. */
  resultRequests: RecordedRequest[];
  /** Why requests were answered 401. */
  rejected: string[];
  /** Statuses answered to the next accepted results, one each (then 200). */
  answers: number[];
  /** While true, the results path drops every connection without answering. */
  unreachable: boolean;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: string | object) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));

/** `nowMs`: the receiver's clock (the tests' manual clock is the world's time). */
export async function startCustomerSystem(
  secret: string,
  nowMs: () => number = Date.now,
  listen: HttpsServerOptions = {},
): Promise<CustomerSystem> {
  const system = {
    lists: [],
    listRequests: [],
    results: [],
    summaries: [],
    resultRequests: [],
    rejected: [],
    answers: [],
    unreachable: false,
  } as unknown as CustomerSystem;
  const server = await startHttpsServer((req, res) => {
    const request = server.requests.at(-1)!;
    const problem =
      signatureProblem(secret, req.headers, request.body, nowMs()) ??
      (req.headers[SIGN_IN.name.toLowerCase()] === SIGN_IN.value ? null : 'sign-in header missing or wrong');
    if (problem) {
      system.rejected.push(problem);
      return void res.writeHead(401).end();
    }
    if (req.url === '/campaign/list') {
      system.listRequests.push(request);
      const answer: ListAnswer = system.lists.shift() ?? { status: 200, body: { contacts: [] } };
      if (answer === 'silent') return;
      if (answer === 'reset') return void req.socket.destroy();
      return void (answer.until ?? Promise.resolve()).then(() => send(res, answer.status, answer.body));
    }
    if (system.unreachable) return void req.socket.destroy();
    const body = JSON.parse(request.body);
    system.resultRequests.push(request);
    (body.event === 'campaign.run.finished' ? system.summaries : system.results).push(body);
    send(res, system.answers.shift() ?? 200, { ok: true });
  }, listen);
  return Object.assign(system, { url: server.url, close: server.close });
}

export interface CampaignsApp extends CallsApp {
  /** A company with the campaign features, owning `numbers` (the first its default), its client, and its customer system. */
  campaignCompany(
    settings?: TenantSettings & { numbers?: string[] },
  ): Promise<{ tenantId: string; agentId: string; client: Client; system: CustomerSystem; apiKey: string }>;
}

export async function startCampaignsApp(opts: Parameters<typeof startCallsApp>[0] = {}): Promise<CampaignsApp> {
  const app = await startCallsApp(opts);
  const systems: CustomerSystem[] = [];
  return {
    ...app,
    async campaignCompany({ numbers, ...settings } = {}) {
      const company = await app.company({ numbers });
      await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api', 'campaigns', 'ai_agents'], ...settings });
      const system = await startCustomerSystem(await webhookSecret(app.runtime.ctx, company.tenantId), () => app.clock.now().getTime());
      systems.push(system);
      return { tenantId: company.tenantId, agentId: company.agentId, client: company.client, system, apiKey: company.apiKey };
    },
    async close() {
      for (const system of systems) await system.close();
      await app.close();
    },
  };
}

/** A zone where the hour is `hour` at `now` (a whole-hour offset, UTC-11 to UTC+12). */
export function zoneAtHour(hour: number, now: Date): string {
  const ahead = (hour - now.getUTCHours() + 24) % 24;
  const offset = ahead > 12 ? ahead - 24 : ahead;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** A zone where it is about noon now: for controllers on the real clock, inside calling hours there all afternoon. */
export const noonZone = (): string => zoneAtHour(12, new Date());

/** A connection to `system` and a campaign using it (the body's fields win). */
export async function campaignOn(client: Client, system: CustomerSystem, body: Record<string, unknown> = {}): Promise<any> {
  const connection = await client.post('/v1/connections', { name: 'CRM', base_url: system.url, sign_in_header: SIGN_IN });
  if (connection.status !== 201) throw new Error(`connection refused: ${JSON.stringify(connection.body)}`);
  const campaign = await client.post('/v1/campaigns', {
    name: 'Renewals',
    connection_id: connection.body.id,
    task: 'Renewal call',
    ...body,
  });
  if (campaign.status !== 201) throw new Error(`campaign refused: ${JSON.stringify(campaign.body)}`);
  return campaign.body;
}

/**
 * Moves the app's manual clock on in small steps, so simulated lines ring and talk, until `probe`
 * holds; returns what it returned.
 */
export function pumpUntil<T>(app: CampaignsApp, what: string, probe: () => Promise<T | undefined | false>, stepMs = 200): Promise<T> {
  return eventually(
    what,
    async () => {
      app.advance(stepMs);
      return probe();
    },
    // A run across hours of the clock takes a hundred steps, each a request: slow on a busy machine (the callers allow 90 s).
    { withinMs: 80_000 },
  );
}

/** The run once `probe` holds of it. */
export const runOnce = (app: CampaignsApp, client: Client, runId: string, what: string, probe: (run: any) => boolean) =>
  pumpUntil(app, what, async () => {
    const run = (await client.get(`/v1/campaign-runs/${runId}`)).body;
    return probe(run) && run;
  });

export interface CampaignSuite {
  app: CampaignsApp;
  client: Client;
  system: CustomerSystem;
  tenantId: string;
}

/** The calling describe block's app (controllers on, a manual clock from `startAt`) and one company; closed after its tests. */
export function campaignSuite(startAt: Date): CampaignSuite {
  const suite = {} as CampaignSuite;
  before(async () => {
    suite.app = await startCampaignsApp({ controllers: true, manualClock: true, startAt });
    Object.assign(suite, await suite.app.campaignCompany());
  });
  after(() => suite.app?.close());
  return suite;
}
