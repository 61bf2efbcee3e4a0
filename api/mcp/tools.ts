// The MCP tools: the Voice API's call operations, with inputs from the same zod schemas as REST.
// Every failure is a tool error naming the Voice API's code; a limit hit says when to retry.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { domainErrorOf } from '../../pkg/db/unavailable.js';
import type { RateDecision } from '../../pkg/limits/rate-limit.js';
import type { Principal } from '../../pkg/store/keys.js';
import { getCall } from '../../pkg/store/calls.js';
import { hangupCall, steerCall } from '../../pkg/voice/actions.js';
import { placeCall } from '../../pkg/voice/place.js';
import { callRecord, callResult } from '../../pkg/voice/views.js';
import { VOICES } from '../../pkg/voice/voices.js';
import { waitForFinal } from '../../pkg/voice/wait.js';
import { listCallsPage } from '../../pkg/voice/list.js';
import { voiceErrorOf } from '../voice/errors.js';
import { registerCampaignTools } from './campaign-tools.js';
import { unstorableTextRefusal } from '../voice/unstorable-text.js';
import { IDEMPOTENCY_KEY_MAX, listCallsQuery, parsePlaceCall, parseSteer, placeCallBody, resultQuery, steerBody } from '../voice/call-schemas.js';

/** Who is calling, and whether the request limits already refused this request. */
export interface McpCaller {
  principal: Principal;
  app: string;
  refused: RateDecision | null;
}

const callId = z.object({ call_id: z.string().min(1).max(64).meta({ description: 'The call id (cal_…)' }) }).strict();

const toolInputs = {
  place_call: placeCallBody.extend({
    idempotency_key: z
      .string()
      .min(1)
      .max(IDEMPOTENCY_KEY_MAX)
      .optional()
      .meta({ description: 'As the Idempotency-Key header of POST /v1/calls: a retry with the same key and arguments places nobody twice' }),
  }),
  get_call: callId,
  get_call_result: callId.extend(resultQuery.shape),
  steer_call: callId.extend(steerBody.shape),
  hangup_call: callId,
  list_calls: listCallsQuery,
  list_voices: z.object({}).strict(),
};

const ok = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});

function toolError(code: string, message: string, retryAfterSec?: number): CallToolResult {
  const error = { code, message, ...(retryAfterSec === undefined ? {} : { retry_after_sec: retryAfterSec }) };
  const retry = retryAfterSec === undefined ? '' : ` Retry after ${retryAfterSec} seconds.`;
  return { content: [{ type: 'text', text: `${code}: ${message}${retry}` }], structuredContent: { error }, isError: true };
}

/** A tool's handler: limits and unstorable text refused first, every failure a tool error with the Voice API's code. */
export function toolRunner(ctx: Ctx, caller: McpCaller) {
  return <A>(fn: (args: A) => Promise<Record<string, unknown>>) =>
    async (args: A): Promise<CallToolResult> => {
      if (caller.refused) return toolError('rate_limited', 'Request rate limit exceeded', caller.refused.retryAfterSec);
      const unstorable = unstorableTextRefusal(args, 'arguments');
      if (unstorable) return toolError(unstorable.code, unstorable.message);
      try {
        return ok(await fn(args));
      } catch (err) {
        const domain = domainErrorOf(err);
        if (domain) {
          const { code, message } = voiceErrorOf(domain);
          return toolError(code, message, domain.retryAfterSec);
        }
        ctx.log.error({ err, tenantId: caller.principal.tenant.id }, 'unexpected MCP tool error');
        return toolError('internal', 'Failure on the service side; retry');
      }
    };
}

/** One MCP server per HTTP request (stateless): the tools act for `caller` alone. */
export function mcpServer(ctx: Ctx, caller: McpCaller): McpServer {
  const server = new McpServer({ name: 'switchboard-voice', version: '1.0.0' });
  const { tenant, keyId } = caller.principal;
  const run = toolRunner(ctx, caller);

  server.registerTool(
    'place_call',
    { description: 'Place an AI phone call (POST /v1/calls). Returns the call record; follow it with get_call_result.', inputSchema: toolInputs.place_call },
    run(async ({ idempotency_key, ...body }) => {
      const { call } = await placeCall(ctx, { tenant, keyId, channel: 'mcp', app: caller.app }, parsePlaceCall(body), idempotency_key);
      return callRecord(call);
    }),
  );
  server.registerTool(
    'get_call',
    { description: 'Read a call record (GET /v1/calls/{id}).', inputSchema: toolInputs.get_call, annotations: { readOnlyHint: true } },
    run(async ({ call_id }) => callRecord(await getCall(ctx, tenant.id, call_id))),
  );
  server.registerTool(
    'get_call_result',
    {
      description: 'The call result (GET /v1/calls/{id}/result); with wait, held up to that many seconds until it is final.',
      inputSchema: toolInputs.get_call_result,
      annotations: { readOnlyHint: true },
    },
    run(async ({ call_id, wait }) => callResult(await waitForFinal(ctx, tenant.id, call_id, wait ?? 0))),
  );
  server.registerTool(
    'steer_call',
    { description: "Steer a live call (POST /v1/calls/{id}/steer): an instruction for the agent, or words it says next.", inputSchema: toolInputs.steer_call },
    run(async ({ call_id, ...steering }) => {
      const call = await steerCall(ctx, tenant.id, call_id, parseSteer(steering));
      return { call_id: call.id, accepted: true };
    }),
  );
  server.registerTool(
    'hangup_call',
    { description: 'Hang up a call (POST /v1/calls/{id}/hangup); before answer it ends canceled.', inputSchema: toolInputs.hangup_call, annotations: { destructiveHint: true } },
    run(async ({ call_id }) => callRecord(await hangupCall(ctx, tenant.id, call_id))),
  );
  server.registerTool(
    'list_calls',
    { description: 'List calls newest first (GET /v1/calls), with filters and a cursor.', inputSchema: toolInputs.list_calls, annotations: { readOnlyHint: true } },
    run(async (query) => listCallsPage(ctx, tenant, query)),
  );
  server.registerTool(
    'list_voices',
    { description: 'The voice catalogue (GET /v1/voices).', inputSchema: toolInputs.list_voices, annotations: { readOnlyHint: true } },
    run(async () => ({ data: VOICES })),
  );
  registerCampaignTools(server, ctx, tenant, run);
  return server;
}
