// The simulated phone network (DECISIONS.md): each number behaves as its scenario in a JSON table
// says — answer and speak the callee's lines, busy, no answer, voicemail, fail — after its ring
// time. Numbers not in the table get the default scenario. It never reaches a real phone.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { ConfigError } from '../../config.js';
import { EventQueue, type Gateway, type Line, type LineEvent, type Recorder } from './gateway.js';
import { SimCallerLine } from './sim-caller.js';
import { SimRecorder } from './sim-recorder.js';
import defaults from './sim-scenarios.json' with { type: 'json' };

const scenarioSchema = z
  .object({
    scenario: z.enum(['answer', 'busy', 'no-answer', 'voicemail', 'fail']),
    /** How long the phone rings before the scenario's outcome (for no-answer: before giving up). */
    ring_ms: z.int().min(0).max(600_000).default(2000),
    /** How long the callee takes to answer each thing the agent says. */
    reply_ms: z.int().min(0).max(60_000).default(0),
    /** What the callee says: the first line on answering, then one line after each thing the agent says; hangs up after the last. */
    lines: z.array(z.string().min(1)).default([]),
  })
  .strict();

const scenarioTableSchema = z.object({ default: scenarioSchema, numbers: z.record(z.string(), scenarioSchema).default({}) }).strict();

type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioTable = z.output<typeof scenarioTableSchema>;

/** The shipped table, or the one at `path` (SWITCHBOARD_SIM_SCENARIOS) instead. */
export function loadScenarios(path: string | undefined): ScenarioTable {
  let raw: unknown = defaults;
  if (path) {
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`invalid configuration: SWITCHBOARD_SIM_SCENARIOS: cannot read ${path}: ${(err as Error).message}`);
    }
  }
  const parsed = scenarioTableSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: SWITCHBOARD_SIM_SCENARIOS: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

class SimLine implements Line {
  private readonly events = new EventQueue<LineEvent>();
  /** Cancels the timers still to fire. */
  private readonly timers = new Set<() => void>();
  private closed = false;
  private answered = false;
  private spoken = 0;
  private recorder: SimRecorder | null = null;

  constructor(
    private readonly scenario: Scenario,
    private readonly clock: Clock,
  ) {
    if (scenario.scenario !== 'fail') this.emit({ type: 'ringing' });
    this.after(scenario.ring_ms, () => this.pickUp());
  }

  private emit(event: LineEvent): void {
    if (this.closed) return;
    if (event.type === 'ended') this.close();
    this.events.push(event);
  }

  private after(ms: number, fn: () => void): void {
    const cancel = this.clock.setTimer(ms, () => {
      this.timers.delete(cancel);
      fn();
    });
    this.timers.add(cancel);
  }

  private pickUp(): void {
    switch (this.scenario.scenario) {
      case 'answer':
        this.answered = true;
        this.emit({ type: 'answered', machine: false });
        this.speakNext();
        return;
      case 'voicemail':
        this.answered = true;
        this.emit({ type: 'answered', machine: true });
        return;
      case 'busy':
        this.emit({ type: 'ended', cause: 'busy' });
        return;
      case 'no-answer':
        this.emit({ type: 'ended', cause: 'no-answer' });
        return;
      case 'fail':
        this.emit({ type: 'ended', cause: 'failed' });
        return;
    }
  }

  /** The callee's next line, or hanging up when there is none left. */
  private speakNext(): void {
    const line = this.scenario.lines[this.spoken++];
    if (line !== undefined && !this.closed) this.recorder?.heard(line);
    this.emit(line === undefined ? { type: 'ended', cause: 'callee_hangup' } : { type: 'speech', text: line });
  }

  next(): Promise<LineEvent> {
    return this.events.next();
  }

  async say(): Promise<void> {
    // An answering machine only records; a person answers after a moment.
    if (!this.answered || this.closed || this.scenario.scenario !== 'answer') return;
    this.after(this.scenario.reply_ms, () => this.speakNext());
  }

  record(maxSec: number): Recorder {
    this.recorder = new SimRecorder(maxSec);
    return this.recorder;
  }

  private close(): void {
    this.closed = true;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  async hangup(): Promise<void> {
    this.close();
  }
}

export function createSimGateway(table: ScenarioTable, clock: Clock): Gateway {
  return {
    name: 'sim',
    dial: async ({ to }) => new SimLine(table.numbers[to] ?? table.default, clock),
    // A call ringing in comes from a simulated caller only (POST /v1/sim/calls), whose script it carries.
    pickUp: async ({ caller }) => new SimCallerLine(caller ?? { lines: [], presses: [] }, clock),
  };
}
