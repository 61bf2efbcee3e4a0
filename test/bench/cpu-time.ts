// CPU time spent by a benchmark's own threads and by Postgres (Linux's /proc): busy cores shared
// with other work change a rate, so the CPU a job costs each part is recorded beside it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second, the unit of /proc's CPU times; null where there is no /proc. */
const TICKS_PER_SECOND: number | null = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return null;
  }
})();

/** utime + stime of a /proc stat line, in ms (its command may hold spaces, so the fields are read after its closing parenthesis). */
function cpuMsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND!;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** This process's threads (their ids), or none where there is no /proc. */
export const ownThreads = (): Set<string> => (TICKS_PER_SECOND === null ? new Set() : new Set(readdirSync('/proc/self/task')));

/** The CPU ms of this process's threads `ids` so far; null where there is no /proc. */
export function threadsCpuMs(ids: string[]): number | null {
  if (TICKS_PER_SECOND === null || !ids.length) return null;
  return ids.reduce((sum, id) => {
    const stat = read(`/proc/self/task/${id}/stat`);
    return stat ? sum + cpuMsOf(stat) : sum;
  }, 0);
}

/** The CPU ms of every Postgres process on this machine so far (the benchmarks' database is local); null where there is no /proc. */
export function postgresCpuMs(): number | null {
  if (TICKS_PER_SECOND === null) return null;
  let sum = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = read(`/proc/${pid}/stat`);
    if (stat?.includes(' (postgres) ')) sum += cpuMsOf(stat);
  }
  return sum;
}
