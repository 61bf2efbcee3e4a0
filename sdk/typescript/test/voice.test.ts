// The Voice API through the SDK: a call placed on the simulated network and its result waited for,
// and one call for two placements with the same key.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { Switchboard, VoiceApiError } from '@switchboard/sdk';

/** On the simulated network: a callee who answers, says a few lines and hangs up. */
const CALLEE = '+12025550110';

const sb = new Switchboard({ baseUrl: process.env.SWITCHBOARD_URL, apiKey: process.env.SWITCHBOARD_API_KEY });

test('a placed call and its result, waited for', async () => {
  const call = await sb.calls.create({ to: CALLEE, task: 'Ask about the budget', metadata: { order: 'A-1' } });
  assert.match(call.id, /^cal_/);
  assert.equal(call.status, 'queued');
  const result = await sb.calls.result(call.id, { wait: 60 });
  assert.equal(result.final, true);
  assert.equal(result.call_id, call.id);
  assert.equal(result.status, 'completed');
  assert.deepEqual(result.metadata, { order: 'A-1' });
  assert.ok(result.transcript.some((line) => line.speaker === 'caller'));
  assert.equal((await sb.calls.get(call.id)).status, 'completed');
});

test('a key given by the caller places one call for two requests', async () => {
  const idempotencyKey = randomUUID();
  const first = await sb.calls.create({ to: '+12025550118', task: 'Remind about the visit' }, { idempotencyKey });
  const again = await sb.calls.create({ to: '+12025550118', task: 'Remind about the visit' }, { idempotencyKey });
  assert.equal(again.id, first.id);
});

test('a ringing call cannot be steered yet; hung up, it ends canceled', async () => {
  // This callee's phone rings for a minute.
  const call = await sb.calls.create({ to: '+12025550115', task: 'Leave no message' });
  const notLive = await sb.calls.steer(call.id, { say: 'Hello?' }).then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(notLive instanceof VoiceApiError);
  assert.equal(notLive.status, 409);
  assert.equal(notLive.code, 'not_live');
  assert.equal((await sb.calls.hangup(call.id)).status, 'canceled');
  const result = await sb.calls.result(call.id, { wait: 30 });
  assert.deepEqual([result.final, result.status], [true, 'canceled']);
});
