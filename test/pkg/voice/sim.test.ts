import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../pkg/config.js';
import type { LineEvent } from '../../../pkg/voice/gateways/index.js';
import { createSimGateway, loadScenarios, type ScenarioTable } from '../../../pkg/voice/gateways/sim.js';
import { ManualClock } from '../../support/clock.js';
import { readWav } from '../../support/wav.js';
import { settledNow } from '../../support/settled.js';

const RING_MS = 2000;
const REPLY_MS = 500;
const table: ScenarioTable = {
  default: { scenario: 'answer', ring_ms: RING_MS, reply_ms: REPLY_MS, lines: ['Default hello?'] },
  numbers: {
    '+12025550101': { scenario: 'answer', ring_ms: RING_MS, reply_ms: REPLY_MS, lines: ['Hello?', 'Yes.'] },
    '+12025550102': { scenario: 'busy', ring_ms: RING_MS, reply_ms: 0, lines: [] },
    '+12025550103': { scenario: 'no-answer', ring_ms: RING_MS, reply_ms: 0, lines: [] },
    '+12025550104': { scenario: 'voicemail', ring_ms: RING_MS, reply_ms: REPLY_MS, lines: [] },
    '+12025550105': { scenario: 'fail', ring_ms: RING_MS, reply_ms: 0, lines: [] },
  },
};

const clock = new ManualClock();
const gateway = createSimGateway(table, clock);
const dial = (to: string) => gateway.dial({ callId: 'cal_test', from: '+12025550100', to });
/** Whether `event` has arrived: the sim pushes events as its timers fire, so a turn of the event loop settles it. */
const arrived = (event: Promise<LineEvent>): Promise<boolean> => settledNow(event);

describe('The simulated phone network', () => {
  it("answers and speaks the callee's lines, one after each thing said, then hangs up", async () => {
    const line = await dial('+12025550101');
    const events: LineEvent[] = [await line.next()];
    const answered = line.next();
    clock.advance(RING_MS - 1);
    expect(await arrived(answered)).to.equal(false);
    clock.advance(1);
    events.push(await answered, await line.next());
    await line.say('Hi, this is Acme.');
    const reply = line.next();
    clock.advance(REPLY_MS - 1);
    expect(await arrived(reply)).to.equal(false);
    clock.advance(1);
    events.push(await reply);
    await line.say('Goodbye.');
    clock.advance(REPLY_MS);
    events.push(await line.next());
    expect(events).to.deep.equal([
      { type: 'ringing' },
      { type: 'answered', machine: false },
      { type: 'speech', text: 'Hello?' },
      { type: 'speech', text: 'Yes.' },
      { type: 'ended', cause: 'callee_hangup' },
    ]);
  });

  for (const [to, end] of [
    ['+12025550102', 'busy'],
    ['+12025550103', 'no-answer'],
  ] as const) {
    it(`rings, then ends ${end}`, async () => {
      const line = await dial(to);
      expect(await line.next()).to.deep.equal({ type: 'ringing' });
      clock.advance(RING_MS);
      expect(await line.next()).to.deep.equal({ type: 'ended', cause: end });
    });
  }

  it('fails a call without ringing', async () => {
    const ended = (await dial('+12025550105')).next();
    expect(await arrived(ended)).to.equal(false);
    clock.advance(RING_MS);
    expect(await ended).to.deep.equal({ type: 'ended', cause: 'failed' });
  });

  it('lets an answering machine take a call, which only records', async () => {
    const line = await dial('+12025550104');
    expect(await line.next()).to.deep.equal({ type: 'ringing' });
    clock.advance(RING_MS);
    expect(await line.next()).to.deep.equal({ type: 'answered', machine: true });
    await line.say('Please call back.');
    clock.advance(60_000);
    expect(await arrived(line.next())).to.equal(false);
  });

  it('gives any other number the default scenario', async () => {
    const line = await dial('+4930123456');
    await line.next();
    clock.advance(RING_MS);
    await line.next();
    expect(await line.next()).to.deep.equal({ type: 'speech', text: 'Default hello?' });
  });

  it('stops at once when hung up: nothing more arrives', async () => {
    const line = await dial('+12025550101');
    expect(await line.next()).to.deep.equal({ type: 'ringing' });
    await line.hangup();
    clock.advance(RING_MS);
    expect(await arrived(line.next())).to.equal(false);
  });

  it('records what a caller says from the start of a recording as WAV audio, as long as saying it takes, at most as long as asked', async () => {
    const line = await gateway.pickUp({
      callId: 'cal_test',
      from: '+12025550150',
      to: '+12025550100',
      caller: { lines: ['Before.', 'Hi there, this is Dan calling about the invoice.', 'More.'], presses: [] },
    });
    const hear = async () => {
      await line.say('Go on.');
      clock.advance(0);
      return line.next();
    };
    expect(await hear()).to.deep.equal({ type: 'speech', text: 'Before.' });
    const recorder = line.record(2);
    expect(await hear()).to.deep.equal({ type: 'speech', text: 'Hi there, this is Dan calling about the invoice.' });
    expect(recorder.full).to.equal(true);
    const wav = readWav(await recorder.stop());
    expect(wav).to.deep.include({ format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, seconds: 2 });
    expect(wav.data.some((byte) => byte !== 0)).to.equal(true);
    await hear();
    expect(readWav(await recorder.stop()).seconds, 'nothing after the stop').to.equal(2);
  });

  it('ships a default table with every scenario on +1 202 555 01xx, replaceable by SWITCHBOARD_SIM_SCENARIOS', () => {
    const shipped = loadScenarios(undefined);
    expect(new Set(Object.values(shipped.numbers).map((s) => s.scenario))).to.deep.equal(
      new Set(['answer', 'busy', 'no-answer', 'voicemail', 'fail']),
    );
    for (const number of Object.keys(shipped.numbers)) expect(number).to.match(/^\+120255501\d\d$/);
    const path = join(tmpdir(), `sim-${process.pid}-own.json`);
    writeFileSync(path, JSON.stringify(table));
    expect(loadScenarios(path)).to.deep.equal(table);
    writeFileSync(path, JSON.stringify({ default: { scenario: 'explode' } }));
    expect(() => loadScenarios(path)).to.throw(ConfigError, /SWITCHBOARD_SIM_SCENARIOS: default.scenario/);
  });
});
