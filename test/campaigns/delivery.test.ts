import { expect } from 'chai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { deliveryPolicy } from '../../pkg/webhooks/policy.js';
import { NUMBERS } from '../support/calls.js';
import { eventually } from '../support/eventually.js';
import { campaignOn, campaignSuite, pumpUntil, SIGN_IN, zoneAtHour } from '../support/campaigns.js';

// Monday 10 March 2025, 15:00 UTC: 11:00 in New York, the campaigns' timezone.
const START = new Date('2025-03-10T15:00:00Z');
const MINUTE = 60_000;

describe('Campaign runs: results and summaries delivered, stops, test runs, scheduled starts', function () {
  this.timeout(90_000);
  const suite = campaignSuite(START);

  const start = async (contacts: object[], body: Record<string, unknown> = {}, campaignFields: Record<string, unknown> = {}) => {
    const campaign = await campaignOn(suite.client, suite.system, { timezone: 'America/New_York', ...campaignFields });
    suite.system.lists.push({ status: 200, body: { contacts } });
    return { campaign, run: (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, body)).body };
  };
  const resultsOf = (runId: string) => suite.system.results.filter((r) => r.run.id === runId);
  const summaryOf = (runId: string) => suite.system.summaries.find((s) => s.run.id === runId);
  const requestsOf = (runId: string) => suite.system.resultRequests.filter((r) => JSON.parse(r.body).run.id === runId);
  const resultRow = (runId: string) => suite.app.runtime.ctx.db('webhook_outbox').where({ run_id: runId, type: 'campaign.result' }).first();
  /** Waits until the result's try `n` is recorded, then moves the clock to the next try. */
  const afterTry = async (runId: string, n: number, thenMinutes: number) => {
    const row = await eventually(`try ${n} to be recorded`, async () => {
      const r = await resultRow(runId);
      return r?.attempts === n && r.lease_owner === null && r;
    });
    if (row.status === 'pending')
      expect(row.due_at.getTime() - suite.app.clock.now().getTime(), `the wait after try ${n}`).to.equal(thenMinutes * MINUTE);
    suite.app.advance(thenMinutes * MINUTE);
    return row;
  };

  it('resends a result not taken after 1, 2 and 4 minutes with the same webhook-id, and sends the summary only once it is taken', async () => {
    suite.system.answers.push(500, 500, 500);
    const { run } = await start([{ contact_id: 'x', phone: 'not a number' }]);
    for (const [n, wait] of [
      [1, 1],
      [2, 2],
      [3, 4],
    ] as const) {
      await afterTry(run.id, n, wait);
      expect(summaryOf(run.id), 'no summary while the result is not taken').to.equal(undefined);
    }
    await eventually('the fourth try', () => requestsOf(run.id).length >= 4);
    // The summary (webhook-id: the run's id) may follow the fourth try at once: the result's tries are the rest.
    const ids = new Set(
      requestsOf(run.id)
        .map((r) => r.headers['webhook-id'])
        .filter((id) => id !== run.id),
    );
    expect(ids.size).to.equal(1);
    const summary = await eventually('the summary', () => summaryOf(run.id));
    expect(summary).to.deep.include({ results_not_taken: 0 });
    expect(summary.run.status).to.equal('done');
    expect(requestsOf(run.id).at(-1)!.headers['webhook-id']).to.equal(run.id);
  });

  it('gives a result up after the hour when the endpoint never answers, and counts it in results_not_taken', async () => {
    const { tries } = deliveryPolicy(suite.app.runtime.ctx.config, 'campaign.result');
    suite.system.unreachable = true;
    const { run } = await start([{ contact_id: 'y', phone: 'not a number' }]);
    const waits = [1, 2, 4, 8, 15, 15, 15];
    for (let n = 1; n < tries; n++) await afterTry(run.id, n, waits[n - 1]!);
    const given = await eventually('the result to be given up', async () => {
      const row = await resultRow(run.id);
      return row.status === 'failed' && row;
    });
    expect(given.attempts).to.equal(tries);
    expect(suite.app.clock.now().getTime() - given.created_at.getTime()).to.equal(60 * MINUTE);
    suite.system.unreachable = false;
    // The clock moves on: a step whose lease ran out while the clock jumped is looked at again only then.
    const summary = await pumpUntil(suite.app, 'the summary', async () => summaryOf(run.id));
    expect(summary.results_not_taken).to.equal(1);
    expect((await suite.client.get(`/v1/campaign-runs/${run.id}`)).body.results_not_taken).to.equal(1);
    expect(suite.app.logs.join(''), 'the sign-in header logged').to.not.include(SIGN_IN.value);
  });

  it('stops with a call in flight: no new dials, the call finishes with its result, the rest unfinished, the summary at its end', async () => {
    const { run } = await start(
      [
        { contact_id: 'on-the-line', phone: NUMBERS.stays },
        { contact_id: 'next', phone: '+12025550140' },
      ],
      {},
      { concurrency: 1 },
    );
    await pumpUntil(
      suite.app,
      'the first call to be on the line',
      async () => {
        const calls = (await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === run.id);
        return calls.some((c: any) => c.status === 'in-progress');
      },
      10,
    );
    const stopped = (await suite.client.post(`/v1/campaign-runs/${run.id}/stop`, {})).body;
    expect(stopped.status).to.equal('stopped');
    expect(stopped.contacts).to.deep.include({ pending: 1, unfinished: 1 });
    expect(summaryOf(run.id), 'no summary while a call is on the line').to.equal(undefined);
    const summary = await pumpUntil(suite.app, 'the summary', async () => summaryOf(run.id), 5_000);
    expect(resultsOf(run.id).map((r) => r.contact_id)).to.deep.equal(['on-the-line']);
    expect(summary.run.status).to.equal('stopped');
    expect(summary.contacts).to.deep.equal({ total: 2, done: 1, no_answer: 0, skipped: 0, unfinished: 1 });
    const calls = (await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === run.id);
    expect(calls.map((c: any) => c.campaign.contact_id)).to.deep.equal(['on-the-line']);
  });

  it("sends a stopped run's summary two hours after the stop when a call is never finalized, and no result for it after", async () => {
    const { run } = await start([{ contact_id: 'stuck', phone: NUMBERS.longRing }], {}, { concurrency: 1 });
    const call = await pumpUntil(
      suite.app,
      'the call to ring',
      async () =>
        (await suite.client.get('/v1/calls?limit=100')).body.data.find((c: any) => c.campaign?.run_id === run.id && c.status === 'ringing'),
      10,
    );
    // Its controller hangs on to it, alive but silent, for three hours.
    const db = suite.app.runtime.ctx.db;
    const stuckUntil = new Date(suite.app.clock.now().getTime() + 180 * MINUTE);
    await db('calls')
      .where({ id: call.id })
      .update({ lease_owner: 'a-controller-that-hangs', lease_until: stuckUntil, due_at: stuckUntil });
    const stopped = (await suite.client.post(`/v1/campaign-runs/${run.id}/stop`, {})).body;
    const stoppedAt = suite.app.clock.now().getTime();
    const summary = await pumpUntil(suite.app, 'the summary', async () => summaryOf(run.id), 5 * MINUTE);
    expect(stopped.contacts).to.deep.include({ pending: 1 });
    const ended = (await suite.client.get(`/v1/campaign-runs/${run.id}`)).body;
    expect(new Date(ended.ended_at).getTime() - stoppedAt).to.be.within(120 * MINUTE, 125 * MINUTE);
    expect(summary.run.status).to.equal('stopped');
    expect(summary.contacts).to.deep.equal({ total: 1, done: 0, no_answer: 0, skipped: 0, unfinished: 1 });
    // The call ends at last (its controller's lease runs out): the person stays unfinished, with no result.
    await pumpUntil(
      suite.app,
      'the call to end',
      async () => (await suite.client.get(`/v1/calls/${call.id}`)).body.status === 'failed',
      5 * MINUTE,
    );
    await pumpUntil(
      suite.app,
      'the person settled',
      async () => (await suite.client.get(`/v1/campaign-runs/${run.id}`)).body.contacts.unfinished === 1,
    );
    expect(resultsOf(run.id)).to.deep.equal([]);
  });

  it("a test run calls only the typed number, once, with the first contact's id and context; run.test is true everywhere", async () => {
    const task = 'Test run task';
    let facts = '';
    suite.app.script(task, (request) => {
      facts = request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
      return { content: 'Goodbye.' };
    });
    const { run } = await start(
      [
        { contact_id: 'first', name: 'Fiona', phone: '+12025550141', context: { plan: 'silver' } },
        { contact_id: 'second', phone: '+12025550142' },
      ],
      { test: true, test_number: NUMBERS.answer },
      { task },
    );
    const summary = await pumpUntil(suite.app, "the test run's summary", async () => summaryOf(run.id));
    expect(summary.run).to.deep.include({ test: true, status: 'done' });
    expect(summary.contacts).to.deep.equal({ total: 1, done: 1, no_answer: 0, skipped: 0 });
    const [result] = resultsOf(run.id);
    expect(result).to.deep.include({ contact_id: 'first', status: 'done', attempts: 1 });
    expect(result.run).to.deep.equal({ id: run.id, test: true });
    expect(JSON.parse(suite.system.listRequests.at(-1)!.body).run).to.deep.equal({ id: run.id, test: true });
    const calls = (await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === run.id);
    expect(calls.map((c: any) => c.to)).to.deep.equal([NUMBERS.answer]);
    expect(facts).to.include('"plan":"silver"').and.include('"name":"Fiona"');
  });

  it('calls a person whose name is over 100 characters with it cut to 100, or whose timezone is not known in the campaign\'s; only a context that is not an object is invalid_context (DECISIONS.md "Campaign list entry refused fields")', async () => {
    const task = 'Lenient list task';
    const prompts: string[] = [];
    const capture = (request: ChatCompletionCreateParams) => {
      prompts.push(request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n'));
      return { content: 'Goodbye.' };
    };
    // Each turn of the three calls takes one.
    suite.app.script(task, ...Array<typeof capture>(30).fill(capture));
    // 100 characters, the last one outside the BMP (two UTF-16 units), then more.
    const cut = `${'Ñ'.repeat(99)}😀`;
    const { run } = await start(
      [
        { contact_id: 'long-name', name: `${cut}and more`, phone: '+12025550170', context: { plan: 'gold' } },
        // 11:00 in New York, the campaign's zone: called now. At night in their own zone, had it been read.
        { contact_id: 'mars', phone: '+12025550171', timezone: 'Mars/Olympus', context: { plan: 'red' } },
        { contact_id: 'odd-name', name: 42, phone: '+12025550172', context: { plan: 'blue' } },
        { contact_id: 'list-context', phone: '+12025550173', context: ['plan', 'green'] },
        { contact_id: 'text-context', phone: '+12025550174', context: 'plan green' },
      ],
      {},
      { task },
    );
    const summary = await pumpUntil(suite.app, 'the summary', async () => summaryOf(run.id));
    expect(summary.contacts).to.deep.equal({ total: 5, done: 3, no_answer: 0, skipped: 2 });
    const byContact = Object.fromEntries(resultsOf(run.id).map((r) => [r.contact_id, r.skipped_reason ?? r.status]));
    expect(byContact).to.deep.equal({
      'long-name': 'done',
      mars: 'done',
      'odd-name': 'done',
      'list-context': 'invalid_context',
      'text-context': 'invalid_context',
    });
    const factsOf = (plan: string) => prompts.find((p) => p.includes(`"plan":"${plan}"`))!;
    expect(factsOf('gold')).to.include(`Facts you may use: ${JSON.stringify({ name: cut, plan: 'gold' })}`);
    expect(factsOf('red'), 'the person on Mars called').to.be.a('string');
    expect(factsOf('blue')).to.include(`Facts you may use: ${JSON.stringify({ plan: 'blue' })}`);
  });

  it('a test run keeps to the do-not-call list but not to calling hours or contact limits, and calls with an empty context when the list is empty', async () => {
    const callsOf = async (runId: string) =>
      (await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === runId);
    // 03:00 in the campaign's timezone, and the number called twice today already: the contact limit.
    const night = { timezone: zoneAtHour(3, suite.app.clock.now()) };
    const limited = '+12025550144';
    for (let i = 0; i < 2; i++) expect((await suite.client.post('/v1/calls', { to: limited })).status).to.equal(201);
    const { run } = await start([{ contact_id: 'first', phone: '+12025550145' }], { test: true, test_number: limited }, night);
    const result = await pumpUntil(suite.app, "the test call's result", async () => resultsOf(run.id)[0]);
    expect(result).to.deep.include({ contact_id: 'first', status: 'done', attempts: 1 });
    expect((await callsOf(run.id)).map((c: any) => c.to)).to.deep.equal([limited]);

    const refused = '+12025550146';
    await suite.app.runtime.ctx.db('do_not_call').insert({ tenant_id: suite.tenantId, number: refused, created_at: suite.app.clock.now() });
    const { run: dnc } = await start([{ contact_id: 'first', phone: '+12025550145' }], { test: true, test_number: refused });
    const summary = await pumpUntil(suite.app, "the do-not-call test run's summary", async () => summaryOf(dnc.id));
    expect(resultsOf(dnc.id)).to.deep.equal([
      {
        event: 'campaign.result',
        campaign: summary.campaign,
        run: { id: dnc.id, test: true },
        contact_id: 'first',
        call_id: '',
        attempts: 0,
        status: 'skipped',
        skipped_reason: 'do_not_call',
      },
    ]);
    expect(summary.contacts).to.deep.equal({ total: 1, done: 0, no_answer: 0, skipped: 1 });
    expect(await callsOf(dnc.id)).to.deep.equal([]);

    const task = 'Empty list test run';
    let prompt = '';
    suite.app.script(task, (request) => {
      prompt = request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
      return { content: 'Goodbye.' };
    });
    const { run: empty } = await start([], { test: true, test_number: '+12025550147' }, { task });
    const emptySummary = await pumpUntil(suite.app, "the empty test run's summary", async () => summaryOf(empty.id));
    expect(emptySummary.contacts).to.deep.equal({ total: 1, done: 1, no_answer: 0, skipped: 0 });
    expect(resultsOf(empty.id).map((r) => r.contact_id)).to.deep.equal(['test']);
    expect(prompt).to.include(task).and.not.include('Facts you may use');
  });

  it("pages GET /v1/campaign-runs/{id}/results as the results were sent; a bad cursor or limit is 422, another account's run 404", async () => {
    const { run } = await start(['a', 'b', 'c'].map((id) => ({ contact_id: id, phone: 'not a number' })));
    await pumpUntil(suite.app, 'the summary', async () => summaryOf(run.id));
    const sent = (contactId: string) => resultsOf(run.id).find((r) => r.contact_id === contactId);
    const first = await suite.client.get(`/v1/campaign-runs/${run.id}/results?limit=2`);
    expect(first.status).to.equal(200);
    expect(first.body.data).to.deep.equal([sent('a'), sent('b')]);
    const rest = await suite.client.get(`/v1/campaign-runs/${run.id}/results?limit=2&cursor=${first.body.next_cursor}`);
    expect(rest.body).to.deep.equal({ data: [sent('c')], next_cursor: null });
    for (const [query, code] of [
      ['cursor=abc', 'invalid_cursor'],
      ['limit=0', 'invalid_limit'],
      ['limit=101', 'invalid_limit'],
    ]) {
      const refused = await suite.client.get(`/v1/campaign-runs/${run.id}/results?${query}`);
      expect([refused.status, refused.body.error?.code], query).to.deep.equal([422, code]);
    }
    const other = await suite.app.campaignCompany();
    expect((await other.client.get(`/v1/campaign-runs/${run.id}/results`)).status).to.equal(404);
  });

  it("starts scheduled runs at start_time in the schedule's timezone on its days, DST-safe, once each", async () => {
    const campaign = await campaignOn(suite.client, suite.system, {
      schedule: { days: ['sun'], start_time: '02:30', timezone: 'Europe/Berlin' },
    });
    // 02:30 in Berlin is 01:30 UTC in winter; on 30 March the clocks jump from 02:00 to 03:00, and 02:30 runs at 03:00 (01:00 UTC).
    for (const [at, next] of [
      ['2025-03-16T01:30:00.000Z', '2025-03-23T01:30:00.000Z'],
      ['2025-03-23T01:30:00.000Z', '2025-03-30T01:00:00.000Z'],
    ]) {
      expect((await suite.client.get(`/v1/campaigns/${campaign.id}`)).body.next_start_at).to.equal(at);
      suite.app.advance(Date.parse(at!) - suite.app.clock.now().getTime());
      const runs = await eventually(`the run of ${at}`, async () => {
        const listed = (await suite.client.get(`/v1/campaigns/${campaign.id}/runs`)).body.data;
        return listed.some((r: any) => r.started_at === at) && listed;
      });
      expect(runs.filter((r: any) => r.started_at === at)).to.have.length(1);
      await eventually(
        `the next start ${next}`,
        async () => (await suite.client.get(`/v1/campaigns/${campaign.id}`)).body.next_start_at === next,
      );
      await eventually(
        'the run to be done',
        async () => (await suite.client.get(`/v1/campaign-runs/${runs[0].id}`)).body.status === 'done',
      );
    }
  });

  it('starts a scheduled run once on the day its start time occurs twice, as the clocks go back', async () => {
    suite.app.advance(Date.parse('2025-10-25T12:00:00Z') - suite.app.clock.now().getTime());
    const campaign = await campaignOn(suite.client, suite.system, {
      schedule: { days: ['sun'], start_time: '02:30', timezone: 'Europe/Berlin' },
    });
    const nextStart = async () => (await suite.client.get(`/v1/campaigns/${campaign.id}`)).body.next_start_at as string;
    expect(await nextStart()).to.match(/^2025-10-26T0[01]:30:00\.000Z$/);
    // On 26 October 02:30 comes twice in Berlin: at 00:30 UTC (summer time), and at 01:30 UTC. After each, every start due is made.
    for (const at of ['2025-10-26T00:31:00Z', '2025-10-26T01:31:00Z']) {
      suite.app.advance(Date.parse(at) - suite.app.clock.now().getTime());
      await eventually(`the starts due by ${at}`, async () => Date.parse(await nextStart()) > Date.parse(at));
    }
    expect(await nextStart()).to.equal('2025-11-02T01:30:00.000Z');
    expect((await suite.client.get(`/v1/campaigns/${campaign.id}/runs`)).body.data).to.have.length(1);
  });
});
