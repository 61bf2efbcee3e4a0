// A call on the line held by one controller: what it says is heard and written to the transcript,
// and before acting it checks the call is still live and still its own.
import type { Ctx } from '../context.js';
import { callById } from '../store/calls/get.js';
import type { CallRow } from '../store/calls/row.js';
import { appendTranscript } from '../store/calls/transcript.js';
import type { Line } from './gateways/index.js';
import { isLive } from './state.js';

export abstract class HeldCall {
  constructor(
    protected readonly ctx: Ctx,
    protected readonly line: Line,
    protected row: CallRow,
    protected readonly owner: string,
  ) {}

  protected async speak(text: string): Promise<void> {
    await this.line.say(text);
    await appendTranscript(this.ctx, this.row.id, { speaker: 'agent', text });
  }

  /** Whether this loop still holds a live call (the API may have hung up, the lease may be lost); reads the row again. */
  protected async stillOurs(): Promise<boolean> {
    return this.isOurs(await callById(this.ctx.db, this.row.id));
  }

  /** Whether `row`, as just read, is still live and this loop's; if so it is the row acted on from now. */
  protected isOurs(read: CallRow | undefined): boolean {
    const ours = read !== undefined && read.lease_owner === this.owner && isLive(read.status);
    if (ours) this.row = read;
    return ours;
  }
}
