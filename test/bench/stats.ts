// Benchmark figures: nearest-rank percentiles in ms, rounded to µs.
export interface Stats {
  median: number;
  p99: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]! * 1000) / 1000;
  return { median: at(0.5), p99: at(0.99) };
}

/** The most intervals open at one instant (calls on the line at once). */
export function peakOverlap(intervals: { start: number; end: number }[]): number {
  const edges = intervals
    .flatMap((c) => [
      { at: c.start, d: 1 },
      { at: c.end, d: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let peak = 0;
  for (const e of edges) peak = Math.max(peak, (open += e.d));
  return peak;
}
