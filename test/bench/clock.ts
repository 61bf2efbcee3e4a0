// One clock for all the threads of a benchmark: process.hrtime is the process's monotonic clock,
// where each thread's performance.now() counts from that thread's own start.
import { performance } from 'node:perf_hooks';

/** Now on the process's monotonic clock, in milliseconds. */
export const hrMs = (): number => Number(process.hrtime.bigint()) / 1e6;

const offsetMs = hrMs() - performance.now();

/** A performance.now() reading of this thread on hrMs's clock. */
export const hrMsOf = (performanceMs: number): number => performanceMs + offsetMs;
