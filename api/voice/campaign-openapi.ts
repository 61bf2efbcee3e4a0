// The campaign operations of the Voice API's OpenAPI document (connections, campaigns, runs).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { operation } from '../http/openapi.js';
import * as k from './campaign-schemas.js';

type Op = (o: Parameters<typeof operation>[0]) => ReturnType<typeof operation>;

const FEATURES = 'Needs the campaigns and ai_agents features (403 module_off names the missing one).';

export function campaignPaths(op: Op): ZodOpenApiPathsObject {
  const connection = k.idParam('Connection', 'con');
  const campaign = k.idParam('Campaign', 'cmp');
  const run = k.idParam('Campaign run', 'run');
  const d = { description: FEATURES };
  return {
    '/connections': {
      post: op({ summary: "Create a connection to the customer's system", ...d, body: k.createConnectionBody, ok: [201, k.connectionSchema], errors: [403, 422] }),
      get: op({ summary: "List the account's connections", ...d, ok: [200, k.connectionListSchema], errors: [403] }),
    },
    '/connections/{id}': {
      get: op({ summary: 'Read a connection; the sign-in header shows its name only', ...d, path: connection, ok: [200, k.connectionSchema], errors: [403, 404] }),
      patch: op({ summary: 'Change a connection', ...d, path: connection, body: k.updateConnectionBody, ok: [200, k.connectionSchema], errors: [403, 404, 422] }),
      delete: op({ summary: 'Delete a connection; 409 connection_in_use while a campaign uses it', ...d, path: connection, ok: [200, k.connectionSchema], errors: [403, 404, 409] }),
    },
    '/campaigns': {
      post: op({ summary: 'Create a campaign', ...d, body: k.createCampaignBody, ok: [201, k.campaignSchema], errors: [403, 422] }),
      get: op({ summary: "List the account's campaigns (not archived)", ...d, ok: [200, k.campaignListSchema], errors: [403] }),
    },
    '/campaigns/{id}': {
      get: op({ summary: 'Read a campaign', ...d, path: campaign, ok: [200, k.campaignSchema], errors: [403, 404] }),
      patch: op({ summary: 'Change a campaign', ...d, path: campaign, body: k.updateCampaignBody, ok: [200, k.campaignSchema], errors: [403, 404, 422] }),
      delete: op({ summary: 'Archive a campaign; 409 run_active while a run is active', ...d, path: campaign, ok: [200, k.campaignSchema], errors: [403, 404, 409] }),
    },
    '/campaigns/{id}/runs': {
      post: op({
        summary: 'Start a run now ({}), or a test run ({test: true, test_number}); 409 run_active while a run is active',
        ...d,
        path: campaign,
        body: k.startRunBody,
        ok: [202, k.runSchema],
        errors: [403, 404, 409, 422],
      }),
      get: op({ summary: "The campaign's runs, newest first", ...d, path: campaign, ok: [200, k.runListSchema], errors: [403, 404] }),
    },
    '/campaign-runs/{id}': {
      get: op({ summary: 'Read a campaign run', ...d, path: run, ok: [200, k.runSchema], errors: [403, 404] }),
    },
    '/campaign-runs/{id}/results': {
      get: op({ summary: "The run's results as sent, oldest first", ...d, path: run, query: k.resultsQuery, ok: [200, k.resultListSchema], errors: [403, 404, 422] }),
    },
    '/campaign-runs/{id}/stop': {
      post: op({ summary: 'Stop a run: no new dials, calls on the line finish; 409 run_ended', ...d, path: run, body: k.stopRunBody, ok: [200, k.runSchema], errors: [403, 404, 409] }),
    },
  };
}
