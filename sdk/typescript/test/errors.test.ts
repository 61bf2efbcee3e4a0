// Each API's error shape as a typed error, and a 429 retried after its Retry-After.
// SWITCHBOARD_LIMITED_API_KEY is a key of an account allowed one request a minute.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { AgentApiError, Switchboard, SwitchboardError, VoiceApiError } from '@switchboard/sdk';

const baseUrl = process.env.SWITCHBOARD_URL;
const agentId = process.env.AGENT_ID!;
const sb = new Switchboard({ baseUrl, apiKey: process.env.SWITCHBOARD_API_KEY });

/** Asserts `promise` rejects with an error of `type` whose fields include `expected`; the error. */
async function refusal<E extends SwitchboardError>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
  expected: Partial<E>,
): Promise<E> {
  const err = await promise.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof type, `${String(err)} is not a ${type.name}`);
  assert.ok(err instanceof SwitchboardError);
  for (const [field, value] of Object.entries(expected)) assert.deepEqual(err[field as keyof E], value, field);
  assert.ok(err.requestId, 'the request id is kept');
  return err;
}

test('401: an unknown key, in each API', async () => {
  const stranger = new Switchboard({ baseUrl, apiKey: 'sk_live_unknown' });
  const agent = await refusal(stranger.conversations.create({ agentId }), AgentApiError, { status: 401, code: undefined });
  assert.equal(agent.message, agent.body.error);
  const voice = await refusal(stranger.calls.list(), VoiceApiError, { status: 401 });
  assert.equal(voice.code, voice.body.error.code);
  assert.equal(voice.message, voice.body.error.message);
});

test('404: an unknown job and an unknown call', async () => {
  await refusal(sb.jobs.get(randomUUID()), AgentApiError, { status: 404 });
  await refusal(sb.calls.get('cal_unknown'), VoiceApiError, { status: 404, code: 'not_found' });
});

test('400 of the Agent API names each refused field', async () => {
  const { conversationId } = await sb.conversations.create({ agentId });
  const err = await refusal(sb.messages.send(conversationId, { message: '' }), AgentApiError, { status: 400 });
  assert.deepEqual(
    err.details.map((d) => d.path),
    ['message'],
  );
});

test('422 and 400 of the Voice API: a refused value, and a query it cannot read', async () => {
  await refusal(sb.calls.create({ to: 'not a number' }), VoiceApiError, { status: 422, code: 'invalid_to' });
  // A field the document does not have: only a caller who bypasses the types can send it.
  await refusal(sb.calls.list({ page: 2 } as never), VoiceApiError, { status: 400, code: 'invalid_json' });
});

test('429: refused at once without retries, retried after Retry-After otherwise', async () => {
  const apiKey = process.env.SWITCHBOARD_LIMITED_API_KEY;
  const statuses: number[] = [];
  const limited = new Switchboard({
    baseUrl,
    apiKey,
    fetch: async (request) => {
      const response = await fetch(request);
      statuses.push(response.status);
      return response;
    },
  });
  const impatient = new Switchboard({ baseUrl, apiKey, maxRetries: 0 });
  await limited.calls.list();
  const voice = await refusal(impatient.calls.list(), VoiceApiError, { status: 429, code: 'rate_limited' });
  assert.ok(voice.retryAfterSec! >= 1 && voice.retryAfterSec! <= 60);
  const agent = await refusal(impatient.jobs.get(randomUUID()), AgentApiError, { status: 429 });
  assert.ok(agent.retryAfterSec! >= 1);

  const page = await limited.calls.list();
  assert.deepEqual(page.data, []);
  assert.deepEqual(statuses, [200, 429, 200]);
});
