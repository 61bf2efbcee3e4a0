import { expect } from 'chai';
import { openConversation, startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../../support/app.js';
import { startProcess, type SwitchboardProcess } from '../../support/processes.js';

describe('switchboard api: a replica killed mid-stream', function () {
  // Spawns the CLI, a full node start.
  this.timeout(120_000);
  let app: TestApp;
  let api: SwitchboardProcess;
  before(async () => {
    app = await startTestApp();
    api = await startProcess('api', {
      OPENAI_BASE_URL: app.model.url,
      SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32',
    });
  });
  after(async () => {
    await api?.kill();
    await app?.close();
  });

  it("ends the client's stream without done or error, stores no reply and no charge, and frees the conversation for the next turn", async () => {
    const { client, agentId, apiKey } = await app.company();
    const conversationId = await openConversation(client, agentId);
    let release!: () => void;
    app.model.reply({ content: 'First words, then the rest of the answer.', holdAfterFirst: new Promise<void>((r) => (release = r)) });
    const { port } = api.logs.find((l) => l.msg === 'listening')!.address;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hello', stream: true }),
    });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"type":"content"')) text += decoder.decode((await reader.read()).value!, { stream: true });

    await api.kill();
    // The rest of the stream: its end or a broken connection, never a hang (the test's timeout).
    const rest = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        text += decoder.decode(value, { stream: true });
      }
    })().catch(() => 'broken');
    release();
    expect(['ended', 'broken']).to.include(rest);
    expect(text).not.to.match(/"type":"(done|error)"/);

    const { db } = app.runtime.ctx;
    const stored = await db('messages')
      .where({ conversation_id: conversationId })
      .whereIn('role', ['user', 'assistant'])
      .orderBy('seq')
      .select('id', 'role', 'content');
    expect(stored.map((m) => [m.role, m.content])).to.deep.equal([['user', 'Hello']]);
    expect(await db('credit_ledger').where({ reference_type: 'api', reference_id: stored[0]!.id })).to.deep.equal([]);

    // The dead replica's lock on the conversation went with its connection.
    app.model.reply({ content: 'Here again.' });
    const next = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Still there?' });
    expect(next.status).to.equal(200);
    expect(next.body.message.content).to.equal('Here again.');
  });
});
