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
        id: 'createConnection',
        tag: 'Connections',
        summary: "Create a connection to the customer's system",
        ...needsFeatures,
        body: campaignSchemas.createConnectionBody,
        ok: [201, campaignSchemas.connectionSchema],
        errors: [403, 422],
      }),
      get: op({
        id: 'listConnections',
        tag: 'Connections',
        summary: "List the account's connections",
        ...needsFeatures,
        ok: [200, campaignSchemas.connectionListSchema],
        errors: [403],
      }),
    },
    '/connections/{id}': {
      get: op({
        id: 'getConnection',
        tag: 'Connections',
        summary: 'Read a connection; the sign-in header shows its name only',
        ...needsFeatures,
        path: connection,
        ok: [200, campaignSchemas.connectionSchema],
        errors: [403, 404],
      }),
      patch: op({
        id: 'updateConnection',
        tag: 'Connections',
        summary: 'Change a connection',
        ...needsFeatures,
        path: connection,
        body: campaignSchemas.updateConnectionBody,
        ok: [200, campaignSchemas.connectionSchema],
        errors: [403, 404, 422],
      }),
      delete: op({
        id: 'deleteConnection',
        tag: 'Connections',
        summary: 'Delete a connection; 409 connection_in_use while a campaign uses it',
        ...needsFeatures,
        path: connection,
        ok: [200, campaignSchemas.connectionSchema],
        errors: [403, 404, 409],
      }),
    },
    '/campaigns': {
      post: op({
        id: 'createCampaign',
        tag: 'Campaigns',
        summary: 'Create a campaign',
        ...needsFeatures,
        body: campaignSchemas.createCampaignBody,
        ok: [201, campaignSchemas.campaignSchema],
        errors: [403, 422],
      }),
      get: op({
        id: 'listCampaigns',
        tag: 'Campaigns',
        summary: "List the account's campaigns (not archived)",
        ...needsFeatures,
        ok: [200, campaignSchemas.campaignListSchema],
        errors: [403],
      }),
    },
    '/campaigns/{id}': {
      get: op({
        id: 'getCampaign',
        tag: 'Campaigns',
        summary: 'Read a campaign',
        ...needsFeatures,
        path: campaign,
        ok: [200, campaignSchemas.campaignSchema],
        errors: [403, 404],
      }),
      patch: op({
        id: 'updateCampaign',
        tag: 'Campaigns',
        summary: 'Change a campaign',
        ...needsFeatures,
        path: campaign,
        body: campaignSchemas.updateCampaignBody,
        ok: [200, campaignSchemas.campaignSchema],
        errors: [403, 404, 422],
      }),
      delete: op({
        id: 'archiveCampaign',
        tag: 'Campaigns',
        summary: 'Archive a campaign; 409 run_active while a run is active',
        ...needsFeatures,
        path: campaign,
        ok: [200, campaignSchemas.campaignSchema],
        errors: [403, 404, 409],
      }),
    },
    '/campaigns/{id}/runs': {
      post: op({
        id: 'startRun',
        tag: 'Campaigns',
        summary: 'Start a run now ({}), or a test run ({test: true, test_number}); 409 run_active while a run is active',
        ...needsFeatures,
        path: campaign,
        body: campaignSchemas.startRunBody,
        ok: [202, campaignSchemas.runSchema],
        errors: [403, 404, 409, 422],
      }),
      get: op({
        id: 'listRuns',
        tag: 'Campaigns',
        summary: "The campaign's runs, newest first",
        ...needsFeatures,
        path: campaign,
        ok: [200, campaignSchemas.runListSchema],
        errors: [403, 404],
      }),
    },
    '/campaign-runs/{id}': {
      get: op({
        id: 'getRun',
        tag: 'Campaigns',
        summary: 'Read a campaign run',
        ...needsFeatures,
        path: run,
        ok: [200, campaignSchemas.runSchema],
        errors: [403, 404],
      }),
    },
    '/campaign-runs/{id}/results': {
      get: op({
        id: 'listRunResults',
        tag: 'Campaigns',
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
        id: 'stopRun',
        tag: 'Campaigns',
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
