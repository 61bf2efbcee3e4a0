// A fresh, migrated database for one run (the test suite, the benchmark): on the server given, else
// DATABASE_URL's when set, else on a throwaway embedded Postgres. `drop` removes it and anything it started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDb, migrate } from '../../pkg/db/index.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../pkg/db/embedded.js';

export interface ScratchDatabase {
  url: string;
  /** Where it runs: the server given, `DATABASE_URL` or `embedded`. */
  server: 'given' | 'DATABASE_URL' | 'embedded';
  drop(): Promise<void>;
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function createScratchDatabase(onServer?: string): Promise<ScratchDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let serverUrl = onServer ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-test-pg-'));
    embedded = await startEmbeddedPostgres(dir, { persistent: false });
    serverUrl = embedded.url;
  }
  const name = `switchboard_test_${process.pid}_${Date.now()}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 2);
  await migrate(db);
  await db.destroy();
  return {
    url: url.toString(),
    server: onServer ? 'given' : embedded ? 'embedded' : 'DATABASE_URL',
    drop: async () => {
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
      await embedded?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
