// One model call: a slot of the deployment's cap (pkg/limits/model-slots.ts) held while it runs, and
// a 429 or 5xx answer retried after a backoff that honours Retry-After. The retries are the call's
// own: a job's attempt is never spent on them.
import { APIError } from 'openai';
import type { Ctx } from '../context.js';
import { sleep } from '../clock.js';
import { DomainError } from '../errors.js';
import type { ModelSlot } from '../limits/model-slots.js';
import type { ModelClient } from './model.js';

/** The model's failure, told apart from the server's own (jobs map it to `failed`). */
export class ModelError extends DomainError {
  readonly status = 500;
  constructor(message: string) {
    super(message, 'model_error');
  }
}

/** Tries of one request, the first included: a provider's brief overload passes within a few; a longer one fails the turn rather than hold it. */
export const MODEL_MAX_TRIES = 4;
/** Longest wait of one request's retries together: a chat caller has given up long before (SWITCHBOARD_TURN_TIMEOUT_SEC). */
const MODEL_MAX_RETRY_WAIT_MS = 60_000;
/** Wait before the n-th retry when the model names none: 1 s, 2 s, 4 s…, each with jitter so replicas spread out. */
const backoffMs = (retry: number): number => 1000 * 2 ** (retry - 1) * (0.5 + Math.random() / 2);

const retryable = (err: unknown): err is APIError =>
  err instanceof APIError && err.status !== undefined && (err.status === 429 || err.status >= 500);

/** The wait a model asked for: `retry-after-ms` (OpenAI's), else `Retry-After` in seconds or as an HTTP date. */
function retryAfterMs(headers: Headers | undefined, now: Date): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** Sends with `send`, retrying a 429 or 5xx answer within MODEL_MAX_TRIES and MODEL_MAX_RETRY_WAIT_MS. */
async function retrying<R>(ctx: Pick<Ctx, 'clock' | 'log' | 'metrics'>, send: () => Promise<R>, signal?: AbortSignal): Promise<R> {
  let waited = 0;
  for (let tries = 1; ; tries++) {
    try {
      return await send();
    } catch (err) {
      if (!retryable(err)) throw err;
      const wait = retryAfterMs(err.headers, ctx.clock.now()) ?? backoffMs(tries);
      if (tries >= MODEL_MAX_TRIES || waited + wait > MODEL_MAX_RETRY_WAIT_MS) {
        throw tries > 1 ? new Error(`${err.message} (after ${tries} tries)`) : err;
      }
      waited += wait;
      ctx.metrics.modelRetries.inc({ status: String(err.status) });
      ctx.log.warn({ status: err.status, retryInMs: Math.round(wait), tries }, 'the model answered with an error; retrying');
      await sleep(ctx.clock, wait, signal);
      signal?.throwIfAborted();
    }
  }
}

type ModelCtx = Pick<Ctx, 'clock' | 'log' | 'metrics' | 'model' | 'modelSlots' | 'config'>;

/** Waits for a slot of the deployment's cap; a ModelError when none comes free in time. */
async function takeModelSlot(ctx: ModelCtx, signal?: AbortSignal): Promise<ModelSlot> {
  const slot = await ctx.modelSlots.acquire(signal);
  if (slot) return slot;
  signal?.throwIfAborted();
  const { SWITCHBOARD_MODEL_WAIT_SEC: wait, SWITCHBOARD_MODEL_CONCURRENCY: cap } = ctx.config;
  throw new ModelError(`model request failed: no model slot came free within ${wait} s (SWITCHBOARD_MODEL_CONCURRENCY is ${cap})`);
}

/**
 * The model slot of a whole turn, taken before its conversation's lock (TurnLocks.withLock's
 * `first`), so a turn waiting for a slot holds up no other turn of its conversation.
 */
export function turnModelSlot(ctx: ModelCtx) {
  let held: ModelSlot | undefined;
  return {
    take: async () => {
      held = await takeModelSlot(ctx);
    },
    get slot() {
      return held;
    },
    release: () => held?.release(),
  };
}

/**
 * Sends the request with `send` (retried as above) and reads the answer with `read`, in `slot` (the
 * caller's, which it releases) or else in one taken for this call. A streamed answer is read only
 * once `send` has succeeded, so a request is retried only before its first token.
 */
export async function modelCall<R, T>(
  ctx: ModelCtx,
  send: (model: ModelClient) => Promise<R>,
  read: (answer: R) => Promise<T>,
  { signal, slot }: { signal?: AbortSignal; slot?: ModelSlot } = {},
): Promise<T> {
  const own = slot ? null : await takeModelSlot(ctx, signal);
  try {
    return await read(await retrying(ctx, () => send(ctx.model), signal));
  } finally {
    own?.release();
  }
}
