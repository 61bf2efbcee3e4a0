import { expect } from 'chai';
import OpenAI from 'openai';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { createModelClient } from '../../../pkg/agent/model.js';
import { modelFetch } from '../../../pkg/agent/model-fetch.js';
import { startHttpsServer, type TestHttpsServer } from '../../support/https.js';

/** A chat completion chunk of the stream, as an OpenAI-compatible server sends it. */
const chunk = (delta: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;

describe("The model client's fetch (node http/https with keep-alive)", () => {
  let server: TestHttpsServer;
  const client = () => createModelClient({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', defaultModel: 'm' }).openai;
  const ask = (openai: OpenAI, stream: boolean) =>
    openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream } as never);

  before(async () => {
    server = await startHttpsServer((req, res) => {
      if (req.url === '/v1/chat/completions' && JSON.parse(server.requests.at(-1)!.body).stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: 'Hel' }));
        setImmediate(() => res.end(`${chunk({ content: 'lo' })}data: [DONE]\n\n`));
        return;
      }
      if (req.url === '/v1/empty') {
        res.writeHead(204, { 'x-request-id': 'req_empty' });
        res.end();
        return;
      }
      if (req.headers.authorization !== 'Bearer sk-test') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
        return;
      }
      if (req.url?.startsWith('/v1/hang')) return; // never answers
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
    const parts: string[] = [];
    for await (const c of (await ask(client(), true)) as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>)
      parts.push(c.choices[0]!.delta.content!);
    expect(parts).to.deep.equal(['Hel', 'lo']);
    const sent = server.requests.at(-1)!;
    expect(sent.method).to.equal('POST');
    expect(sent.headers.authorization).to.equal('Bearer sk-test');
    expect(sent.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(sent.body)).to.deep.include({ model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    // Sent by node's http, not the built-in fetch (which asks for compression and adds fetch metadata).
    expect(sent.headers).not.to.have.any.keys('accept-encoding', 'sec-fetch-mode');
  });

  it('answers a status that has no body with a Response without one, its headers kept', async () => {
    const res = await modelFetch(`${server.url}/v1/empty`, { method: 'POST', body: '{}' });
    expect(res.status).to.equal(204);
    expect(res.body).to.equal(null);
    expect(await res.text()).to.equal('');
    expect(res.headers.get('x-request-id')).to.equal('req_empty');
  });

  it('reads a whole completion and its headers, on one kept-alive connection', async () => {
    const openai = client();
    const first = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }).withResponse();
    await ask(openai, false);
    expect(first.data.choices[0]!.message.content).to.equal('Hello');
    expect(first.response.headers.get('x-request-id')).to.equal('req_1');
    const [a, b] = server.requests.slice(-2);
    expect(a!.headers.connection).to.equal('keep-alive');
    expect(b!.headers.connection).to.equal('keep-alive');
  });

  it("closes a kept-alive connection before the server's Keep-Alive hint runs out, and asks again on a new one", async () => {
    // A model endpoint that says it closes idle connections after 2 s but never does: only the client's own timer closes them.
    const connections = new Set<object>();
    const hinting = createHttpServer((req, res) => {
      connections.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=2' });
      res.end('{}');
    });
    hinting.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => hinting.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hinting.address() as AddressInfo).port}/v1/models`;
    const firstClosed = new Promise((resolve) => hinting.once('connection', (socket) => socket.once('close', resolve)));
    try {
      expect((await modelFetch(url)).status).to.equal(200);
      await firstClosed;
      expect((await modelFetch(url)).status).to.equal(200);
      expect(connections.size, 'connections used').to.equal(2);
    } finally {
      hinting.closeAllConnections();
      await new Promise((resolve) => hinting.close(resolve));
    }
  });

  it("turns the endpoint's error answer into the client's error, with its status and message", async () => {
    const openai = createModelClient({ baseURL: `${server.url}/v1`, apiKey: 'sk-wrong', defaultModel: 'm' }).openai;
    const err = await ask(openai, false).catch((e: unknown) => e);
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
    const openai = createModelClient({ baseURL: `http://127.0.0.1:${port}/v1`, defaultModel: 'm' }).openai;
    expect(await ask(openai, false).catch((e: unknown) => e)).to.be.instanceOf(OpenAI.APIConnectionError);
  });

  it('gives up when the call is aborted (the client’s timeout)', async () => {
    const openai = client();
    const err = await openai.post('/hang', { body: {}, timeout: 300 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(OpenAI.APIConnectionTimeoutError);
  });
});
