// The model client: chat completions from any OpenAI-compatible endpoint, over node's http(s) on
// keep-alive agents. It sends the one request a turn makes and reads its answer itself: the `openai`
// package's client (its request building, a fetch adapter, web streams and their SSE decoder)
// allocated about 120 KB more a model call, a quarter of a turn's bytes. Its types and error
// classes are kept, so callers see the errors that client threw.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { flatten, IDLE_CONNECTION_MS } from '../outbound/client.js';

const agents: Record<string, http.Agent> = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

/**
 * How long a request may wait for its answer to start: the client's own bound, not the synchronous
 * turn timeout, so a turn whose caller got 504 still finishes and is recorded.
 */
const ANSWER_TIMEOUT_MS = 10 * 60_000;

export interface ModelClient {
  defaultModel: string;
  /** A whole completion. */
  complete(body: ChatCompletionCreateParamsNonStreaming): Promise<ChatCompletion>;
  /** A streamed completion's chunks; `signal` ends the stream where it is, and closes its connection. */
  stream(body: ChatCompletionCreateParamsStreaming, options?: { signal?: AbortSignal }): Promise<AsyncIterable<ChatCompletionChunk>>;
}

/** Line breaks of an event stream (CRLF, LF or CR). */
const LINE_BREAK = /\r\n|\r|\n/;

/** The data of each event of `res`'s event stream (its `data:` lines joined), as each completes. */
async function* eventData(res: IncomingMessage): AsyncGenerator<string> {
  res.setEncoding('utf8');
  let pending = '';
  let data: string[] = [];
  for await (const text of res as AsyncIterable<string>) {
    pending += text;
    // A CR that ends the text may be half of a CRLF: it waits for the next text.
    const held = pending.endsWith('\r') ? 1 : 0;
    const lines = pending.slice(0, pending.length - held).split(LINE_BREAK);
    pending = lines.pop()! + (held ? '\r' : '');
    for (const line of lines) {
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5));
    }
  }
}

async function textOf(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const part of res as AsyncIterable<string>) text += part;
  return text;
}

const headersOf = (res: IncomingMessage): Headers => new Headers(flatten(res.headers));

/** The error the openai client made of an answer that is not a success. */
async function statusError(res: IncomingMessage): Promise<APIError> {
  const text = await textOf(res).catch((err: unknown) => (err as Error).message);
  let json: object | undefined;
  try {
    json = JSON.parse(text) as object;
  } catch {
    json = undefined;
  }
  return APIError.generate(res.statusCode!, json, json ? undefined : text, headersOf(res));
}

/** The chunks of a streamed answer; it ends quietly when `signal` aborts it, as the openai client's stream did. */
async function* chunksOf(res: IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<ChatCompletionChunk> {
  const abort = () => res.destroy();
  signal?.addEventListener('abort', abort, { once: true });
  let ended = false;
  try {
    if (signal?.aborted) return;
    let done = false;
    for await (const data of eventData(res)) {
      // The stream is read to its end after [DONE], so its connection is kept.
      if (done) continue;
      if (data.startsWith('[DONE]')) {
        done = true;
        continue;
      }
      const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: unknown };
      if (chunk?.error) throw new APIError(undefined, chunk.error as object, undefined, headersOf(res));
      yield chunk;
    }
    ended = true;
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  } finally {
    signal?.removeEventListener('abort', abort);
    // Left before its end (the caller stopped reading, or an error): the connection cannot be reused.
    if (!ended) res.destroy();
  }
}

export function createModelClient(opts: {
  baseURL: string;
  apiKey?: string;
  defaultModel: string;
  /** ANSWER_TIMEOUT_MS unless given (tests). */
  answerTimeoutMs?: number;
}): ModelClient {
  const url = new URL(`${opts.baseURL.replace(/\/+$/, '')}/chat/completions`);
  const agent = agents[url.protocol];
  if (!agent) throw new TypeError(`unsupported protocol ${url.protocol}`);
  const request = url.protocol === 'https:' ? https.request : http.request;
  const authorization = `Bearer ${opts.apiKey ?? 'unused'}`;
  const timeoutMs = opts.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;

  /** POSTs `body`; answers once the answer's status is a success, else throws the error the openai client threw. */
  const post = (body: object, signal: AbortSignal | undefined) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      if (signal?.aborted) return reject(new APIUserAbortError());
      const text = JSON.stringify(body);
      const req = request(url, {
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          authorization,
        },
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
      }, timeoutMs);
      const abort = () => req.destroy();
      signal?.addEventListener('abort', abort, { once: true });
      const settled = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
      };
      req.on('response', (res) => {
        settled();
        if (res.statusCode! >= 200 && res.statusCode! < 300) resolve(res);
        else statusError(res).then(reject, reject);
      });
      req.on('error', (err) => {
        settled();
        if (signal?.aborted) reject(new APIUserAbortError());
        else if (timedOut) reject(new APIConnectionTimeoutError());
        else reject(new APIConnectionError({ cause: err }));
      });
      req.end(text);
    });

  return {
    defaultModel: opts.defaultModel,
    complete: async (body) => JSON.parse(await textOf(await post(body, undefined))) as ChatCompletion,
    stream: async (body, { signal } = {}) => chunksOf(await post(body, signal), signal),
  };
}
