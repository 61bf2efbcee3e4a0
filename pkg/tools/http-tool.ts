// Runs one custom HTTP tool call for the model and describes the outcome as text it can read.
import type { Ctx } from '../context.js';
import { openAuth, type AuthConfig, type StoredTool } from './custom-tools.js';
import { OutboundError, type OutboundRequest } from '../outbound/client.js';

const PLACEHOLDER = /\{([^}]+)\}/g;

export async function callHttpTool(
  ctx: Pick<Ctx, 'outbound' | 'secrets'>,
  tool: StoredTool,
  args: Record<string, unknown>,
): Promise<string> {
  const present = (name: string) => args[name] !== undefined && args[name] !== null;
  // A placeholder's value is needed to build the URL, declared required or not.
  const needed = new Set([
    ...tool.parameters.filter((p) => p.required).map((p) => p.name),
    ...[...tool.url.matchAll(PLACEHOLDER)].map((m) => m[1]!),
  ]);
  const missing = [...needed].filter((name) => !present(name));
  if (missing.length > 0) return `Tool call failed: missing required parameter(s): ${missing.join(', ')}`;

  const rest = { ...args };
  const filled = tool.url.replace(PLACEHOLDER, (_, name: string) => {
    const value = encodeURIComponent(String(args[name]));
    delete rest[name];
    return value;
  });

  const request: OutboundRequest = { method: tool.method, url: filled, headers: authHeaders(openAuth(tool, ctx.secrets)) };
  if (tool.method === 'GET' || tool.method === 'DELETE') {
    request.url = withQuery(filled, rest);
  } else {
    request.headers = { ...request.headers, 'content-type': 'application/json' };
    request.body = JSON.stringify(rest);
  }

  try {
    const res = await ctx.outbound.request(request);
    const note = res.truncated ? '\n[response truncated: it was larger than the size limit]' : '';
    return `HTTP ${res.status}\n${res.body}${note}`;
  } catch (err) {
    if (err instanceof OutboundError) return `Tool call failed: ${err.message}`;
    throw err;
  }
}

function authHeaders(auth: AuthConfig | undefined): Record<string, string> {
  if (!auth) return {};
  if ('username' in auth) {
    return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
  }
  if ('headerName' in auth) return { [auth.headerName]: auth.apiKey };
  return { authorization: `Bearer ${auth.token}` };
}

/** Appends to any query the tool's URL already has, leaving that part as written. */
function withQuery(url: string, params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    query.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const encoded = query.toString();
  if (!encoded) return url;
  const hashAt = url.includes('#') ? url.indexOf('#') : url.length;
  const base = url.slice(0, hashAt);
  return `${base}${base.includes('?') ? '&' : '?'}${encoded}${url.slice(hashAt)}`;
}
