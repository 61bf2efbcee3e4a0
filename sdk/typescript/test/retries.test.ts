// Retries where they are safe: a POST whose answer was lost (replaced here by a 503, as a proxy might
// answer) is sent again only when it carries an idempotency key, and then does its work once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentApiError, Switchboard } from '@switchboard/sdk';

const agentId = process.env.AGENT_ID!;
const sb = new Switchboard({ baseUrl: process.env.SWITCHBOARD_URL, apiKey: process.env.SWITCHBOARD_API_KEY });

/** A client whose first answer to a POST of `path` reaches the server's work but is lost: what each try sent, and that first answer. */
function losingFirstAnswer(path: string) {
  const sent: Request[] = [];
  const lost: unknown[] = [];
  const client = new Switchboard({
    baseUrl: process.env.SWITCHBOARD_URL,
    apiKey: process.env.SWITCHBOARD_API_KEY,
    fetch: async (request) => {
      const matched = request.method === 'POST' && new URL(request.url).pathname === path;
      if (matched) sent.push(request.clone());
      const response = await fetch(request);
      if (!matched || sent.length > 1) return response;
      lost.push(await response.json());
      return new Response('{"error":"lost"}', { status: 503, headers: { 'retry-after': '0' } });
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
