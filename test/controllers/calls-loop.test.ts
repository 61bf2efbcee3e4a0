import { expect } from 'chai';
import { callsReconciler } from '../../controllers/calls.js';
import { ControllerManager } from '../../controllers/manager.js';
import { notify } from '../../pkg/db/notify.js';
import { createGateway } from '../../pkg/voice/gateways/index.js';
import { callStatus, finalResult, startCallsApp, type CallsApp } from '../support/calls.js';
import { eventually } from '../support/eventually.js';
import { heldReply } from '../support/triggers.js';

describe("The calls controller's loop", () => {
  let app: CallsApp;
  let manager: ControllerManager;
  let sweeps = 0;
  before(async () => {
    app = await startCallsApp();
    const calls = callsReconciler(createGateway(app.runtime.ctx), 10);
    const sweep = calls.sweep;
    calls.sweep = async (ctx) => {
      sweeps++;
      await sweep(ctx);
    };
    manager = new ControllerManager(app.runtime.ctx, [calls], { concurrency: 10, leaseMs: 60_000, graceMs: 1_000, maxIdleMs: 600_000 });
    await manager.start();
  });
  after(async () => {
    await manager?.stop();
    await app?.close();
  });

  it('is not woken by the changes of a call it conducts (steering, here), which the call acts on itself', async () => {
    const { client } = await app.voiceCompany();
    const task = 'Steered five times';
    const held = heldReply({ content: 'Hello, one moment.' });
    app.script(
      task,
      held.reply,
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', note: 'Steered' } }] },
      { content: 'Goodbye!' },
    );
    const placed = await client.post('/v1/calls', { to: '+1 202 555 0120', task });
    expect(placed.status).to.equal(201);
    await callStatus(client, placed.body.id, 'in-progress');
    await eventually('the agent asked', () => app.model.requests.some((r) => JSON.stringify(r.messages).includes(task)));
    const { db, notifier } = app.runtime.ctx;
    let marked!: () => void;
    const markerHeard = new Promise<void>((resolve) => (marked = resolve));
    const unsubscribe = await notifier.subscribe('calls_loop_test_marker', () => marked());
    const before = sweeps;
    for (let i = 1; i <= 5; i++)
      expect((await client.post(`/v1/calls/${placed.body.id}/steer`, { instruction: `Steer ${i}` })).status).to.equal(202);
    // Announced after the steering, heard after every steer's announcement (one listen connection, in commit order).
    await notify(db, 'calls_loop_test_marker');
    await markerHeard;
    unsubscribe();
    // A loop that heard them would have begun to look by the next turn; a slow machine can only hide a fault here, never invent one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(sweeps, 'looks while the call was steered').to.equal(before);
    held.release();
    // The call took every instruction, and ended: the loop, woken by its end, looked again.
    const result = await finalResult(client, placed.body.id);
    expect(result.result).to.deep.include({ outcome: 'completed' });
    const last = app.model.requests.filter((r) => JSON.stringify(r.messages).includes(task)).at(-1)!;
    expect(JSON.stringify(last.messages)).to.include('Steer 5');
    await eventually('the loop to look once the call ended', async () => sweeps > before);
  });
});
