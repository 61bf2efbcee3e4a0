// Root hooks: one fresh database for the whole run (see database.ts). Migrated once; tests isolate
// by creating their own companies. The Kubernetes test cluster, if a test started one, stops here.
// Last, the run fails if a test receiver accepted a webhook unlike its documented schema.
import { createScratchDatabase, type ScratchDatabase } from './database.js';
import { undocumentedWebhooks } from './document-schemas.js';
import { stopTestCluster } from './kube/cluster.js';

let database: ScratchDatabase | undefined;

export function testDatabaseUrl(): string {
  if (!database) throw new Error('test database not ready (root hooks not loaded?)');
  return database.url;
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    database = await createScratchDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await database?.drop();
    await stopTestCluster();
    if (undocumentedWebhooks.length) throw new Error(`webhooks unlike their documented schema:\n${undocumentedWebhooks.join('\n')}`);
  },
};
