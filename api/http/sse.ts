// Server-sent events: one `data: <json>` line per event.
import type { Response } from 'express';

export interface SseStream {
  send(event: Record<string, unknown>): void;
  end(): void;
  readonly closed: boolean;
}

export function openSse(res: Response): SseStream {
  res.status(200);
  if (res.req.timing) res.setHeader('Server-Timing', res.req.timing.header);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  // Each event goes out as soon as it is written: time to first token matters more than packets.
  res.socket?.setNoDelay(true);
  // The headers go out with the first event when it is ready at once (one packet, not two),
  // otherwise on their own, so a client waiting on a slow model knows the turn has begun.
  const early = setImmediate(() => res.flushHeaders());
  let closed = false;
  res.on('close', () => {
    closed = true;
    clearImmediate(early);
  });
  return {
    send(event) {
      clearImmediate(early);
      if (closed) return;
      // Events written together (a burst the model sent at once) leave in one packet: the first is
      // not held back, only joined by those already at hand.
      if (!res.writableCorked) {
        res.cork();
        process.nextTick(() => res.uncork());
      }
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      clearImmediate(early);
      if (!closed) res.end();
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}
