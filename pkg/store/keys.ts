// API keys: raw key shown once, SHA-256 stored, revocation effective on the next request.
import type { Ctx } from '../context.js';
import { compiledOnce } from '../db/compiled.js';
import { newApiKey, prefixedId, sha256 } from '../ids.js';
import { NotFound, Unauthorized } from '../errors.js';
import { getTenant, toTenant, type Tenant } from './tenants.js';
import type { DbRow } from '../db/index.js';

export interface ApiKeyView {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
}

const toView = (r: DbRow): ApiKeyView => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at.toISOString(),
  lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null,
  revoked: r.revoked_at !== null,
  revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
});

export async function createKey(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  tenantId: string,
  name: string,
): Promise<{ key: ApiKeyView; apiKey: string }> {
  await getTenant(ctx, tenantId);
  const { raw, prefix, hash } = newApiKey();
  const [row] = await ctx
    .db('api_keys')
    .insert({ id: prefixedId('key'), tenant_id: tenantId, name, prefix, key_hash: hash, created_at: ctx.clock.now() })
    .returning('*');
  return { key: toView(row), apiKey: raw };
}

export async function listKeys(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<ApiKeyView[]> {
  const rows = await ctx.db('api_keys').where({ tenant_id: tenantId }).orderBy('created_at');
  return rows.map(toView);
}

export async function revokeKey(ctx: Pick<Ctx, 'db' | 'clock'>, keyId: string, tenantId?: string): Promise<ApiKeyView> {
  const query = ctx.db('api_keys').where({ id: keyId });
  if (tenantId) query.andWhere({ tenant_id: tenantId });
  const [row] = await query.update({ revoked_at: ctx.db.raw('coalesce(revoked_at, ?)', [ctx.clock.now()]) }).returning('*');
  if (!row) throw new NotFound(`Unknown API key ${keyId}`);
  return toView(row);
}

export interface Principal {
  tenant: Tenant;
  keyId: string;
}

/** The principal of a key's row joined to its tenant's; 401 when there is none. Notes the key's use (at most once a minute). */
async function principalFrom(ctx: Pick<Ctx, 'db' | 'clock'>, row: DbRow | undefined): Promise<Principal> {
  if (!row) throw new Unauthorized();
  const now = ctx.clock.now();
  if (!row.key_last_used_at || now.getTime() - row.key_last_used_at.getTime() > 60_000) {
    await ctx.db('api_keys').where({ id: row.key_id }).update({ last_used_at: now });
  }
  return { tenant: toTenant(row), keyId: row.key_id };
}

/** authenticate's statement: a live key by its hash, with its tenant's row. */
const keyLookup = compiledOnce((db, { hash }: { hash: string }) =>
  db('api_keys as k')
    .join('tenants as t', 't.id', 'k.tenant_id')
    .select('t.*', 'k.id as key_id', 'k.last_used_at as key_last_used_at')
    .where({ 'k.key_hash': hash, 'k.revoked_at': null })
    .first(),
);

/**
 * Resolve a bearer token: its live key and tenant. The lookup is by the token's SHA-256, so timing
 * reveals nothing about stored keys; nothing is cached, so a revocation holds on the next request.
 */
export async function authenticate(ctx: Pick<Ctx, 'db' | 'pipelined' | 'clock'>, rawKey: string): Promise<Principal> {
  const { rows } = await ctx.pipelined.send(keyLookup(ctx.db, { hash: sha256(rawKey) }));
  return principalFrom(ctx, rows[0] as DbRow | undefined);
}
