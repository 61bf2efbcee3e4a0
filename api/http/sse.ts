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
  res.flushHeaders();
  // Each event goes out as soon as it is written: time to first token matters more than packets.
  res.socket?.setNoDelay(true);
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  return {
    send(event) {
      if (!closed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      if (!closed) res.end();
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}
