import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

describe('README.md', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('has the two-command quick start', () => {
    expect(readme).to.include('make run');
    expect(readme).to.include('make test');
  });

  it('links only to files of the repository that exist', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(targets).to.not.be.empty;
    const bad = targets.filter((t) => {
      if (/^[a-z]+:/i.test(t)) return true;
      const path = resolve(dirname('README.md'), t);
      return relative(process.cwd(), path).startsWith('..') || !existsSync(path);
    });
    expect(bad, 'links that leave the repository or point at no file').to.deep.equal([]);
  });
});
