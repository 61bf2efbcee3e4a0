import { expect } from 'chai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { updateAgent } from '../../pkg/agent/settings.js';
import { removeNumber } from '../../pkg/store/phone-numbers.js';
import { manualClock } from '../support/triggers.js';
import { startHttpsServer } from '../support/https.js';
import { NUMBERS } from '../support/calls.js';
import { eventually } from '../support/eventually.js';
import { campaignOn, campaignSuite, pumpUntil, runOnce, zoneAtHour } from '../support/campaigns.js';

// Sunday 9 March 2025, 06:30 UTC: 01:30 in New York, where the clocks jump from 02:00 to 03:00 at
// 07:00 UTC; 07:30 in Berlin; 12:00 in Kolkata; 20:30 in Kiritimati.
const START = new Date('2025-03-09T06:30:00Z');

const systemText = (request: ChatCompletionCreateParams): string =>
  request.messages.map((m) => (m.role === 'system' && typeof m.content === 'string' ? m.content : '')).join('\n');

describe("Campaign runs: calling hours in each person's timezone, attempts, the agent on the line", function () {
  this.timeout(90_000);
  const suite = campaignSuite(START);
  // Three attempts on one number in a day: above the default contact limit of two.
  before(() => suite.app.runtime.ctx.db('tenants').where({ id: suite.tenantId }).update({ max_calls_per_number_per_day: 5 }));
  // The tests run in order on one clock, which only moves forward: after the first, it is past 13:00 UTC, inside New York's hours.

  const callsOf = async (runId: string): Promise<any[]> =>
    (await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === runId).reverse();
  const resultOf = (runId: string, contactId: string) => suite.system.results.find((r) => r.run.id === runId && r.contact_id === contactId);

  it('dials each person when their own window opens across a DST change, and skips one whose window has closed', async () => {
    const campaign = await campaignOn(suite.client, suite.system, { task: 'DST run', timezone: 'America/New_York' });
    suite.system.lists.push({
      status: 200,
      body: {
        contacts: [
          { contact_id: 'ny', phone: '+12025550130', timezone: 'America/New_York' },
          { contact_id: 'berlin', phone: '+12025550131', timezone: 'Europe/Berlin' },
          { contact_id: 'kolkata', phone: '+12025550132', timezone: 'Asia/Kolkata' },
          { contact_id: 'kiritimati', phone: '+12025550133', timezone: 'Pacific/Kiritimati' },
        ],
      },
    });
    const run = (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    await eventually('the closed window to be reported', () => resultOf(run.id, 'kiritimati'));
    expect(resultOf(run.id, 'kiritimati')).to.deep.include({ status: 'skipped', skipped_reason: 'outside_hours', attempts: 0 });
    await pumpUntil(suite.app, 'Kolkata to be done', async () => resultOf(run.id, 'kolkata'));
    expect((await callsOf(run.id)).map((c) => c.campaign.contact_id)).to.deep.equal(['kolkata']);
    // 09:00 in Berlin is 08:00 UTC; 09:00 in New York, after the jump, is 13:00 UTC (not 14:00).
    for (const [at, who] of [
      ['2025-03-09T08:00:00Z', 'berlin'],
      ['2025-03-09T13:00:00Z', 'ny'],
    ] as const) {
      manualClock(suite.app).set(new Date(new Date(at).getTime() - 1000));
      suite.app.controllers!.wake();
      expect(
        (await callsOf(run.id)).map((c) => c.campaign.contact_id),
        `nobody new before ${at}`,
      ).to.not.include(who);
      manualClock(suite.app).set(new Date(at));
      suite.app.controllers!.wake();
      const call = await eventually(`${who} to be dialled`, async () => (await callsOf(run.id)).find((c) => c.campaign.contact_id === who));
      expect(call.created_at).to.equal(new Date(at).toISOString());
      await pumpUntil(suite.app, `${who} to be done`, async () => resultOf(run.id, who));
    }
    const done = await runOnce(suite.app, suite.client, run.id, 'the run to be done', (r) => r.status === 'done');
    expect(done.contacts).to.deep.equal({ total: 4, done: 3, no_answer: 0, skipped: 1, pending: 0, unfinished: 0 });
    const summary = await pumpUntil(suite.app, 'the summary', async () => suite.system.summaries.find((s) => s.run.id === run.id));
    expect(summary.contacts).to.deep.equal({ total: 4, done: 3, no_answer: 0, skipped: 1 });
  });

  it('tries max_attempts times, retry_after_minutes apart to the minute, then reports no_answer', async () => {
    const campaign = await campaignOn(suite.client, suite.system, {
      task: 'Busy run',
      max_attempts: 3,
      retry_after_minutes: 15,
      timezone: 'America/New_York',
    });
    suite.system.lists.push({ status: 200, body: { contacts: [{ contact_id: 'busy', phone: NUMBERS.busy }] } });
    const run = (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    // Each call rung in small steps until final, then the clock held half a minute past the retry
    // time until the next is dialled: however slow the controllers, the gap is the product's.
    for (let attempt = 1; attempt < 3; attempt++) {
      const call = await pumpUntil(suite.app, `attempt ${attempt} to be final`, async () => {
        const c = (await callsOf(run.id))[attempt - 1];
        return c && (await suite.client.get(`/v1/calls/${c.id}/result`)).body.final === true && c;
      });
      manualClock(suite.app).set(new Date(Date.parse(call.ended_at) + 15.5 * 60_000));
      suite.app.controllers!.wake();
      await eventually(`attempt ${attempt + 1} to be dialled`, async () => (await callsOf(run.id)).length > attempt);
    }
    const result = await pumpUntil(suite.app, "the busy person's result", async () => resultOf(run.id, 'busy'));
    const calls = await callsOf(run.id);
    expect(calls.map((c) => c.campaign.contact_id)).to.deep.equal(['busy', 'busy', 'busy']);
    for (let i = 1; i < calls.length; i++) {
      const gapMin = (Date.parse(calls[i].created_at) - Date.parse(calls[i - 1].ended_at)) / 60_000;
      expect(Math.floor(gapMin), `gap before attempt ${i + 1}`).to.equal(15);
    }
    expect(result).to.deep.include({ status: 'no_answer', attempts: 3, call_id: calls[2].id });
    expect(result).to.not.have.any.keys('outcome', 'skipped_reason', 'opt_out');
  });

  it('leaves a voicemail on the last attempt only: outcome voicemail, status no_answer', async () => {
    const task = 'Voicemail run';
    let machineTurns = 0;
    const campaign = await campaignOn(suite.client, suite.system, {
      task,
      max_attempts: 2,
      retry_after_minutes: 15,
      timezone: 'America/New_York',
    });
    suite.app.script(task, (request) => {
      machineTurns += systemText(request).includes('answering machine') ? 1 : 0;
      return { toolCalls: [{ name: 'leave_voicemail', arguments: { message: 'Please call us back.' } }] };
    });
    suite.system.lists.push({ status: 200, body: { contacts: [{ contact_id: 'machine', phone: NUMBERS.voicemail }] } });
    const run = (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const result = await pumpUntil(suite.app, 'the voicemail result', async () => resultOf(run.id, 'machine'), 20_000);
    expect(result).to.deep.include({ status: 'no_answer', outcome: 'voicemail', attempts: 2 });
    expect(machineTurns).to.equal(1);
  });

  it('greets with {{context.x}} filled, gives the agent the context, and sends end_call details, callback and opt_out', async () => {
    const task = 'Renewal with details';
    const requests: string[] = [];
    suite.app.script(task, (request) => {
      requests.push(systemText(request));
      return {
        toolCalls: [
          {
            name: 'end_call',
            arguments: {
              outcome: 'callback_requested',
              answers: { budget: '500' },
              note: 'Call back',
              details: { plan: 'gold' },
              callback: { at: '2025-03-10T15:00', when: 'tomorrow at three' },
              opt_out: true,
            },
          },
        ],
      };
    });
    const campaign = await campaignOn(suite.client, suite.system, {
      task,
      greeting: 'Hi {{context.name}}, about your {{context.plan}} plan{{context.missing}}.',
    });
    suite.system.lists.push({
      status: 200,
      body: { contacts: [{ contact_id: 7, name: 'Nora', phone: NUMBERS.answer, timezone: 'America/New_York', context: { plan: 'gold' } }] },
    });
    const run = (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const result = await pumpUntil(suite.app, 'her result', async () => resultOf(run.id, '7'));
    expect(result).to.deep.include({ status: 'done', outcome: 'callback_requested', note: 'Call back', opt_out: true, attempts: 1 });
    expect(result.details).to.deep.equal({ plan: 'gold' });
    expect(result.callback).to.deep.equal({ at: '2025-03-10T15:00:00-04:00', when: 'tomorrow at three' });
    expect(result.summary).to.be.a('string');
    expect(result, 'answers to the questions are not part of the result').to.not.have.property('answers');
    const callResult = (await suite.client.get(`/v1/calls/${result.call_id}/result`)).body;
    expect(callResult.transcript[0]).to.deep.equal({ speaker: 'agent', text: 'Hi Nora, about your gold plan.' });
    expect(JSON.parse(/^Facts you may use: (.*)$/m.exec(requests[0]!)![1]!)).to.deep.equal({ plan: 'gold', name: 'Nora' });
    const dnc = await suite.app.runtime.ctx.db('do_not_call').where({ number: NUMBERS.answer }).first();
    expect(dnc, 'the number is on the do-not-call list').to.not.equal(undefined);
  });

  it("adds an entry's name to its context as name, unless the context has one", async () => {
    const task = 'Names in context';
    const facts = new Map<string, unknown>();
    const reply = (request: ChatCompletionCreateParams) => {
      const text = systemText(request);
      facts.set(/you are calling (\+\d+)/.exec(text)![1]!, JSON.parse(/^Facts you may use: (.*)$/m.exec(text)![1]!));
      return { content: 'Goodbye.' };
    };
    // One reply a model request, the two calls' turns in any order.
    suite.app.script(task, ...Array.from({ length: 10 }, () => reply));
    const campaign = await campaignOn(suite.client, suite.system, { task, timezone: 'America/New_York' });
    const [plain, named] = ['+12025550148', '+12025550149'];
    suite.system.lists.push({
      status: 200,
      body: {
        contacts: [
          { contact_id: 'plain', name: 'Nora Jones', phone: plain },
          { contact_id: 'named', name: 'Nora Jones', phone: named, context: { name: 'Nora' } },
        ],
      },
    });
    const run = (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    await runOnce(suite.app, suite.client, run.id, 'the run to be done', (r) => r.status === 'done');
    expect(Object.fromEntries(facts)).to.deep.equal({ [plain]: { name: 'Nora Jones' }, [named]: { name: 'Nora' } });
  });

  it("lets the agent pass the person's context to its tools", async () => {
    const crm = await startHttpsServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"noted":true}'));
    try {
      const company = await suite.app.campaignCompany();
      await updateAgent(suite.app.runtime.ctx, company.agentId, {
        tools: [
          {
            name: 'crm_plan',
            description: 'Look up a plan',
            url: `${crm.url}/plans/{plan}`,
            method: 'GET',
            parameters: [{ name: 'plan', type: 'string', required: true }],
          },
        ],
      });
      const task = 'Context to tools';
      // The agent looks the plan up with what its facts say, then ends the call.
      suite.app.script(
        task,
        (request) => ({
          toolCalls: [
            { name: 'crm_plan', arguments: { plan: JSON.parse(/^Facts you may use: (.*)$/m.exec(systemText(request))![1]!).plan } },
          ],
        }),
        { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed' } }] },
      );
      const campaign = await campaignOn(company.client, company.system, { task, timezone: 'America/New_York' });
      company.system.lists.push({
        status: 200,
        body: { contacts: [{ contact_id: 'p', phone: '+12025550178', context: { plan: 'platinum' } }] },
      });
      const run = (await company.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
      await pumpUntil(suite.app, 'her result', async () => company.system.results.find((r) => r.run.id === run.id));
      expect(crm.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['GET /plans/platinum']);
    } finally {
      await crm.close();
    }
  });

  it('sends call.* events for campaign calls like any call, each carrying its campaign', async () => {
    const receiver = await startHttpsServer((_req, res) => res.writeHead(204).end());
    try {
      const company = await suite.app.campaignCompany();
      expect((await company.client.patch(`/v1/tenants/${company.tenantId}/settings`, { events_url: receiver.url })).status).to.equal(200);
      const campaign = await campaignOn(company.client, company.system, { timezone: 'America/New_York' });
      company.system.lists.push({ status: 200, body: { contacts: [{ contact_id: 'p', phone: '+12025550179' }] } });
      const run = (await company.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
      const events = await pumpUntil(suite.app, 'the call.ended event', async () => {
        const sent = receiver.requests.map((r) => JSON.parse(r.body));
        return sent.some((e) => e.type === 'call.ended') && sent;
      });
      expect(events.map((e: any) => e.type)).to.include.members(['call.initiated', 'call.answered', 'call.ended']);
      for (const e of events) expect(e.data.campaign, e.type).to.deep.equal({ id: campaign.id, run_id: run.id, contact_id: 'p' });
    } finally {
      await receiver.close();
    }
  });

  it("keeps to the campaign's concurrency and the account's simultaneous-call cap: the others wait for a slot, none refused", async () => {
    const company = await suite.app.campaignCompany({ maxConcurrentCalls: 2 });
    const mostOnTheLineAtOnce = async (concurrency: number) => {
      const campaign = await campaignOn(company.client, company.system, { timezone: 'America/New_York', concurrency });
      company.system.lists.push({
        status: 200,
        body: { contacts: [0, 1, 2, 3].map((i) => ({ contact_id: `p${i}`, phone: `+1202555017${i}` })) },
      });
      const run = (await company.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
      const done = await runOnce(suite.app, company.client, run.id, 'the run to be done', (r) => r.status === 'done');
      expect(done.contacts).to.deep.include({ total: 4, done: 4 });
      const calls: any[] = (await company.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === run.id);
      const edges = calls
        .flatMap((c) => [
          { at: Date.parse(c.created_at), d: 1 },
          { at: Date.parse(c.ended_at), d: -1 },
        ])
        .sort((x, y) => x.at - y.at || x.d - y.d);
      let open = 0;
      return Math.max(...edges.map((e) => (open += e.d)));
    };
    expect(await mostOnTheLineAtOnce(5), "the account's cap binds").to.equal(2);
    expect(await mostOnTheLineAtOnce(1), "the campaign's concurrency binds").to.equal(1);
  });

  it("calls from the campaign's from while the account has it, else its default number, and skips the account's own numbers as not_allowed", async () => {
    const [main, second] = ['+12025550190', '+12025550191'];
    const company = await suite.app.campaignCompany({ numbers: [main, second] });
    // Noon where the campaign calls, wherever the earlier tests left the clock: every run dials at once.
    const campaignFrom = (body: Record<string, unknown>) =>
      campaignOn(company.client, company.system, { timezone: zoneAtHour(12, suite.app.clock.now()), ...body });
    /** The number a run of `campaign` calls `phone` from; the account's own second number on the list is skipped. */
    const fromOf = async (campaign: any, phone: string) => {
      company.system.lists.push({
        status: 200,
        body: {
          contacts: [
            { contact_id: 'ann', phone },
            { contact_id: 'own', phone: second },
          ],
        },
      });
      const started = await company.client.post(`/v1/campaigns/${campaign.id}/runs`, {});
      expect(started.status, JSON.stringify(started.body)).to.equal(202);
      const run = started.body;
      // Waiting for the run to end, not only for her result: a campaign has one active run at a time.
      await runOnce(suite.app, company.client, run.id, 'the run to be done', (r) => r.status === 'done');
      const result = company.system.results.find((r) => r.run.id === run.id && r.contact_id === 'ann');
      const own = company.system.results.find((r) => r.run.id === run.id && r.contact_id === 'own');
      const call = (await company.client.get(`/v1/calls/${result.call_id}`)).body;
      expect(call.campaign).to.deep.equal({ id: campaign.id, run_id: run.id, contact_id: 'ann' });
      return { from: call.from, own: own?.skipped_reason };
    };
    expect(await fromOf(await campaignFrom({}), '+12025550143')).to.deep.equal({ from: main, own: 'not_allowed' });
    const fromSecond = await campaignFrom({ from: second });
    expect(await fromOf(fromSecond, '+12025550144')).to.deep.equal({ from: second, own: 'not_allowed' });
    // The operator takes the second number back: no longer the account's caller id, nor its own.
    await removeNumber(suite.app.runtime.ctx, company.tenantId, second);
    expect(await fromOf(fromSecond, '+12025550145')).to.deep.equal({ from: main, own: undefined });
  });
});
