import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../../../pkg/db/embedded.js';

describe('Embedded Postgres', () => {
  it("picks its port below the kernel's ports for outgoing connections, so none of them takes it before Postgres binds it", async () => {
    const floor = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).to.be.below(floor);
      const server = createServer();
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => server.close(resolve));
    }
  });

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
