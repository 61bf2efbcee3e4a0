import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { configSchema } from '../../pkg/config.js';

describe('docs/guides/configuration.md', () => {
  const page = readFileSync('docs/guides/configuration.md', 'utf8');

  it('documents every environment variable the configuration reads', () => {
    const missing = Object.keys(configSchema.shape).filter((name) => !page.includes(`| \`${name}\` |`));
    expect(missing, 'add a row to the configuration table').to.deep.equal([]);
  });
});
