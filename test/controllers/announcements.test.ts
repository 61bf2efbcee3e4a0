import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { heldReply, startJobsApp, waitForStatus } from '../support/triggers.js';

// A long poll that is not woken answers only when its 60 seconds run out, long after the test's own
// time limit.
describe('Announcing the end of a job run', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '1' } });
  });
  after(async () => app?.close());
  beforeEach(() => app.model.reset());

  it('wakes long polls on the finished job and on the job claimed for its slot', async function () {
    this.timeout(20_000);
    const { client, agentId } = await app.company();
    const first = heldReply({ content: 'First done' });
    const second = heldReply({ content: 'Second done' });
    app.model.reply(first.reply);
    app.model.reply(second.reply);
    const a = (await client.post('/api/v1/triggers', { agentId, task: 'First' })).body.triggerId;
    await waitForStatus(client, a, 'running');
    // The only slot is taken: the second waits for the first run to end.
    const b = (await client.post('/api/v1/triggers', { agentId, task: 'Second' })).body.triggerId;
    const polls = [a, b].map((id) => client.get(`/api/v1/triggers/${id}?wait=60`));
    // A round trip on another connection, so the polls have read the jobs before they change.
    expect((await client.get(`/api/v1/triggers/${b}`)).body.status).to.equal('queued');

    first.release();

    const [ended, started] = await Promise.all(polls);
    expect(ended!.body.status).to.equal('succeeded');
    expect(started!.body.status).to.equal('running');
    second.release();
    await waitForStatus(client, b, 'succeeded');
  });
});
