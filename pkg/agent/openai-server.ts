// A minimal OpenAI-compatible chat completions server (streaming and tool calls). It backs the
// built-in offline model and the test stand-in, so both speak exactly what the openai client reads.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';

export interface ModelReply {
  /** Text of the reply; sent in `chunks` when given, else in word-sized pieces. */
  content?: string;
  chunks?: string[];
  toolCalls?: { name: string; arguments: Record<string, unknown> | string }[];
  usage?: { promptTokens: number; completionTokens: number };
  /** Wait before the first byte (tests of timeouts). */
  delayMs?: number;
  /** Send the first chunk, then wait for this before the rest (tests that events stream as they come). */
  holdAfterFirst?: Promise<unknown>;
  /** Answer with this HTTP status, error and headers (Retry-After) instead of a completion. */
  fail?: { status: number; message: string; headers?: Record<string, string> };
  /** Cut the connection after this many chunks of a streamed answer, or midway through a whole one (a model server dropping). */
  dropAfter?: number;
}

/** `from`: the address the request came from. */
type Responder = (request: ChatCompletionCreateParams, from: string) => ModelReply | Promise<ModelReply>;

export interface ModelServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const splitWords = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

const roughTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8'));
}

function usageOf(request: ChatCompletionCreateParams, reply: ModelReply) {
  const prompt = reply.usage?.promptTokens ?? roughTokens(JSON.stringify(request.messages));
  const completion = reply.usage?.completionTokens ?? roughTokens((reply.content ?? '') + JSON.stringify(reply.toolCalls ?? []));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function toolCallsOf(reply: ModelReply, id: string) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    index,
    id: `call_${id}_${index}`,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

async function answer(req: IncomingMessage, res: ServerResponse, respond: Responder, seq: number): Promise<void> {
  const request = (await readJson(req)) as ChatCompletionCreateParams;
  const reply = await respond(request, req.socket.remoteAddress ?? '');
  if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  if (reply.fail) {
    res.writeHead(reply.fail.status, { ...reply.fail.headers, 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: reply.fail.message, type: 'server_error' } }));
    return;
  }
  const id = `chatcmpl-${seq}`;
  const created = Math.floor(Date.now() / 1000);
  const base = { id, created, model: request.model };
  const toolCalls = toolCallsOf(reply, String(seq));
  const finish = toolCalls.length ? 'tool_calls' : 'stop';
  const usage = usageOf(request, reply);

  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const body = JSON.stringify({
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: finish,
          message: {
            role: 'assistant',
            content: reply.content ?? null,
            ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _i, ...c }) => c) } : {}),
          },
        },
      ],
      usage,
    });
    if (reply.dropAfter === undefined) res.end(body);
    else res.write(body.slice(0, body.length / 2), () => res.destroy());
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.socket?.setNoDelay(true);
  const send = (delta: object, finishReason: string | null = null, extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  for (const [i, chunk] of (reply.chunks ?? splitWords(reply.content ?? '')).entries()) {
    if (i === reply.dropAfter) return void res.destroy();
    send({ content: chunk });
    if (i === 0) await reply.holdAfterFirst;
  }
  for (const call of toolCalls) send({ tool_calls: [call] });
  send({}, finish);
  const streamOptions = (request as { stream_options?: { include_usage?: boolean } }).stream_options;
  if (streamOptions?.include_usage) {
    res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

/** Serve chat completions on `host` (loopback by default) at `port` (0: any free port), answering with `respond`. */
export async function startModelServer(respond: Responder, { port = 0, host = '127.0.0.1' } = {}): Promise<ModelServer> {
  let seq = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path?.endsWith('/chat/completions')) {
      answer(req, res, respond, ++seq).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message } }));
      });
      return;
    }
    if (req.method === 'GET' && path?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'offline', object: 'model', owned_by: 'switchboard' }] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'not found' } }));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}/v1`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
