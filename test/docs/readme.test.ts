import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { configSchema } from '../../pkg/config.js';

describe('README.md', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('has the two-command quick start', () => {
    expect(readme).to.include('make run');
    expect(readme).to.include('make test');
  });

  it('documents every environment variable the configuration reads', () => {
    const missing = Object.keys(configSchema.shape).filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing, 'add a row to the configuration table').to.deep.equal([]);
  });
});
