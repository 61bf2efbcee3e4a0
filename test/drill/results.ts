// test/drill/results.md: one section per drill between markers of its name, so each drill rewrites its
// own section and leaves the others' figures as they were.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const HEADER = '# Drill results\n\nWritten by `make drill`; each drill rewrites its own section.\n';

export function writeSection(file: string, name: string, text: string): void {
  const start = `<!-- drill:${name} -->`;
  const end = `<!-- /drill:${name} -->`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const block = `${start}\n${text.trimEnd()}\n${end}`;
  const at = current.indexOf(start);
  const until = current.indexOf(end);
  const next =
    at >= 0 && until > at ? current.slice(0, at) + block + current.slice(until + end.length) : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
