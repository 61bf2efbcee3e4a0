import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { startScriptedModel, type ScriptedModel } from '../support/model.js';
import { heldReply } from '../support/triggers.js';

// Two API replicas on one database: a conversation's turns run one at a time across them, and the
// lock of a replica whose database connection is gone (as in a crash) goes at once.
describe('Turns of one conversation on two replicas (turn locks)', () => {
  let database: ScratchDatabase;
  let model: ScriptedModel;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    database = await createScratchDatabase();
    model = await startScriptedModel();
    a = await startTestApp({ databaseUrl: database.url, model });
    b = await startTestApp({ databaseUrl: database.url, model });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await model?.close();
    await database?.drop();
  });

  const transcript = async (app: TestApp, apiKey: string, id: string) =>
    (await app.client(apiKey).get(`/api/v1/conversations/${id}`)).body.messages.map(
      (m: { role: string; content: string }) => `${m.role}: ${m.content}`,
    );

  /** A turn on replica a at the model (held, to answer `firstReply`), and one on b waiting for its lock (to answer `secondReply`). */
  async function turnWaitingOnTheOther(firstReply: string, secondReply: string) {
    const { agentId, apiKey } = await a.company();
    const { conversationId } = (await a.client(apiKey).post('/api/v1/conversations', { agentId })).body;
    const held = heldReply({ content: firstReply });
    model.reply(held.reply, { content: secondReply });
    const asked = model.requests.length;
    const first = a.client(apiKey).post(`/api/v1/conversations/${conversationId}/messages`, { message: 'One' });
    await eventually('the first turn at the model', () => model.requests.length === asked + 1);
    const second = b.client(apiKey).post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Two' });
    await eventually('the second turn waiting on the lock', () => b.runtime.ctx.locks.waiting === 1);
    return { apiKey, conversationId, held, asked, first, second };
  }

  it("waits on the other replica's turn and sees its reply", async () => {
    const { apiKey, conversationId, held, asked, first, second } = await turnWaitingOnTheOther('First answer', 'Second answer');
    // The holder is told someone waits, so its release is announced rather than found a second later.
    await eventually(
      'the lock marked wanted',
      async () => (await b.runtime.ctx.db('turn_locks').where({ key: conversationId }).first())?.wanted === true,
    );
    expect(model.requests.length, 'the second turn asks nothing while the first runs').to.equal(asked + 1);
    held.release();

    expect((await first).status).to.equal(200);
    expect((await second).status).to.equal(200);
    // The second turn's prompt had the first turn's reply.
    expect(JSON.stringify(model.requests[asked + 1]!.messages)).to.contain('First answer');
    expect(await transcript(b, apiKey, conversationId)).to.deep.equal([
      'user: One',
      'assistant: First answer',
      'user: Two',
      'assistant: Second answer',
    ]);
  });

  it('gives a lost replica’s lock to the other at once, and refuses the lost turn’s reply 503', async () => {
    const { apiKey, conversationId, held, first, second } = await turnWaitingOnTheOther('Stale answer', 'Fresh answer');
    // Replica a's listen connection is cut, as when its process dies: its lock is free to take.
    await b.runtime.ctx.db.raw('select pg_terminate_backend(?)', [a.runtime.ctx.notifier.presencePid]);

    const taken = await second;
    expect(taken.status).to.equal(200);
    expect(taken.body.message.content).to.equal('Fresh answer');
    held.release();
    const lost = await first;
    expect(lost.status).to.equal(503);
    expect(lost.body.error).to.match(/took over this conversation/);
    expect(Number(lost.headers.get('retry-after'))).to.be.greaterThan(0);
    // Nothing of the lost turn's closing was kept: no reply, and no charge either.
    expect(await transcript(b, apiKey, conversationId)).to.deep.equal(['user: One', 'user: Two', 'assistant: Fresh answer']);
  });
});
