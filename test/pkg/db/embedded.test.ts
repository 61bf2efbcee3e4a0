import { expect } from 'chai';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../pkg/db/embedded.js';

describe('Embedded Postgres', () => {
  it('starts as root in a folder only root may enter, which stays private', async function () {
    // As root, Postgres runs as the `postgres` user; elsewhere there is nobody to keep out.
    if (process.getuid?.() !== 0) this.skip();
    this.timeout(120_000);
    const folder = mkdtempSync(join(tmpdir(), 'switchboard-private-'));
    try {
      const database = await startEmbeddedPostgres(join(folder, 'clone/.switchboard/postgres'), { persistent: false });
      try {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        const { rows } = await client.query('select current_database() as name');
        await client.end();
        expect(rows).to.deep.equal([{ name: 'switchboard' }]);
      } finally {
        await database.stop();
      }
      expect(statSync(folder).mode & 0o777).to.equal(0o700);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
