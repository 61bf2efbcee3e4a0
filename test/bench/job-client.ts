// Jobs created over the Agent API by a benchmark, from companies whose per-key rate limit is lifted.
import { updateTenant } from '../../pkg/tenants/settings.js';
import type { TestApp } from '../support/app.js';
import { benchClient, type BenchClient } from './http-client.js';

/** A company with credits to spare and no per-key rate limit in the way of a benchmark's pace. */
export async function benchCompany(app: TestApp, name: string) {
  const company = await app.company({ name, credits: 1e9 });
  await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 1_000_000 });
  return { ...company, bench: benchClient(app.url, company.apiKey) };
}

/** Creates a job (due at `runAt` when given); its triggerId and, when deferred, nextRunAt. */
export async function enqueue(
  client: BenchClient,
  agentId: string,
  task: string,
  runAt?: string,
): Promise<{ triggerId: string; nextRunAt?: string }> {
  const res = await client.request('POST', '/api/v1/triggers', { agentId, task, ...(runAt && { runAt }) });
  if (res.status !== 202) throw new Error(`creating a job answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
