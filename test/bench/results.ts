// Where `make bench` leaves its figures: test/bench/results/<name>.json (everything measured) and
// <name>.md (the table, also printed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('../../../test/bench/results/', import.meta.url));

export function writeResults(name: string, result: unknown, table: string): void {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`${RESULTS}${name}.md`, table);
  process.stdout.write(table);
}
