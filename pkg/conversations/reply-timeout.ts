// The spec's synchronous turn timeout: the caller gets 504 past it, while the turn itself still
// finishes and is recorded (only the caller stops waiting).
import type { Ctx } from '../context.js';
import { DomainError, GatewayTimeout } from '../errors.js';

/** `turn`'s result, or GatewayTimeout once SWITCHBOARD_TURN_TIMEOUT_SEC pass first. */
export async function replyWithinTimeout<T>(ctx: Pick<Ctx, 'config' | 'log'>, conversationId: string, turn: Promise<T>): Promise<T> {
  const timeoutSec = ctx.config.SWITCHBOARD_TURN_TIMEOUT_SEC;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayTimeout(`Agent turn exceeded the ${timeoutSec} s timeout`)), timeoutSec * 1000);
  });
  // A turn that fails after the caller stopped waiting is still worth a line in the log.
  turn.catch((err) => {
    if (!(err instanceof DomainError) || err.status >= 500) ctx.log.warn({ err: (err as Error).message, conversationId }, 'turn failed');
  });
  try {
    return await Promise.race([turn, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
