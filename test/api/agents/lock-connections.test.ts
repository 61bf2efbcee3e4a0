import { expect } from 'chai';
import { eventually } from '../../support/eventually.js';
import { startJobsApp } from '../../support/triggers.js';
import type { TestApp } from '../../support/app.js';

describe('Conversation lock connections', () => {
  let app: TestApp;
  before(async () => {
    // A database of its own: the test ends every lock connection on it.
    app = await startJobsApp();
  });
  after(async () => app?.close());

  const endLockConnections = async () =>
    (
      await app.runtime.ctx.db.raw(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'switchboard-pipelined' and datname = current_database()`,
      )
    ).rows;

  it('are replaced when the server ends an idle one, without ending the process', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    expect((await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'One' })).status).to.equal(200);
    // The turn is answered before its unlock is: ended while still held, a connection would not be idle.
    await eventually('the lock connections idle', async () => {
      const { rows } = await app.runtime.ctx.db.raw(
        `select count(*) filter (where state <> 'idle') as busy from pg_stat_activity where application_name = 'switchboard-pipelined' and datname = current_database()`,
      );
      return rows[0].busy === 0;
    });
    const ended = { rows: await endLockConnections() };
    expect(ended.rows.length, 'idle lock connections').to.be.greaterThan(0);
    await eventually('the lost lock connections noticed', () => app.logs.some((line) => line.includes('pipelined connection lost')));

    const again = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Two' });

    expect(again.status).to.equal(200);
    expect(app.logs.filter((line) => line.includes('pipelined connection lost'))).to.have.length(ended.rows.length);
  });

  /** A turn of a new conversation, waiting for the model until `answer` lets it reply `content`. */
  async function turnAtTheModel(content: string) {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    app.model.reply(async () => {
      await answered;
      return { content };
    });
    const asked = app.model.requests.length;
    const turn = client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'One' });
    await eventually('the turn waiting for the model', () => app.model.requests.length > asked);
    return { client, conversationId, turn, answer };
  }

  it('hold none while a turn waits for the model: ending them all then fails no turn', async () => {
    const { turn, answer } = await turnAtTheModel('Still mine');
    const { rows } = await app.runtime.ctx.db.raw(
      `select count(*) filter (where state <> 'idle') as busy from pg_stat_activity where application_name = 'switchboard-pipelined' and datname = current_database()`,
    );
    expect(Number(rows[0].busy), 'lock connections busy while the turn waits').to.equal(0);
    const lost = () => app.logs.filter((line) => line.includes('pipelined connection lost')).length;
    const before = lost();
    const ended = (await endLockConnections()).length;
    await eventually('the ended connections noticed', () => lost() === before + ended);
    answer();

    const done = await turn;
    expect(done.status, JSON.stringify(done.body)).to.equal(200);
    expect(done.body.message.content).to.equal('Still mine');
  });

  it("keep a turn's lock when only the process's listen connection is lost, nobody having taken it", async () => {
    const { client, conversationId, turn, answer } = await turnAtTheModel('Kept');
    const presence = app.runtime.ctx.notifier.presencePid;
    await app.runtime.ctx.db.raw('select pg_terminate_backend(?)', [presence]);
    await eventually('the listen connection back', () => app.runtime.ctx.notifier.presencePid !== presence);
    answer();

    expect((await turn).status).to.equal(200);
    app.model.reply({ content: 'Two' });
    const again = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Again' });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
  });
});
