// The TypeScript SDK's generated types are what the generator makes from openapi/*.json today
// (those are tested to equal what the server serves): `make sdk-typescript` after a change.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const GENERATED = join(process.cwd(), 'sdk', 'typescript', 'src', 'generated');

describe('TypeScript SDK generated types', () => {
  it('are what sdk/typescript/generate.sh makes from the OpenAPI documents', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'switchboard-sdk-ts-generated-'));
    try {
      await promisify(execFile)(join(process.cwd(), 'sdk', 'typescript', 'generate.sh'), [fresh]);
      const names = await readdir(fresh);
      expect(names.sort()).to.deep.equal(['agent-api.ts', 'voice-api.ts']);
      expect((await readdir(GENERATED)).sort()).to.deep.equal(names);
      for (const name of names) {
        const [made, checkedIn] = await Promise.all([readFile(join(fresh, name), 'utf8'), readFile(join(GENERATED, name), 'utf8')]);
        expect(checkedIn === made, `sdk/typescript/src/generated/${name} is out of date: run make sdk-typescript`).to.equal(true);
      }
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
