// The Agent API through the SDK: turns answered whole and streamed, cancelled, and a job waited for.
// The harness's model answers "Hello from Switchboard." to every message, and holds its answer
// after the first word when the message says "[hold]".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type StreamEvent, Switchboard, WaitTimeoutError } from '@switchboard/sdk';

const agentId = process.env.AGENT_ID!;
const sb = new Switchboard({ baseUrl: process.env.SWITCHBOARD_URL, apiKey: process.env.SWITCHBOARD_API_KEY });

test('a synchronous turn answers the whole reply', async () => {
  const conversation = await sb.conversations.create({ agentId });
  const reply = await sb.messages.send(conversation.conversationId, { message: 'Hello!' });
  assert.equal(reply.conversationId, conversation.conversationId);
  assert.equal(reply.message.content, 'Hello from Switchboard.');
  assert.ok(reply.usage.totalTokens > 0);
});

test('a streamed turn yields typed events, the text in pieces, then done', async () => {
  const { conversationId } = await sb.conversations.create({ agentId });
  const events: StreamEvent[] = [];
  let text = '';
  for await (const event of sb.messages.stream(conversationId, { message: 'Hello!' })) {
    events.push(event);
    if (event.type === 'content') text += event.content;
  }
  assert.equal(text, 'Hello from Switchboard.');
  assert.ok(events.filter((e) => e.type === 'content').length > 1, 'the reply arrives in several events');
  const done = events.at(-1);
  assert.equal(done?.type, 'done');
  if (done?.type === 'done') assert.equal(done.conversationId, conversationId);
});

test('aborting the signal ends a streamed turn mid-reply', async () => {
  const { conversationId } = await sb.conversations.create({ agentId });
  const controller = new AbortController();
  const seen: StreamEvent[] = [];
  await assert.rejects(
    async () => {
      for await (const event of sb.messages.stream(conversationId, { message: 'Tell me more [hold]' }, { signal: controller.signal })) {
        seen.push(event);
        controller.abort();
      }
    },
    (err: Error) => err.name === 'AbortError',
  );
  assert.deepEqual(seen, [{ type: 'content', content: 'Hello ' }]);
});

test('leaving the loop early aborts the request', async () => {
  const signals: AbortSignal[] = [];
  const recording = new Switchboard({
    baseUrl: process.env.SWITCHBOARD_URL,
    apiKey: process.env.SWITCHBOARD_API_KEY,
    fetch: (request) => {
      signals.push(request.signal);
      return fetch(request);
    },
  });
  const { conversationId } = await recording.conversations.create({ agentId });
  for await (const event of recording.messages.stream(conversationId, { message: 'And more [hold]' })) {
    assert.deepEqual(event, { type: 'content', content: 'Hello ' });
    break;
  }
  assert.equal(signals.length, 2);
  assert.equal(signals[0]!.aborted, false, 'the conversation was created without aborting');
  assert.equal(signals[1]!.aborted, true, 'the streamed request was aborted');
});

test('a job is waited for to its final status', async () => {
  const job = await sb.jobs.create({ agentId, task: 'Say hello' });
  assert.equal(job.status, 'queued');
  const finished = await sb.jobs.waitFor(job.triggerId, { timeoutMs: 60_000 });
  assert.equal(finished.status, 'succeeded');
  assert.equal(finished.resultSummary, 'Hello from Switchboard.');
  const listed = await sb.jobs.list(job.conversationId);
  assert.deepEqual(
    listed.triggers.map((t) => t.triggerId),
    [job.triggerId],
  );
});

test('a job not final in time is a WaitTimeoutError; cancelled, it is final', async () => {
  const job = await sb.jobs.create({ agentId, task: 'Call back tomorrow', delayMinutes: 60 });
  assert.equal(job.status, 'waiting');
  const err = await sb.jobs.waitFor(job.triggerId, { timeoutMs: 1000 }).then(
    () => assert.fail('expected a timeout'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof WaitTimeoutError);
  assert.equal(err.last.triggerId, job.triggerId);
  assert.equal(err.last.status, 'waiting');
  await sb.jobs.cancel(job.triggerId, { reason: 'Not needed' });
  assert.equal((await sb.jobs.waitFor(job.triggerId)).status, 'cancelled');
});

test('an event stream split at awkward places: CRLF across chunks, a character across chunks, a CR last', async () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const cafe = bytes('data: {"type":"content","content":"café"}\r\n');
  const at = cafe.indexOf(0xc3) + 1;
  const chunks = [
    // An event's JSON over two data lines, the CRLF between them split.
    bytes('data: {"type":"content",\r'),
    bytes('\ndata: "content":"one"}\r'),
    bytes('\n\r'),
    bytes('\n'),
    // A two-byte character split, then a blank line made of a lone CR at the very end.
    cafe.slice(0, at),
    cafe.slice(at),
    bytes('\r'),
  ];
  const stand = new Switchboard({
    baseUrl: 'http://switchboard.invalid',
    apiKey: 'sk_test',
    fetch: async () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    },
  });
  const events: StreamEvent[] = [];
  for await (const event of stand.messages.stream('c0ffee00-0000-4000-8000-000000000000', { message: 'Hi' })) events.push(event);
  assert.deepEqual(events, [
    { type: 'content', content: 'one' },
    { type: 'content', content: 'café' },
  ]);

  // An event the stream ends before its blank line is discarded (the SSE format).
  chunks.push(bytes('data: {"type":"content","content":"whole"}\n\n'), bytes('data: {"type":"content","content":"cut"}\n'));
  const rest: StreamEvent[] = [];
  for await (const event of stand.messages.stream('c0ffee00-0000-4000-8000-000000000000', { message: 'Hi' })) rest.push(event);
  assert.deepEqual(rest, [{ type: 'content', content: 'whole' }]);
});
