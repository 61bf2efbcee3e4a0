// The benchmarks' submitters: a number of calls made by a few callers at once.

/** Runs `count` calls of `fn` with `parallel` of them in flight, collecting their results. */
export async function inParallel<T>(count: number, parallel: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) out.push(await fn(next++));
    }),
  );
  return out;
}
