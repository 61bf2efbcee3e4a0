// The benchmark's server half, run in a worker thread so the client timing it never waits on the
// server's event loop: the real API (startTestApp's wiring) calling the model stand-in of another thread.
import { parentPort, workerData } from 'node:worker_threads';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { startTestApp } from '../support/app.js';

export interface BenchServer {
  url: string;
  modelUrl: string;
  apiKey: string;
  agentId: string;
  systemPrompt: string;
}

const SYSTEM_PROMPT = 'You are the helpful assistant of the benchmark company.';

// 20 query and 20 lock connections and the listener (SWITCHBOARD_DB_POOL_MAX bounds all three): the
// query pool of production's default, not the test suite's smaller one, and a lock for each turn at once.
const { databaseUrl, modelUrl } = workerData as { databaseUrl: string; modelUrl: string };
const app = await startTestApp({ databaseUrl, env: { SWITCHBOARD_DB_POOL_MAX: '41', OPENAI_BASE_URL: modelUrl } });
const company = await app.company({ credits: 1e9, systemPrompt: SYSTEM_PROMPT });
// The default per-key rate limit would refuse a benchmark's pace.
await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 1_000_000 });

parentPort!.once('message', () => {
  void app.close().then(() => parentPort!.close());
});
const ready: BenchServer = { url: app.url, modelUrl, apiKey: company.apiKey, agentId: company.agentId, systemPrompt: SYSTEM_PROMPT };
parentPort!.postMessage(ready);
