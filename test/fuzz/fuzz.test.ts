// Bad input on every endpoint (issue #20): the fuzz at a small count in the suite; `make drill` runs it full size.
import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { startJobsApp } from '../support/triggers.js';
import { FIXED_SEED, seedsOfRun } from './seeds.js';
import { fuzz, summary } from './run.js';

describe('Every endpoint of the Agent API, the Voice API and MCP, fuzzed from the documents it serves', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp();
  });
  after(async () => app?.close());

  it('answers no 5xx, every refusal in its API’s error shape, every success as its document says, and no other account’s ids', async function () {
    this.timeout(240_000);
    const seeds = seedsOfRun();
    console.log(`      fuzz seeds ${seeds.join(' and ')} (fixed ${FIXED_SEED}; replay with FUZZ_SEED=<seed>)`);
    const figures = await fuzz(app, { count: 1500, seeds });
    expect(figures.requests).to.be.at.least(1500);
    expect(figures.violations.length, `seeds ${seeds.join(', ')}:\n${summary(figures.violations)}`).to.equal(0);
  });
});
