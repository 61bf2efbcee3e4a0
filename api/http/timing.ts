// Server-Timing: where a request's time went before it was answered (auth, the turn's reads, the
// model's first response, the wait for the user's message to be stored). Callers see it in their
// browser tools or logs; `make bench` reads it to break down the time Switchboard adds.
import type { RequestHandler } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    timing?: Timing;
  }
}

class Timing {
  private last = performance.now();
  private readonly entries: string[] = [];

  /** Closes the phase `name`: the time since the previous mark (or the request's arrival). */
  mark(name: string): void {
    const now = performance.now();
    this.entries.push(`${name};dur=${(now - this.last).toFixed(2)}`);
    this.last = now;
  }

  get header(): string {
    return this.entries.join(', ');
  }
}

export const startTiming: RequestHandler = (req, _res, next) => {
  req.timing = new Timing();
  next();
};
