import { expect } from 'chai';
import { callStatus, finalResult, NUMBERS, startCallsApp, type CallsApp } from '../support/calls.js';
import { eventually } from '../support/eventually.js';
import { heldReply, waitForStatus } from '../support/triggers.js';

describe('Controller concurrency: calls have places of their own', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true, env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '1', SWITCHBOARD_CALL_CONCURRENCY: '3' } });
  });
  after(async () => {
    await app?.close();
  });

  it('conducts SWITCHBOARD_CALL_CONCURRENCY calls at once while jobs still run SWITCHBOARD_CONTROLLER_CONCURRENCY at a time', async () => {
    const { client, agentId } = await app.voiceCompany({ maxConcurrentCalls: 4 });
    const place = async (i: number) => {
      const placed = await client.post('/v1/calls', { to: NUMBERS.stays, task: `Stay on the line ${i}` });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      return placed.body.id as string;
    };
    const live = await Promise.all([1, 2, 3].map(place));
    for (const id of live) {
      await callStatus(client, id, 'in-progress');
      // The agent has answered the callee's first line; the next one is a minute away.
      await eventually(
        `call ${id}'s agent speaking`,
        async () => (await client.get(`/v1/calls/${id}/result`)).body.transcript.length === 2,
      );
    }
    for (const id of live) expect((await client.get(`/v1/calls/${id}`)).body.status, id).to.equal('in-progress');
    const fourth = await place(4);

    // Jobs keep the manager's single place: the second waits for the first to end.
    const first = heldReply({ content: 'First done' });
    let firstWhenSecondRan = '';
    app.model.reply(first.reply, async () => {
      firstWhenSecondRan = (await client.get(`/api/v1/triggers/${a.triggerId}`)).body.status;
      return { content: 'Second done' };
    });
    const a = (await client.post('/api/v1/triggers', { agentId, task: 'First job' })).body;
    await waitForStatus(client, a.triggerId, 'running');
    const b = (await client.post('/api/v1/triggers', { agentId, task: 'Second job' })).body;
    expect((await client.get(`/api/v1/triggers/${b.triggerId}?wait=1`)).body.status).to.equal('queued');
    first.release();
    const done = await waitForStatus(client, a.triggerId, 'succeeded');
    const second = await waitForStatus(client, b.triggerId, 'succeeded');
    expect(firstWhenSecondRan).to.equal('succeeded');
    expect(new Date(second.startedAt).getTime()).to.be.at.least(new Date(done.completedAt).getTime());

    // The fourth call waits for one of the three places to be given back.
    expect((await client.get(`/v1/calls/${fourth}`)).body.status).to.equal('queued');
    expect((await client.post(`/v1/calls/${live[0]}/hangup`)).status).to.equal(200);
    await callStatus(client, fourth, 'in-progress');
    for (const id of [...live.slice(1), fourth]) expect((await client.post(`/v1/calls/${id}/hangup`)).status).to.equal(200);
    for (const id of [...live, fourth]) expect(await finalResult(client, id)).to.include({ status: 'completed', final: true });
  });
});
