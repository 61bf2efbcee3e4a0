import { expect } from 'chai';
import { callsReplicas, callStatus, NUMBERS, outboxOf, startCallsApp, type CallsApp } from '../../support/calls.js';
import { eventually } from '../../support/eventually.js';

describe('switchboard controllers: a replica killed while a queued caller is bridged to a member', function () {
  this.timeout(120_000);
  let app: CallsApp;
  const replicas = callsReplicas(() => app);
  before(async () => {
    // The API server in this process, the controllers as child processes on its database.
    app = await startCallsApp();
  });
  after(async () => {
    await replicas.killAll();
    await app?.close();
  });

  it('the call ends failed and the member is free for the next caller', async () => {
    const number = '+12025554000';
    // Events on, so the queue's moves are in the outbox.
    const { client } = await app.voiceCompany({ numbers: [number], eventsUrl: 'https://127.0.0.1:9/events' });
    const queue = (await client.post('/v1/queues', { name: 'Desk', members: [{ id: 'al', name: 'Al', phone: NUMBERS.stays }] })).body;
    expect(
      (await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: { type: 'queue', queue_id: queue.id } })).status,
    ).to.equal(200);
    const answeredBy = (callId: string) =>
      eventually(
        `call ${callId} put through`,
        async () => (await outboxOf(app, callId)).find((e) => e.type === 'queue.exited')?.payload.data.queue.answered_by.member_id,
        {
          withinMs: 60_000,
        },
      );
    // Callers who stay on the line, silent.
    const ringIn = async (from: string) => (await client.post('/v1/sim/calls', { to: number, from, lines: ['', ''] })).body;

    const first = await replicas.start();
    const bridged = await ringIn('+12025554001');
    expect(await answeredBy(bridged.id)).to.equal('al');
    await first.kill();

    await replicas.start();
    const next = await ringIn('+12025554002');
    expect(await answeredBy(next.id)).to.equal('al');
    expect((await callStatus(client, bridged.id, 'failed')).hangup_cause).to.equal('interrupted');
    await client.post(`/v1/calls/${next.id}/hangup`);
    await callStatus(client, next.id, 'completed');
  });
});
