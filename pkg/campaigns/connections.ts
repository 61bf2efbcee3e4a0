// Connections to a customer's system (DECISIONS.md "Connection"): its https address on the public
// internet, the list and results paths, and a sign-in header whose value is sealed at rest and
// never shown again.
import type { Ctx } from '../context.js';
import { Conflict, Unavailable, Unprocessable } from '../errors.js';
import { prefixedId } from '../ids.js';
import { destinationProblem } from '../outbound/guard.js';
import {
  connectionInUse,
  getConnection,
  insertConnection,
  updateConnectionRow,
  type ConnectionRow,
} from '../store/campaigns/connections.js';

export interface ConnectionInput {
  name?: string;
  base_url?: string;
  list_path?: string;
  results_path?: string;
  sign_in_header?: { name: string; value: string } | null;
}

export const DEFAULT_LIST_PATH = '/campaign/list';
export const DEFAULT_RESULTS_PATH = '/campaign/results';

type ConnCtx = Pick<Ctx, 'db' | 'clock' | 'config' | 'secrets'>;

/** The API's view: the sign-in header's name only. */
export function connectionView(c: ConnectionRow) {
  return {
    id: c.id,
    name: c.name,
    base_url: c.base_url,
    list_path: c.list_path,
    results_path: c.results_path,
    sign_in_header: c.sign_in_name ? { name: c.sign_in_name, value_set: true as const } : null,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

/** Why a (valid https) address cannot be the base the paths are added to: credentials go in the sign-in header, where they are sealed. */
function baseProblem(raw: string): string | null {
  const url = new URL(raw);
  if (url.username || url.password) return 'must not hold credentials: send them as the sign-in header';
  return /[?#]/.test(raw) ? 'must not have a query or a fragment: the list and results paths are added to it' : null;
}

/** The columns of `input`: the address checked, the sign-in header's value sealed. */
function columnsOf(ctx: ConnCtx, input: ConnectionInput): Partial<ConnectionRow> {
  if (input.base_url !== undefined) {
    const problem = destinationProblem(input.base_url, ctx.config) ?? baseProblem(input.base_url);
    if (problem) throw new Unprocessable(`base_url ${problem}`, 'invalid_base_url');
  }
  const out: Partial<ConnectionRow> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.base_url !== undefined) out.base_url = input.base_url.replace(/\/+$/, '');
  if (input.list_path !== undefined) out.list_path = input.list_path;
  if (input.results_path !== undefined) out.results_path = input.results_path;
  if (input.sign_in_header !== undefined) {
    const header = input.sign_in_header;
    if (header && !ctx.secrets) throw new Unavailable('A sign-in header needs the encryption key (SWITCHBOARD_ENCRYPTION_KEY)');
    out.sign_in_name = header?.name ?? null;
    out.sign_in_value = header ? ctx.secrets!.seal(header.value) : null;
  }
  return out;
}

export async function createConnection(
  ctx: ConnCtx,
  tenantId: string,
  input: ConnectionInput & { name: string; base_url: string },
): Promise<ConnectionRow> {
  const now = ctx.clock.now();
  return insertConnection(ctx, {
    id: prefixedId('con'),
    tenant_id: tenantId,
    list_path: DEFAULT_LIST_PATH,
    results_path: DEFAULT_RESULTS_PATH,
    sign_in_name: null,
    sign_in_value: null,
    ...(columnsOf(ctx, input) as Pick<ConnectionRow, 'name' | 'base_url'>),
    created_at: now,
    updated_at: now,
  });
}

export async function updateConnection(ctx: ConnCtx, tenantId: string, id: string, input: ConnectionInput): Promise<ConnectionRow> {
  await getConnection(ctx, tenantId, id);
  return updateConnectionRow(ctx, id, { ...columnsOf(ctx, input), updated_at: ctx.clock.now() });
}

/** Deleted while no campaign (not archived) uses it; 409 `connection_in_use` otherwise. */
export async function deleteConnection(ctx: ConnCtx, tenantId: string, id: string): Promise<ConnectionRow> {
  await getConnection(ctx, tenantId, id);
  if (await connectionInUse(ctx, id))
    throw new Conflict(`Connection ${id} is used by a campaign; archive the campaign or move it first`, 'connection_in_use');
  return updateConnectionRow(ctx, id, { deleted_at: ctx.clock.now(), updated_at: ctx.clock.now() });
}

/** The sign-in header to send, opened from its seal; {} when there is none. */
export function signInHeader(ctx: Pick<Ctx, 'secrets'>, c: Pick<ConnectionRow, 'sign_in_name' | 'sign_in_value'>): Record<string, string> {
  if (!c.sign_in_name || !c.sign_in_value) return {};
  if (!ctx.secrets) throw new Unavailable('The sign-in header is encrypted and SWITCHBOARD_ENCRYPTION_KEY is not set');
  return { [c.sign_in_name]: ctx.secrets.open<string>(c.sign_in_value) };
}
