import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../../pkg/db/embedded.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/app.js';
import { campaignOn, campaignSuite, pumpUntil, type ListAnswer } from '../support/campaigns.js';
import { eventually } from '../support/eventually.js';
import { startProcess } from '../support/processes.js';

const scrape = async (app: TestApp): Promise<string> => (await fetch(`${app.metricsUrl}/metrics`)).text();

function promtoolCheck(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile('promtool', ['check', 'metrics'], { timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
    child.stdin!.end(text);
  });
}

describe('Prometheus metrics', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ controllers: true });
  });
  after(async () => app.close());

  it('serves /metrics that promtool accepts, with route templates and never raw ids', async () => {
    const { client, agentId, tenantId, keyId } = await app.company();
    const created = await client.post('/api/v1/conversations', { agentId });
    const id = created.body.conversationId;
    await client.post(`/api/v1/conversations/${id}/messages`, { message: 'hello' });
    await client.get(`/api/v1/conversations/${id}`);
    const text = await scrape(app);
    const check = await promtoolCheck(text);
    expect(check.code, check.output).to.equal(0);
    expect(text).to.include('route="/api/v1/conversations/:conversationId/messages"');
    expect(text).not.to.include(id);
    expect(text).to.match(new RegExp(`switchboard_api_requests_total\\{tenant="${tenantId}",key="${keyId}",channel="api"\\} 3`));
    expect(text).to.match(new RegExp(`switchboard_model_tokens_total\\{tenant="${tenantId}",kind="prompt"\\} [1-9]`));
    expect(text).to.match(new RegExp(`switchboard_credits_consumed_total\\{tenant="${tenantId}"\\} `));
    expect(text).to.include('switchboard_process_cpu_seconds_total');
  });

  it('serves /metrics on the metrics port only, never on the port the API answers on', async () => {
    const api = await startProcess('api', {});
    try {
      const { address, metrics } = await api.waitForLog('listening');
      expect(metrics.port).to.not.equal(address.port);
      const main = await fetch(`http://127.0.0.1:${address.port}/metrics`);
      expect(main.status).to.equal(404);
      expect(await main.text()).not.to.include('switchboard_');
      const scraped = await fetch(`${api.metricsUrl}/metrics`);
      expect(scraped.status).to.equal(200);
      expect(await scraped.text()).to.include('switchboard_process_cpu_seconds_total');
      expect((await fetch(`${api.metricsUrl}/api/v1/conversations`)).status).to.equal(404);
    } finally {
      await api.kill();
    }
  });

  it('meters calls placed by tenant, key and channel', async () => {
    const { client, tenantId, keyId } = await app.company();
    const placed = await client.post('/v1/calls', { to: '+12025550102' });
    expect(placed.status).to.equal(201);
    const text = await scrape(app);
    expect(text).to.match(new RegExp(`switchboard_calls_placed_total\\{tenant="${tenantId}",key="${keyId}",channel="api"\\} 1`));
  });

  it('counts trigger transitions, queue lag and current jobs by status', async () => {
    const { client, agentId } = await app.company();
    const created = await client.post('/api/v1/triggers', { agentId, task: 'count me' });
    for (let i = 0; i < 10; i++) {
      const job = await client.get(`/api/v1/triggers/${created.body.triggerId}?wait=5`);
      if (job.body.status === 'succeeded') break;
    }
    // The controller counts the run's end once its closing round trip answers, which can be just
    // after the long poll heard of the commit.
    const completed = /switchboard_trigger_transitions_total\{event="complete",status="succeeded"\} [1-9]/;
    const text = await eventually("the run's end counted", async () => {
      const scraped = await scrape(app);
      return completed.test(scraped) && scraped;
    });
    expect(text).to.match(/switchboard_trigger_transitions_total\{event="create",status="queued"\} [1-9]/);
    expect(text).to.match(/switchboard_trigger_transitions_total\{event="claim",status="running"\} [1-9]/);
    expect(text).to.match(completed);
    expect(text).to.match(/switchboard_queue_lag_seconds_count\{reconciler="triggers"\} [1-9]/);
    expect(text).to.match(/switchboard_triggers\{status="running"\} 0/);
  });

  it('lets a real Prometheus scrape it and answer a per-tenant request count by PromQL', async () => {
    const { client, agentId, tenantId } = await app.company();
    for (let i = 0; i < 4; i++) await client.post('/api/v1/conversations', { agentId });
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-prom-'));
    const port = await freePort();
    const target = new URL(app.metricsUrl).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: switchboard\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    const prometheus: ChildProcess = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    try {
      const query = encodeURIComponent(`sum(switchboard_api_requests_total{tenant="${tenantId}"})`);
      await eventually(
        'Prometheus to count the 4 requests',
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`).catch(() => null);
          const body = res?.ok ? ((await res.json()) as { data: { result: { value: [number, string] }[] } }) : null;
          return body?.data.result[0]?.value[1] === '4';
        },
        { withinMs: 30_000, everyMs: 500 },
      );
    } finally {
      prometheus.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Prometheus metrics of campaigns', function () {
  this.timeout(90_000);
  // Tuesday 10 June 2025, 15:00 UTC: 11:00 in New York, inside the default calling hours.
  const suite = campaignSuite(new Date('2025-06-10T15:00:00Z'));

  it('counts runs by status, results delivered and given up, people by status and outcome, and times the list requests', async () => {
    const { app, client, system } = suite;
    const start = async (list: ListAnswer) => {
      const campaign = await campaignOn(client, system, { timezone: 'America/New_York' });
      system.lists.push(list);
      return (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body.id as string;
    };
    const summaryOf = (runId: string) =>
      pumpUntil(app, `the summary of ${runId}`, async () => system.summaries.find((s) => s.run.id === runId));
    const badNumber = { status: 200, body: { contacts: [{ contact_id: 'bad', phone: 'not a phone' }] } };

    // A list refused: the run fails, its summary (total 0) is taken.
    await summaryOf(await start({ status: 500, body: { error: 'down' } }));
    // One person skipped: the result and the summary are taken.
    await summaryOf(await start(badNumber));
    // One person skipped whose result is never taken: given up after the hour, then the summary is taken.
    system.unreachable = true;
    const unreachable = await start(badNumber);
    await pumpUntil(
      app,
      'the result to be given up',
      async () => (await client.get(`/v1/campaign-runs/${unreachable}`)).body.results_not_taken === 1,
      60_000,
    );
    system.unreachable = false;
    await summaryOf(unreachable);

    // The customer has the last summary a moment before its answer is recorded and counted.
    const text = await eventually('the last summary counted', async () => {
      const scraped = await scrape(app);
      return scraped.includes('switchboard_campaign_results_total{result="delivered"} 4') && scraped;
    });
    const check = await promtoolCheck(text);
    expect(check.code, check.output).to.equal(0);
    expect(text).to.include('switchboard_campaign_runs{status="done"} 2');
    expect(text).to.include('switchboard_campaign_runs{status="failed"} 1');
    expect(text).to.include('switchboard_campaign_runs{status="running"} 0');
    expect(text).to.include('switchboard_campaign_results_total{result="delivered"} 4');
    expect(text).to.include('switchboard_campaign_results_total{result="given_up"} 1');
    expect(text).to.include('switchboard_campaign_contacts_total{status="skipped",outcome="invalid_phone"} 2');
    expect(text).to.include('switchboard_campaign_list_request_duration_seconds_count{result="ok"} 2');
    expect(text).to.include('switchboard_campaign_list_request_duration_seconds_count{result="failed"} 1');
  });
});
