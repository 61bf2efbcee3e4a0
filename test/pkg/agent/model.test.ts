import { expect } from 'chai';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { createModelClient, type ModelClient } from '../../../pkg/agent/model.js';
import { startHttpsServer, type TestHttpsServer } from '../../support/https.js';

/** A chat completion chunk of the stream, as an OpenAI-compatible server sends it. */
const chunk = (delta: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;

const hi = { model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] };

async function contentOf(stream: AsyncIterable<ChatCompletionChunk>): Promise<string[]> {
  const parts: string[] = [];
  for await (const c of stream) parts.push(c.choices[0]!.delta.content!);
  return parts;
}

describe('The model client (chat completions over node http/https with keep-alive)', () => {
  let server: TestHttpsServer;
  /** Sockets whose streamed answer the client closed before its end. */
  let closedEarly = 0;
  const client = (apiKey = 'sk-test'): ModelClient => createModelClient({ baseURL: `${server.url}/v1`, apiKey, defaultModel: 'm' });

  before(async () => {
    server = await startHttpsServer((req, res) => {
      if (req.url === '/v1/split/chat/completions') {
        // An event whose CRLF is split across two writes, then one whose data spans two lines.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`${chunk({ content: 'Hel' }).trimEnd()}\r`);
        setImmediate(() => {
          res.write('\n\r\n');
          const json = JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'lo' } }] });
          res.end(`: a comment\ndata: ${json.slice(0, 20)}\ndata:${json.slice(20)}\n\ndata: [DONE]\n\n`);
        });
        return;
      }
      if (req.url === '/v1/failing/chat/completions') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          `${chunk({ content: 'Hel' })}data: ${JSON.stringify({ error: { message: 'overloaded mid-answer', type: 'server_error' } })}\n\n`,
        );
        return;
      }
      if (req.url === '/v1/endless/chat/completions') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ content: 'Hel' }));
        req.socket.once('close', () => closedEarly++);
        return; // never ends
      }
      if (req.url?.startsWith('/v1/hang')) return; // never answers
      if (req.headers.authorization !== 'Bearer sk-test') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
        return;
      }
      if (req.url === '/v1/chat/completions' && JSON.parse(server.requests.at(-1)!.body).stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: 'Hel' }));
        setImmediate(() => res.end(`${chunk({ content: 'lo' })}data: [DONE]\n\n`));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      res.end(
        JSON.stringify({
          id: 'c2',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello' } }],
        }),
      );
    });
  });
  after(() => server.close());

  it('streams a completion over HTTPS, with the request as sent', async () => {
    expect(await contentOf(await client().stream({ ...hi, stream: true }))).to.deep.equal(['Hel', 'lo']);
    const sent = server.requests.at(-1)!;
    expect(sent.method).to.equal('POST');
    expect(sent.url).to.equal('/v1/chat/completions');
    expect(sent.headers.authorization).to.equal('Bearer sk-test');
    expect(sent.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(sent.body)).to.deep.include({ model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    // Sent by node's http, not the built-in fetch (which asks for compression and adds fetch metadata).
    expect(sent.headers).not.to.have.any.keys('accept-encoding', 'sec-fetch-mode');
  });

  it('reads events whose line breaks are split across reads, comments, and data over several lines', async () => {
    const split = createModelClient({ baseURL: `${server.url}/v1/split`, apiKey: 'sk-test', defaultModel: 'm' });
    expect(await contentOf(await split.stream({ ...hi, stream: true }))).to.deep.equal(['Hel', 'lo']);
  });

  it("throws the error an answer's stream reports, as the client's error", async () => {
    const failing = createModelClient({ baseURL: `${server.url}/v1/failing`, apiKey: 'sk-test', defaultModel: 'm' });
    const err = await contentOf(await failing.stream({ ...hi, stream: true })).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(OpenAI.APIError);
    expect((err as Error).message).to.include('overloaded mid-answer');
  });

  it('ends a stream quietly when it is aborted, and closes its connection', async () => {
    const endless = createModelClient({ baseURL: `${server.url}/v1/endless`, apiKey: 'sk-test', defaultModel: 'm' });
    const controller = new AbortController();
    const before = closedEarly;
    const parts: string[] = [];
    for await (const c of await endless.stream({ ...hi, stream: true }, { signal: controller.signal })) {
      parts.push(c.choices[0]!.delta.content!);
      controller.abort();
    }
    expect(parts).to.deep.equal(['Hel']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closedEarly).to.equal(before + 1);
  });

  it('reads a whole completion, on one kept-alive connection', async () => {
    const model = client();
    const first = await model.complete(hi);
    await model.complete(hi);
    expect(first.choices[0]!.message.content).to.equal('Hello');
    const [a, b] = server.requests.slice(-2);
    expect(a!.headers.connection).to.equal('keep-alive');
    expect(b!.headers.connection).to.equal('keep-alive');
  });

  it("closes a kept-alive connection before the server's Keep-Alive hint runs out, and asks again on a new one", async () => {
    // A model endpoint that says it closes idle connections after 2 s but never does: only the client's own timer closes them.
    const connections = new Set<object>();
    const hinting = createHttpServer((req, res) => {
      connections.add(req.socket);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=2' });
      res.end('{}');
    });
    hinting.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => hinting.listen(0, '127.0.0.1', resolve));
    const model = createModelClient({ baseURL: `http://127.0.0.1:${(hinting.address() as AddressInfo).port}/v1`, defaultModel: 'm' });
    const firstClosed = new Promise((resolve) => hinting.once('connection', (socket) => socket.once('close', resolve)));
    try {
      expect(await model.complete(hi)).to.deep.equal({});
      await firstClosed;
      expect(await model.complete(hi)).to.deep.equal({});
      expect(connections.size, 'connections used').to.equal(2);
    } finally {
      hinting.closeAllConnections();
      await new Promise((resolve) => hinting.close(resolve));
    }
  });

  it("turns the endpoint's error answer into the client's error, with its status and message", async () => {
    const err = await client('sk-wrong')
      .complete(hi)
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).to.equal(401);
    expect((err as Error).message).to.include('Incorrect API key provided');
  });

  it('reports an endpoint nobody listens on as a connection error', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const model = createModelClient({ baseURL: `http://127.0.0.1:${port}/v1`, defaultModel: 'm' });
    expect(await model.complete(hi).catch((e: unknown) => e)).to.be.instanceOf(OpenAI.APIConnectionError);
  });

  it('gives up when the answer does not start in time (the client’s timeout)', async () => {
    const model = createModelClient({ baseURL: `${server.url}/v1/hang`, apiKey: 'sk-test', defaultModel: 'm', answerTimeoutMs: 300 });
    expect(await model.complete(hi).catch((e: unknown) => e)).to.be.instanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('refuses a request whose signal was aborted before it was sent', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await client()
      .stream({ ...hi, stream: true }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(OpenAI.APIUserAbortError);
  });
});
