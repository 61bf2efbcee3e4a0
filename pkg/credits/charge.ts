// Credit charging: what a turn (a chat turn, a job run, a call's turn) costs and when it is charged.
// A turn costs its tokens, SWITCHBOARD_CREDITS_PER_1K_TOKENS per thousand, entered in the ledger
// (pkg/store/credits.ts) under reference type `api` once: by its closing transaction when its caller
// closes it in one (chat, jobs), else when it ends. A turn that fails first is charged for the model
// calls it finished, since they consumed credits too.
import type { Ctx } from '../context.js';
import type { HeldLock } from '../db/locks.js';
import { inOneTransaction, type Sends } from '../db/statements.js';
import { addCredits, type SpentBy } from '../store/credits.js';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export const noUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

type ChargeCtx = Pick<Ctx, 'db' | 'clock' | 'config' | 'metrics' | 'log'> & Sends;

/** The charge of one turn: every runTurn is given one, by the caller that knows whom and what it bills. */
export class TurnCharge {
  /** The tokens of the turn's finished model calls. */
  readonly usage: Usage = noUsage();
  /** Set once a charge is under way (in the closing transaction or on its own): a turn is never charged twice. */
  private charging = false;

  /** `referenceId`: what the ledger entry names (the chat turn's user message, the job run's brief, the call); `spentBy`: the turn's kind and agent. */
  constructor(
    private readonly ctx: ChargeCtx,
    private readonly tenantId: string,
    private readonly spentBy: SpentBy,
    private readonly referenceId: () => string | Promise<string>,
  ) {}

  /** A model call finished: its tokens are the turn's. */
  add(usage: Usage): void {
    this.usage.promptTokens += usage.promptTokens;
    this.usage.completionTokens += usage.completionTokens;
    this.usage.totalTokens += usage.totalTokens;
  }

  /**
   * Closes the turn: `writes` (store functions given `tx`) and its charge, as the closing
   * transaction of its `lock` (pkg/db/locks.ts); returns what `writes` returns. The turn is then
   * charged by that transaction or not at all: a closing that fails is not charged after.
   */
  async close<T>(lock: Pick<HeldLock, 'close'>, writes: (tx: ChargeCtx) => Promise<T>): Promise<T> {
    this.charging = true;
    const referenceId = this.used() ? await this.referenceId() : null;
    const [written] = await inOneTransaction(
      this.ctx,
      (statements) => lock.close(statements),
      (tx) => Promise.all([writes(tx), referenceId === null ? null : this.charge(tx, referenceId)]),
    );
    if (referenceId !== null) this.meter();
    return written;
  }

  /** The turn ended without a closing transaction: it is charged now. */
  async ended(): Promise<void> {
    if (this.charging) return;
    this.charging = true;
    if (!this.used()) return;
    await this.charge(this.ctx, await this.referenceId());
    this.meter();
  }

  /** The turn failed: charged for its finished model calls unless its closing carried the charge; the turn's error is what the caller hears. */
  async failed(): Promise<void> {
    await this.ended().catch((err: Error) => this.ctx.log.error({ err, tenantId: this.tenantId }, 'charging a failed turn failed'));
  }

  private charge(ctx: ChargeCtx, referenceId: string): Promise<void> {
    return addCredits(ctx, this.tenantId, -this.credits(), 'api', referenceId, this.spentBy);
  }

  private used(): boolean {
    return this.usage.totalTokens > 0;
  }

  private credits(): number {
    return (this.usage.totalTokens / 1000) * this.ctx.config.SWITCHBOARD_CREDITS_PER_1K_TOKENS;
  }

  private meter(): void {
    this.ctx.metrics.modelTokens.inc({ tenant: this.tenantId, kind: 'prompt' }, this.usage.promptTokens);
    this.ctx.metrics.modelTokens.inc({ tenant: this.tenantId, kind: 'completion' }, this.usage.completionTokens);
    this.ctx.metrics.credits.inc({ tenant: this.tenantId }, this.credits());
  }
}
