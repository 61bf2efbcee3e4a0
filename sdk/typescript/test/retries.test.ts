// Retries where they are safe: a POST whose answer was lost (replaced here by a 503, as a proxy might
// answer) is sent again only when it carries an idempotency key, and then does its work once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentApiError, Switchboard, SwitchboardError, type SwitchboardOptions } from '@switchboard/sdk';

const agentId = process.env.AGENT_ID!;
const sb = new Switchboard({ baseUrl: process.env.SWITCHBOARD_URL, apiKey: process.env.SWITCHBOARD_API_KEY });

/**
 * A client whose first answer to a POST of `path` reaches the server's work but is lost (a 503 with
 * `lostHeaders` instead): what each try sent, and that first answer.
 */
function losingFirstAnswer(path: string, lostHeaders: Record<string, string> = { 'retry-after': '0' }, options: SwitchboardOptions = {}) {
  const sent: Request[] = [];
  const lost: unknown[] = [];
  const client = new Switchboard({
    baseUrl: process.env.SWITCHBOARD_URL,
    apiKey: process.env.SWITCHBOARD_API_KEY,
    ...options,
    fetch: async (request) => {
      const matched = request.method === 'POST' && new URL(request.url).pathname === path;
      if (matched) sent.push(request.clone());
      const response = await fetch(request);
      if (!matched || sent.length > 1) return response;
      lost.push(await response.json());
      return new Response('{"error":"lost"}', { status: 503, headers: lostHeaders });
    },
  });
  return { client, sent, lost };
}

test('a call placement is sent again with the same Idempotency-Key and rings once', async () => {
  const { client, sent, lost } = losingFirstAnswer('/v1/calls');
  const to = '+12025550117';
  const call = await client.calls.create({ to, task: 'Confirm the order' });
  assert.equal(sent.length, 2);
  const [first, again] = sent.map((r) => r.headers.get('idempotency-key'));
  assert.ok(first);
  assert.equal(again, first);
  assert.equal(call.id, (lost[0] as { id: string }).id);
  const placed = await sb.calls.list({ to });
  assert.deepEqual(
    placed.data.map((c) => c.id),
    [call.id],
  );
});

test('a job is sent again with the idempotency key made for it and runs once', async () => {
  const { client, sent, lost } = losingFirstAnswer('/api/v1/triggers');
  const job = await client.jobs.create({ agentId, task: 'Count the boxes' });
  assert.equal(sent.length, 2);
  const [first, again] = await Promise.all(sent.map(async (r) => (await r.json()).idempotencyKey));
  assert.ok(first);
  assert.equal(again, first);
  assert.equal(job.triggerId, (lost[0] as { triggerId: string }).triggerId);
  assert.equal(job.idempotent, true);
  const listed = await sb.jobs.list(job.conversationId);
  assert.equal(listed.triggers.length, 1);
});

test('a POST without an idempotency key is not sent again after a 503', async () => {
  const { client, sent } = losingFirstAnswer('/api/v1/conversations');
  const err = await client.conversations.create({ agentId }).then(
    () => assert.fail('expected the 503'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof AgentApiError);
  assert.equal(err.status, 503);
  assert.equal(err.message, 'lost');
  assert.equal(sent.length, 1);
});

/** The error `promise` rejects with. */
const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => assert.fail('expected the 503'),
    (e: unknown) => e,
  );

test('a 503 without Retry-After is not sent again, even with an idempotency key', async () => {
  const { client, sent } = losingFirstAnswer('/v1/calls', {});
  const err = await rejection(client.calls.create({ to: '+12025550116', task: 'Confirm the order' }));
  // Not the Voice API's shape (a proxy's answer): a SwitchboardError.
  assert.ok(err instanceof SwitchboardError);
  assert.equal(err.status, 503);
  assert.equal(err.retryAfterSec, undefined);
  assert.equal(sent.length, 1);
});

test('a Retry-After longer than maxRetryWaitSec is not waited for: the error is thrown at once', async () => {
  for (const [retryAfter, options] of [
    ['61', {}],
    ['5', { maxRetryWaitSec: 4 }],
  ] as const) {
    const { client, sent } = losingFirstAnswer('/api/v1/triggers', { 'retry-after': retryAfter }, options);
    const err = await rejection(client.jobs.create({ agentId, task: 'Count the crates' }));
    assert.ok(err instanceof AgentApiError);
    assert.equal(err.status, 503);
    assert.equal(err.retryAfterSec, Number(retryAfter));
    assert.equal(sent.length, 1);
  }
});
