// Where the benchmark's webhook receivers count, in a Float64Array over shared memory.
export const COUNTER = { received: 0, violations: 1, firstMs: 2, lastMs: 3 } as const;
export const COUNTERS = 4;
