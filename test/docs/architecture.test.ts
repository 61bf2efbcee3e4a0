import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

describe('ARCHITECTURE.md', () => {
  const map = readFileSync('ARCHITECTURE.md', 'utf8');

  it('names only files and folders that exist', () => {
    // Every `cmd/…`, `api/…`, `controllers/…`, `pkg/…`, `test/…` or `charts/…` path in backticks.
    const paths = [...map.matchAll(/`((?:cmd|api|controllers|pkg|test|charts|crds)\/[\w./-]*)`/g)].map((m) => m[1]!);
    expect(paths.length).to.be.greaterThan(50);
    const missing = paths.filter((path) => !existsSync(path));
    expect(missing, 'ARCHITECTURE.md names what is no longer there').to.deep.equal([]);
  });

  it('maps every folder of pkg', () => {
    const folders = readdirSync('pkg', { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const unmapped = folders.filter((folder) => !map.includes(`\`${folder}/\``) && !map.includes(`pkg/${folder}/`));
    expect(unmapped).to.deep.equal([]);
  });
});
