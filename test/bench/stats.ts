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
