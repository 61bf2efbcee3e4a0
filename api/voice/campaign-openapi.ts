// The campaign operations of the Voice API's OpenAPI document (connections, campaigns, runs).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { operation } from '../http/openapi.js';
import * as campaignSchemas from './campaign-schemas.js';

type Op = (o: Parameters<typeof operation>[0]) => ReturnType<typeof operation>;

const FEATURES = 'Needs the campaigns and ai_agents features (403 module_off names the missing one).';

export function campaignPaths(op: Op): ZodOpenApiPathsObject {
  const connection = campaignSchemas.idParam('Connection', 'con');
  const campaign = campaignSchemas.idParam('Campaign', 'cmp');
  const run = campaignSchemas.idParam('Campaign run', 'run');
  const needsFeatures = { description: FEATURES };
  return {
    '/connections': {
      post: op({
        summary: "Create a connection to the customer's system",
        ...needsFeatures,
        body: campaignSchemas.createConnectionBody,
        ok: [201, campaignSchemas.connectionSchema],
        errors: [403, 422],
      }),
      get: op({
        summary: "List the account's connections",
        ...needsFeatures,
        ok: [200, campaignSchemas.connectionListSchema],
        errors: [403],
      }),
    },
    '/connections/{id}': {
      get: op({
        summary: 'Read a connection; the sign-in header shows its name only',
        ...needsFeatures,
        path: connection,
        ok: [200, campaignSchemas.connectionSchema],
        errors: [403, 404],
      }),
      patch: op({
        summary: 'Change a connection',
        ...needsFeatures,
        path: connection,
        body: campaignSchemas.updateConnectionBody,
        ok: [200, campaignSchemas.connectionSchema],
        errors: [403, 404, 422],
      }),
      delete: op({
        summary: 'Delete a connection; 409 connection_in_use while a campaign uses it',
        ...needsFeatures,
        path: connection,
        ok: [200, campaignSchemas.connectionSchema],
        errors: [403, 404, 409],
      }),
    },
    '/campaigns': {
      post: op({
        summary: 'Create a campaign',
        ...needsFeatures,
        body: campaignSchemas.createCampaignBody,
        ok: [201, campaignSchemas.campaignSchema],
        errors: [403, 422],
      }),
      get: op({
        summary: "List the account's campaigns (not archived)",
        ...needsFeatures,
        ok: [200, campaignSchemas.campaignListSchema],
        errors: [403],
      }),
    },
    '/campaigns/{id}': {
      get: op({
        summary: 'Read a campaign',
        ...needsFeatures,
        path: campaign,
        ok: [200, campaignSchemas.campaignSchema],
        errors: [403, 404],
      }),
      patch: op({
        summary: 'Change a campaign',
        ...needsFeatures,
        path: campaign,
        body: campaignSchemas.updateCampaignBody,
        ok: [200, campaignSchemas.campaignSchema],
        errors: [403, 404, 422],
      }),
      delete: op({
        summary: 'Archive a campaign; 409 run_active while a run is active',
        ...needsFeatures,
        path: campaign,
        ok: [200, campaignSchemas.campaignSchema],
        errors: [403, 404, 409],
      }),
    },
    '/campaigns/{id}/runs': {
      post: op({
        summary: 'Start a run now ({}), or a test run ({test: true, test_number}); 409 run_active while a run is active',
        ...needsFeatures,
        path: campaign,
        body: campaignSchemas.startRunBody,
        ok: [202, campaignSchemas.runSchema],
        errors: [403, 404, 409, 422],
      }),
      get: op({
        summary: "The campaign's runs, newest first",
        ...needsFeatures,
        path: campaign,
        ok: [200, campaignSchemas.runListSchema],
        errors: [403, 404],
      }),
    },
    '/campaign-runs/{id}': {
      get: op({ summary: 'Read a campaign run', ...needsFeatures, path: run, ok: [200, campaignSchemas.runSchema], errors: [403, 404] }),
    },
    '/campaign-runs/{id}/results': {
      get: op({
        summary: "The run's results as sent, oldest first",
        ...needsFeatures,
        path: run,
        query: campaignSchemas.resultsQuery,
        ok: [200, campaignSchemas.resultListSchema],
        errors: [403, 404, 422],
      }),
    },
    '/campaign-runs/{id}/stop': {
      post: op({
        summary: 'Stop a run: no new dials, calls on the line finish; 409 run_ended',
        ...needsFeatures,
        path: run,
        body: campaignSchemas.stopRunBody,
        ok: [200, campaignSchemas.runSchema],
        errors: [403, 404, 409],
      }),
    },
  };
}
