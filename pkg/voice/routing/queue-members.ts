// Who a queued caller rings next: the longest-idle available member not rung yet who is not on
// another caller's call; while every one left is, the caller waits until one comes free.
import type { Ctx } from '../../context.js';
import { CHANNELS } from '../../db/notify.js';
import { membersOnCalls, membersToRing, takeMember, type Queue, type QueueMember } from '../../store/queues.js';
import { LIVE } from '../state.js';
import { queueOfStep } from './step-targets.js';

/** Announcements that may free a member: the queue's releases (and members made available), and changes of the calls holding them (a call that ends frees its member). */
async function watchReleases(ctx: Pick<Ctx, 'notifier'>, queueId: string) {
  /** Heard while not waiting (the reads before a wait); judged when the wait starts. */
  const earlier = new Set<string>();
  let waiting: { holders: string[]; wake: () => void } | null = null;
  const frees = (payload: string, holders: string[]) => payload === queueId || payload === '' || holders.includes(payload);
  const hear = (payload: string) => {
    if (!waiting) earlier.add(payload);
    else if (frees(payload, waiting.holders)) waiting.wake();
  };
  const stops = [await ctx.notifier.subscribe(CHANNELS.queues, hear), await ctx.notifier.subscribe(CHANNELS.calls, hear)];
  return {
    /** Resolves once something may have freed a member held by one of `holders` (or at once when it was heard already), or on abort. */
    async freed(holders: string[], signal: AbortSignal): Promise<void> {
      if (![...earlier].some((p) => frees(p, holders))) {
        await new Promise<void>((wake) => {
          waiting = { holders, wake };
          if (signal.aborted) wake();
          else signal.addEventListener('abort', () => wake(), { once: true });
        });
      }
      waiting = null;
      earlier.clear();
    },
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

/** Members of the queue on a live call from it, each with that call's id. */
export const busyMembers = (ctx: Pick<Ctx, 'db'>, queueId: string): Promise<Map<string, string>> => membersOnCalls(ctx, queueId, LIVE);

/**
 * The next member to ring for `callId`, taken for it (others' callers do not ring them until it is
 * released); null when every available member was rung, or on abort.
 */
export async function nextMember(
  ctx: Ctx,
  queue: Queue,
  callId: string,
  rung: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<QueueMember | null> {
  // Listening before reading: a member freed after the reads still wakes the wait.
  const releases = await watchReleases(ctx, queue.id);
  try {
    while (!signal.aborted) {
      // Read again each time: a member switched available or away meanwhile counts; a deleted queue has nobody.
      const current = await queueOfStep(ctx, queue.tenantId, queue.id);
      const left = current ? (await membersToRing(ctx, current)).filter((m) => !rung.has(m.id)) : [];
      if (left.length === 0) return null;
      for (const member of left) if (await takeMember(ctx, queue.id, member.id, callId, LIVE)) return member;
      const busy = await busyMembers(ctx, queue.id);
      const holders = left.map((m) => busy.get(m.id));
      // One freed since it was refused: look again at once.
      if (holders.every((h) => h !== undefined)) await releases.freed(holders as string[], signal);
    }
    return null;
  } finally {
    releases.stop();
  }
}
