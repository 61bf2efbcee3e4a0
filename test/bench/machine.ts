// What a benchmark ran on, recorded with its results: figures mean little without the machine's load.
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export function machineInfo(loadBefore: number) {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    os: `${platform()} ${release()}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAverage1m: { before: loadBefore, after: loadavg()[0]! },
  };
}
