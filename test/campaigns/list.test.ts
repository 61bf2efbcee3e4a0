import { expect } from 'chai';
import { eventually } from '../support/eventually.js';
import { campaignOn, campaignSuite, SIGN_IN } from '../support/campaigns.js';
import { adminOn } from '../support/cli.js';

// Sunday 9 March 2025, 06:30 UTC: 01:30 in New York (before the clocks jump), 07:30 in Berlin.
const START = new Date('2025-03-09T06:30:00Z');

describe('Campaign runs: the list from the customer system', function () {
  this.timeout(90_000);
  const suite = campaignSuite(START);

  const run = async (campaign: any, body: Record<string, unknown> = {}) =>
    (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, body)).body;
  const ended = (runId: string) =>
    eventually(`run ${runId} to end`, async () => {
      const r = (await suite.client.get(`/v1/campaign-runs/${runId}`)).body;
      return r.status !== 'running' && r;
    });
  const summaryOf = (runId: string) => eventually(`the summary of ${runId}`, () => suite.system.summaries.find((s) => s.run.id === runId));

  it('asks the list path once with the run in the body, the sign-in header, both signatures and User-Agent voice-webhooks/1', async () => {
    const campaign = await campaignOn(suite.client, suite.system, { name: 'Spring' });
    suite.system.lists.push({ status: 200, body: { contacts: [] } });
    const started = await run(campaign);
    await summaryOf(started.id);
    const [request] = suite.system.listRequests.filter((r) => JSON.parse(r.body).run.id === started.id);
    expect(JSON.parse(request!.body)).to.deep.equal({
      event: 'campaign.list',
      campaign: { id: campaign.id, name: 'Spring' },
      run: { id: started.id, test: false },
    });
    expect(request!.method).to.equal('POST');
    expect(request!.headers).to.include({
      'user-agent': 'voice-webhooks/1',
      'content-type': 'application/json',
      [SIGN_IN.name.toLowerCase()]: SIGN_IN.value,
    });
    expect(request!.headers).to.include.keys('x-voice-signature', 'x-voice-timestamp', 'webhook-signature');
    expect(suite.system.rejected).to.deep.equal([]);
    expect((await ended(started.id)).status).to.equal('done');
    expect(suite.app.logs.join(''), 'the sign-in header logged').to.not.include(SIGN_IN.value);
  });

  const failures: [string, () => void, string][] = [
    ['the system is unreachable', () => suite.system.lists.push('reset'), 'the list request failed'],
    [
      'it answers an error status',
      () => suite.system.lists.push({ status: 503, body: { error: 'down' } }),
      'the list request was answered HTTP 503',
    ],
    [
      'it answers 201, not 200',
      () => suite.system.lists.push({ status: 201, body: { contacts: [] } }),
      'the list request was answered HTTP 201',
    ],
    ['the body is not JSON', () => suite.system.lists.push({ status: 200, body: 'contacts: none' }), 'the list is not JSON'],
    [
      'the body is not {contacts: [...]}',
      () => suite.system.lists.push({ status: 200, body: [{ contact_id: 1 }] }),
      'the list is not {contacts: [...]}',
    ],
    [
      'the list has more than 1,000 contacts',
      () => suite.system.lists.push({ status: 200, body: { contacts: Array.from({ length: 1001 }, (_, i) => ({ contact_id: i })) } }),
      'more than 1000',
    ],
    [
      'the reply is over 4 MB',
      () =>
        suite.system.lists.push({ status: 200, body: { contacts: [{ contact_id: 1, context: { blob: 'x'.repeat(4 * 1024 * 1024) } }] } }),
      'the list is over 4 MB',
    ],
  ];
  for (const [when, answer, error] of failures) {
    it(`fails the run when ${when}: nobody called, run.error set, a summary with total 0, never asked again`, async () => {
      const campaign = await campaignOn(suite.client, suite.system);
      answer();
      const started = await run(campaign);
      const failed = await ended(started.id);
      expect(failed.status).to.equal('failed');
      expect(failed.error).to.include(error);
      const summary = await summaryOf(started.id);
      expect(summary.run).to.deep.include({ id: started.id, status: 'failed', test: false });
      expect(summary.run.error).to.equal(failed.error);
      expect(summary.contacts).to.deep.equal({ total: 0, done: 0, no_answer: 0, skipped: 0 });
      expect(suite.system.listRequests.filter((r) => JSON.parse(r.body).run.id === started.id)).to.have.length(1);
      expect((await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === started.id)).to.deep.equal(
        [],
      );
      expect(suite.app.logs.join(''), 'the sign-in header logged').to.not.include(SIGN_IN.value);
    });
  }

  it('fails the run when the list is not answered within 30 seconds', async function () {
    this.timeout(60_000);
    const campaign = await campaignOn(suite.client, suite.system);
    suite.system.lists.push('silent');
    const started = await run(campaign);
    const failed = await eventually(
      'the run to fail',
      async () => {
        const r = (await suite.client.get(`/v1/campaign-runs/${started.id}`)).body;
        return r.status === 'failed' && r;
      },
      { withinMs: 45_000, everyMs: 500 },
    );
    expect(failed.error).to.equal('the list request failed: timed out after 30000 ms');
  });

  it('asks once and goes on when the step asking stalls past its lease and the run is claimed again', async () => {
    const campaign = await campaignOn(suite.client, suite.system);
    let answer!: () => void;
    const until = new Promise<void>((resolve) => (answer = resolve));
    suite.system.lists.push({ status: 200, body: { contacts: [{ contact_id: 'c1', phone: 'not a phone' }] }, until });
    const started = await run(campaign);
    await eventually('the list request', () => suite.system.listRequests.some((r) => JSON.parse(r.body).run.id === started.id));
    // The asking step's lease runs out unrenewed (as in a stalled process), and the run is claimed again.
    const db = suite.app.runtime.ctx.db;
    await db('campaign_runs')
      .where({ id: started.id })
      .update({ lease_until: new Date(suite.app.clock.now().getTime() - 1), due_at: suite.app.clock.now() });
    suite.app.controllers!.wake();
    await eventually(
      'the run claimed again',
      async () => (await db('campaign_runs').where({ id: started.id }).first()).lease_until > suite.app.clock.now(),
    );
    answer();
    expect((await ended(started.id)).status).to.equal('done');
    expect((await summaryOf(started.id)).contacts).to.deep.equal({ total: 1, done: 0, no_answer: 0, skipped: 1 });
    expect(suite.system.listRequests.filter((r) => JSON.parse(r.body).run.id === started.id)).to.have.length(1);
  });

  it('reads a list of 1,000 with one bad entry of each kind: two left out, one result per skip reason, the rest (a long name, an unknown zone among them) waiting for their hours', async () => {
    for (let i = 0; i < 2; i++) expect((await suite.client.post('/v1/calls', { to: '+12025550160' })).status).to.equal(201);
    await suite.app.runtime.ctx.db('do_not_call').insert({ tenant_id: suite.tenantId, number: '+12025550161', created_at: START });
    // 07:30 in Berlin: everyone's window opens at 09:00.
    const campaign = await campaignOn(suite.client, suite.system, { timezone: 'Europe/Berlin' });
    const contacts: any[] = Array.from({ length: 987 }, (_, i) => ({
      contact_id: `p${i}`,
      name: `Person ${i}`,
      phone: `(202) 555-${String(1000 + i).padStart(4, '0')}`,
    }));
    contacts.push(
      { name: 'No id', phone: '+12025550150' },
      { contact_id: 'p0', phone: '+12025550151' },
      { contact_id: 'bad-phone', phone: 'call me maybe' },
      { contact_id: 'bad-context', phone: '+12025550152', context: { notes: 'x'.repeat(9 * 1024) } },
      { contact_id: 'bad-zone', phone: '+12025550153', timezone: 'Mars/Olympus' },
      { contact_id: 'long-name', name: 'N'.repeat(101), phone: '+12025550154' },
      { contact_id: 'abroad', phone: '+44 20 7183 8750' },
      { contact_id: 'emergency', phone: '911' },
      { contact_id: 'opted-out', phone: '+12025550161' },
      { contact_id: 'called-enough', phone: '+12025550160' },
      { contact_id: 'asleep', phone: '+12025550162', timezone: 'Pacific/Kiritimati' },
      { contact_id: 12345, phone: '+12025550163' },
      { contact_id: 'last', phone: '+12025550164' },
    );
    expect(contacts).to.have.length(1000);
    suite.system.lists.push({ status: 200, body: { contacts } });
    const started = await run(campaign);
    const skipped = await eventually('seven skip results', () => {
      const mine = suite.system.results.filter((r) => r.run.id === started.id);
      return mine.length >= 7 && mine;
    });
    expect(Object.fromEntries(skipped.map((r: any) => [r.contact_id, r.skipped_reason]))).to.deep.equal({
      'bad-phone': 'invalid_phone',
      'bad-context': 'invalid_context',
      abroad: 'not_allowed',
      emergency: 'not_allowed',
      'opted-out': 'do_not_call',
      'called-enough': 'outside_limits',
      asleep: 'outside_hours',
    });
    expect(skipped[0]).to.deep.equal({
      event: 'campaign.result',
      campaign: { id: campaign.id, name: 'Renewals' },
      run: { id: started.id, test: false },
      contact_id: skipped[0].contact_id,
      call_id: '',
      attempts: 0,
      status: 'skipped',
      skipped_reason: skipped[0].skipped_reason,
    });
    const counted = (await suite.client.get(`/v1/campaign-runs/${started.id}`)).body.contacts;
    expect(counted).to.deep.equal({ total: 998, done: 0, no_answer: 0, skipped: 7, pending: 991, unfinished: 0 });
    const stopped = await suite.client.post(`/v1/campaign-runs/${started.id}/stop`, {});
    expect(stopped.body.contacts).to.deep.include({ pending: 0, unfinished: 991 });
    const summary = await summaryOf(started.id);
    expect(summary.contacts).to.deep.equal({ total: 998, done: 0, no_answer: 0, skipped: 7, unfinished: 991 });
  });

  it('skips by the contact limits and countries an operator set (admin tenant update), calling what they allow', async () => {
    const admin = (...flags: string[]) => adminOn(suite.app)('tenant', 'update', '--tenant', suite.tenantId, ...flags);
    expect((await admin('--max-calls-per-number-per-day', '3', '--allowed-countries', 'US,GB')).code).to.equal(0);
    try {
      for (let i = 0; i < 2; i++) expect((await suite.client.post('/v1/calls', { to: '+12025550170' })).status).to.equal(201);
      const campaign = await campaignOn(suite.client, suite.system, { timezone: 'Europe/Berlin' });
      suite.system.lists.push({
        status: 200,
        body: {
          contacts: [
            { contact_id: 'twice', phone: '+12025550170' },
            { contact_id: 'london', phone: '+44 20 7183 8750' },
            { contact_id: 'paris', phone: '+33 1 42 68 53 00' },
          ],
        },
      });
      const started = await run(campaign);

      const [skipped] = await eventually('the skip result', () => {
        const mine = suite.system.results.filter((r) => r.run.id === started.id);
        return mine.length > 0 && mine;
      });

      expect(skipped).to.deep.include({ contact_id: 'paris', skipped_reason: 'not_allowed' });
      expect((await suite.client.get(`/v1/campaign-runs/${started.id}`)).body.contacts).to.deep.include({
        total: 3,
        skipped: 1,
        pending: 2,
      });
      await suite.client.post(`/v1/campaign-runs/${started.id}/stop`, {});
    } finally {
      expect((await admin('--max-calls-per-number-per-day', '2', '--allowed-countries', '')).code).to.equal(0);
    }
  });
});
