// The model stand-in of the benchmarks, in a worker thread of its own so it never shares an event
// loop with the server it answers, as a real model server would not: it answers at once, in
// `workerData.chunks` when given. It keeps each request's own timings (asked for with 'timings')
// and can be told how to answer the streamed turns that follow ({ answer }); any other message closes it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestListener } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { startModelServer, type ModelReply } from '../../pkg/agent/openai-server.js';
import { hrMs } from './clock.js';

/**
 * How streamed turns are answered: at once; the first chunk, then nothing until the client closes; or
 * after a delay. `slow`: every request, streamed or not, after `ms` (a real model's wait, for jobs too).
 */
export type ModelAnswer = { type: 'at-once' } | { type: 'hold' } | { type: 'delay'; ms: number } | { type: 'slow'; ms: number };

export type ModelMessage = 'timings' | { answer: ModelAnswer } | 'close';

/** One request as the model saw it, in hrMs: arrived, wrote its first content chunk, and closed before finishing. */
export interface ModelTiming {
  streamed: boolean;
  lastUserMessage: string;
  receivedMs: number;
  firstChunkMs?: number;
  abortedMs?: number;
}

const { chunks } = (workerData ?? {}) as { chunks?: string[] };
const timings: ModelTiming[] = [];
const current = new AsyncLocalStorage<{ timing: ModelTiming; closed: Promise<void> }>();
let answer: ModelAnswer = { type: 'at-once' };

const lastUserMessage = (request: ChatCompletionCreateParams): string => {
  const last = request.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
};

const server = await startModelServer((request): ModelReply => {
  const reply = chunks ? { chunks, content: chunks.join('') } : { content: 'ok' };
  const seen = current.getStore()!;
  seen.timing.streamed = request.stream === true;
  seen.timing.lastUserMessage = lastUserMessage(request);
  if (answer.type === 'slow') return { ...reply, delayMs: answer.ms };
  if (!request.stream || answer.type === 'at-once') return reply;
  if (answer.type === 'delay') return { ...reply, delayMs: answer.ms };
  return { chunks: ['One moment, ', 'let me check that for you.'], holdAfterFirst: seen.closed };
});

// Each request runs with its timing record at hand, and its writes and close are watched.
const [answerRequest] = server.server.listeners('request') as RequestListener[];
server.server.removeAllListeners('request');
server.server.on('request', (req, res) => {
  const timing: ModelTiming = { streamed: false, lastUserMessage: '', receivedMs: hrMs() };
  timings.push(timing);
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  void closed.then(() => {
    if (!res.writableFinished) timing.abortedMs = hrMs();
  });
  const write = res.write.bind(res) as (chunk: unknown) => boolean;
  res.write = ((chunk: unknown) => {
    const written = write(chunk);
    if (timing.firstChunkMs === undefined && String(chunk).includes('"delta":{"content":')) timing.firstChunkMs = hrMs();
    return written;
  }) as typeof res.write;
  current.run({ timing, closed }, () => answerRequest!(req, res));
});

parentPort!.on('message', (message: ModelMessage) => {
  if (message === 'timings') return parentPort!.postMessage({ timings: timings.splice(0) });
  if (typeof message === 'object') return void (answer = message.answer);
  void server.close().then(() => parentPort!.close());
});
parentPort!.postMessage({ url: server.url });
