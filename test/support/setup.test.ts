import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

describe('test/support/setup.sh (what `make test` runs first)', () => {
  it('keeps DATABASE_URL, REDIS_URL and SWITCHBOARD_KUBE_TOOLS when they are set', async function () {
    this.timeout(60_000);
    const env = {
      ...process.env,
      DATABASE_URL: 'postgres://someone@db.example:5432/x',
      REDIS_URL: 'redis://redis.example:6379',
      SWITCHBOARD_KUBE_TOOLS: '/opt/kube-tools',
    };
    const { stdout } = await promisify(execFile)('test/support/setup.sh', [], { env });
    expect(stdout.trim()).to.equal(
      `export DATABASE_URL=${env.DATABASE_URL} REDIS_URL=${env.REDIS_URL} SWITCHBOARD_KUBE_TOOLS=${env.SWITCHBOARD_KUBE_TOOLS}`,
    );
  });
});
