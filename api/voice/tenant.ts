// Routes of the caller's tenant: its API keys, settings and carrier. Another tenant's id answers 404, like a missing one.
import { Router, type Request } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { NotFound } from '../../pkg/errors.js';
import { agentRef } from '../../pkg/ids.js';
import { createKey, listKeys, revokeKey, type ApiKeyView } from '../../pkg/store/keys.js';
import { allowedCountriesOf, type Tenant } from '../../pkg/store/tenants.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { carrierSettings } from '../../pkg/voice/carrier-accounts.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { createKeyBody, settingsBody } from './tenant-schemas.js';

/** The caller's own tenant, when the path names it. */
function ownTenant(req: Request): Tenant {
  const { tenant } = principalOf(req);
  if (req.params.account_id !== tenant.id) throw new NotFound(`No account ${req.params.account_id}`);
  return tenant;
}

export const keyView = (k: ApiKeyView) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
  revoked: k.revoked,
  revoked_at: k.revokedAt,
});

const settingsView = (t: Tenant) => ({
  account_id: t.id,
  name: t.name,
  events_url: t.eventsUrl,
  features: t.features,
  max_concurrent_calls: t.maxConcurrentCalls,
  requests_per_minute: t.requestsPerMinute,
  calls_per_minute: t.callsPerMinute,
  max_concurrent_jobs: t.maxConcurrentJobs,
  max_calls_per_number_per_day: t.maxCallsPerNumberPerDay,
  max_calls_per_number_per_week: t.maxCallsPerNumberPerWeek,
  allowed_countries: allowedCountriesOf(t),
  default_agent_id: t.defaultAgentId ? agentRef(t.defaultAgentId) : null,
  country: t.country,
});

export function tenantRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/tenants/:account_id/api-keys', async (req, res) => {
    const tenant = ownTenant(req);
    const { name } = parseVoice(createKeyBody, req.body, 'api_key');
    const { key, apiKey } = await createKey(ctx, tenant.id, name);
    res.status(201).json({ id: key.id, name: key.name, prefix: key.prefix, key: apiKey, created_at: key.createdAt });
  });

  r.get('/tenants/:account_id/api-keys', async (req, res) => {
    const tenant = ownTenant(req);
    res.json({ data: (await listKeys(ctx, tenant.id)).map(keyView) });
  });

  r.delete('/tenants/:account_id/api-keys/:key_id', async (req, res) => {
    const tenant = ownTenant(req);
    res.json(keyView(await revokeKey(ctx, req.params.key_id!, tenant.id)));
  });

  r.get('/tenants/:account_id/settings', (req, res) => {
    res.json(settingsView(ownTenant(req)));
  });

  r.patch('/tenants/:account_id/settings', async (req, res) => {
    const tenant = ownTenant(req);
    const body = parseVoice(settingsBody, req.body, 'settings');
    res.json(settingsView(await updateTenant(ctx, tenant.id, { eventsUrl: body.events_url })));
  });

  r.get('/tenants/:account_id/carrier', async (req, res) => {
    const tenant = ownTenant(req);
    res.json(await carrierSettings(ctx, tenant.id));
  });

  return r;
}
