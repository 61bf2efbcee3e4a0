// Runs one custom HTTP tool call for the model and describes the outcome as text it can read.
// Every call is signed like a webhook (voice spec, Authentication 5), so the customer's system can
// tell it came from the account.
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { signatureHeaders } from '../webhooks/sign.js';
import type { StoredTool } from '../store/tools.js';
import { openAuth, type AuthConfig } from './custom-tools.js';
import { OutboundError, type OutboundRequest } from '../outbound/client.js';

const PLACEHOLDER = /\{([^}]+)\}/g;

/** The account's webhook secret, and the signing time in Unix seconds. */
export interface ToolSigning {
  secret: string;
  timestamp: number;
}

export async function callHttpTool(
  ctx: Pick<Ctx, 'outbound' | 'secrets'>,
  tool: StoredTool,
  args: Record<string, unknown>,
  signing: ToolSigning,
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

  const request: OutboundRequest = { method: tool.method, url: filled };
  if (tool.method === 'GET' || tool.method === 'DELETE') request.url = withQuery(filled, rest);
  else request.body = JSON.stringify(rest);
  // A GET or DELETE signs its empty body: the signature vouches for the sender and the time.
  const signed = signatureHeaders(signing.secret, { id: `tc_${randomUUID()}`, timestamp: signing.timestamp, body: request.body ?? '' });
  if (!request.body) delete signed['content-type'];
  request.headers = { ...authHeaders(openAuth(tool, ctx.secrets)), ...signed };

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
