// `make drill`'s fuzz: at least 20,000 requests (FUZZ_COUNT) on every endpoint against the real app on a
// scratch database, its figures written as the fuzz section of test/drill/results.md; fails on any violation.
import { fileURLToPath } from 'node:url';
import { startTestApp } from '../support/app.js';
import { createScratchDatabase } from '../support/database.js';
import { writeSection } from '../drill/results.js';
import { FIXED_SEED, seedsOfRun } from './seeds.js';
import { fuzz, summary, type FuzzFigures } from './run.js';

const RESULTS = fileURLToPath(new URL('../../../test/drill/results.md', import.meta.url));

const statusesOf = (statuses: Map<number, number>): string =>
  [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

function section(f: FuzzFigures, count: number): string {
  const all = new Map<number, number>();
  for (const { statuses } of f.endpoints.values()) for (const [s, n] of statuses) all.set(s, (all.get(s) ?? 0) + n);
  const serverErrors = [...all.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const rows = [...f.endpoints.entries()].map(([endpoint, t]) => {
    const violations = f.violations.filter((v) => v.endpoint === endpoint).length;
    return `| \`${endpoint}\` | ${t.requests} | ${statusesOf(t.statuses)} | ${violations} |`;
  });
  return [
    '## Bad input: every endpoint fuzzed from its served document',
    '',
    `Run ${new Date().toISOString()}: ${f.requests} requests (asked ${count}) over ${f.endpoints.size} endpoints in ${(f.ms / 1000).toFixed(1)} s, ` +
      `seeds ${f.seeds.join(' and ')} (fixed ${FIXED_SEED}; replay the other with \`FUZZ_SEED=<seed> make drill\`).`,
    '',
    `| Must hold | Figure |`,
    `|---|---|`,
    `| Responses 5xx (or no answer) | ${serverErrors} |`,
    `| Violations (5xx, a refusal not in its API's shape, a success not matching the document, another account's id reached, an expected status missed) | ${f.violations.length} |`,
    `| Statuses | ${statusesOf(all)} |`,
    `| Slowest answer | ${(f.slowest.ms / 1000).toFixed(1)} s: \`${f.slowest.endpoint}\` (${f.slowest.kind}) |`,
    '',
    '| Endpoint | Requests | Statuses | Violations |',
    '|---|---|---|---|',
    ...rows,
    ...(f.violations.length ? ['', '```', summary(f.violations, 100), '```'] : []),
    '',
  ].join('\n');
}

const count = Number(process.env.FUZZ_COUNT ?? 20_000);
const seeds = seedsOfRun();
console.log(`fuzz: ${count} requests, seeds ${seeds.join(' and ')}`);
const database = await createScratchDatabase();
const app = await startTestApp({ databaseUrl: database.url });
let figures: FuzzFigures;
try {
  figures = await fuzz(app, { count, seeds, log: console.log });
} finally {
  await app.close();
  await database.drop();
}
writeSection(RESULTS, 'fuzz', section(figures, count));
console.log(
  `fuzz: ${figures.requests} requests in ${(figures.ms / 1000).toFixed(1)} s, ${figures.violations.length} violations; wrote ${RESULTS}`,
);
console.log(`fuzz: slowest answer ${figures.slowest.ms} ms: ${figures.slowest.request}`);
if (figures.violations.length) {
  console.log(summary(figures.violations));
  process.exitCode = 1;
}
