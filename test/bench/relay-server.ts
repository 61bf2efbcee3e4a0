// The relay benchmark's server half, in a worker thread so the carrier stand-in timing it never
// waits on its event loop: one replica (API, relay socket and controllers in one thread) with the
// Twilio gateway, calling the model stand-in of another thread. It makes `accounts` voice accounts,
// each with a number of its own, and on 'watch' … 'watched' reports its event loop lag and the
// process's peak RSS in between; any other message closes it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { startTestApp } from '../support/app.js';

export interface RelayServerOptions {
  databaseUrl: string;
  modelUrl: string;
  twilio: { url: string; accountSid: string; authToken: string };
  publicUrl: string;
  accounts: number;
}

export interface RelayServer {
  url: string;
  apiKeys: string[];
}

export interface Watched {
  eventLoopLagP99Ms: number;
  rssPeakMB: number;
}

const { databaseUrl, modelUrl, twilio, publicUrl, accounts } = workerData as RelayServerOptions;
const app = await startTestApp({
  databaseUrl,
  controllers: true,
  env: {
    SWITCHBOARD_DB_POOL_MAX: '41',
    // The benchmark's simultaneous calls are all this replica's; its default bound would refuse them past 64.
    SWITCHBOARD_RELAY_CONCURRENCY: '1000',
    OPENAI_BASE_URL: modelUrl,
    SWITCHBOARD_CARRIER: 'twilio',
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_API_BASE: twilio.url,
    SWITCHBOARD_PUBLIC_URL: publicUrl,
  },
});
const apiKeys: string[] = [];
for (let i = 0; i < accounts; i++) {
  const company = await app.company({ credits: 1e9, numbers: [`+1202555${String(1000 + i)}`] });
  // The defaults would refuse the benchmark's pace and its simultaneous calls.
  await updateTenant(app.runtime.ctx, company.tenantId, {
    features: ['voice_api'],
    requestsPerMinute: 1_000_000,
    maxConcurrentCalls: 1_000_000,
  });
  apiKeys.push(company.apiKey);
}

const lag = monitorEventLoopDelay({ resolution: 10 });
let rssPeak = 0;
let sampler: NodeJS.Timeout | undefined;
parentPort!.on('message', (message: string) => {
  if (message === 'watch') {
    lag.reset();
    lag.enable();
    rssPeak = 0;
    sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 200);
    return;
  }
  if (message === 'watched') {
    lag.disable();
    clearInterval(sampler);
    const watched: Watched = { eventLoopLagP99Ms: Math.round(lag.percentile(99) / 1e4) / 100, rssPeakMB: Math.round(rssPeak / 2 ** 20) };
    return parentPort!.postMessage(watched);
  }
  void app.close().then(() => parentPort!.close());
});
const ready: RelayServer = { url: app.url, apiKeys };
parentPort!.postMessage(ready);
