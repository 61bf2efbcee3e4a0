import { expect } from 'chai';
import { connect } from 'node:net';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { heldReply } from '../support/triggers.js';

describe('HTTP server timeouts', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { SWITCHBOARD_HEADERS_TIMEOUT_SEC: '1', SWITCHBOARD_REQUEST_TIMEOUT_SEC: '1' } });
  });
  after(async () => app.close());

  /** A client that sends `head`, then one character of `rest` every 200 ms, and waits for the server to close the connection: what it was answered. */
  async function trickle(head: string, rest: string): Promise<string> {
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(head);
    let sent = 0;
    const timer = setInterval(() => sent < rest.length && socket.write(rest[sent++]!), 200);
    await closed;
    clearInterval(timer);
    return answer;
  }

  it('answers 408 and closes the connection of a client trickling its body, while an SSE stream and a request made meanwhile are answered', async () => {
    const { client, apiKey, agentId } = await app.company();
    const opened = await client.post('/api/v1/conversations', { agentId });
    const turn = `/api/v1/conversations/${opened.body.conversationId}/messages`;
    const held = heldReply({ content: 'Answered after the timeout.' });
    app.model.reply(held.reply);
    const stream = client.stream(turn, { message: 'Hi', stream: true });
    await eventually('the streamed turn to ask the model', async () => app.model.requests.length === 1);

    const body = JSON.stringify({ agentId });
    const head = `POST /api/v1/conversations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    expect(await trickle(head, body)).to.match(/^HTTP\/1\.1 408 /);

    // The stream was opened before the trickling client, so it has outlived the timeout too.
    held.release();
    const streamed = await stream;
    expect(streamed.status).to.equal(200);
    expect(streamed.events.at(-1)).to.include({ type: 'done' });
    expect((await client.get(`/api/v1/conversations/${opened.body.conversationId}`)).status).to.equal(200);
  });

  it('answers 408 and closes the connection of a client trickling its headers', async () => {
    expect(await trickle('GET /healthz HTTP/1.1\r\n', 'X-Slow: abcdefghijklmnopqrstuvwxyz\r\n')).to.match(/^HTTP\/1\.1 408 /);
  });
});
