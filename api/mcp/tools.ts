// The MCP tools: the Voice API's call operations, with inputs from the same zod schemas as REST.
// Every failure is a tool error naming the Voice API's code, refused arguments included
// (`invalid_<field>`, as REST answers 422); a limit hit says when to retry.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { domainErrorOf } from '../../pkg/db/unavailable.js';
import type { RateDecision } from '../../pkg/limits/rate-limit.js';
import type { Principal } from '../../pkg/store/keys.js';
import { getCall } from '../../pkg/store/calls/get.js';
import { hangupCall, steerCall } from '../../pkg/voice/actions.js';
import { placeCall } from '../../pkg/voice/place.js';
import { callRecord, callResult } from '../../pkg/voice/views.js';
import { listVoices } from '../../pkg/voice/voices.js';
import { waitForFinal } from '../../pkg/voice/wait.js';
import { listCallsPage } from '../../pkg/voice/list.js';
import { voiceErrorOf } from '../voice/errors.js';
import { campaignTools } from './campaign-tools.js';
import { mcpTool, type McpTool } from './tool.js';
import { unstorableTextRefusal } from '../voice/unstorable-text.js';
import { parseVoice } from '../voice/parse.js';
import {
  IDEMPOTENCY_KEY_MAX,
  listCallsQuery,
  parsePlaceCall,
  parseSteer,
  placeCallBody,
  resultQuery,
  steerBody,
} from '../voice/call-schemas.js';

/** Who is calling, and whether the request limits already refused this request. */
export interface McpCaller {
  principal: Principal;
  app: string;
  refused: RateDecision | null;
}

const callId = z.object({ call_id: z.string().min(1).max(64).meta({ description: 'The call id (cal_…)' }) }).strict();

const placeCallInput = placeCallBody.extend({
  idempotency_key: z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .optional()
    .meta({ description: 'As the Idempotency-Key header of POST /v1/calls: a retry with the same key and arguments places nobody twice' }),
});

const ok = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});

function toolError(code: string, message: string, retryAfterSec?: number): CallToolResult {
  const error = { code, message, ...(retryAfterSec === undefined ? {} : { retry_after_sec: retryAfterSec }) };
  const retry = retryAfterSec === undefined ? '' : ` Retry after ${retryAfterSec} seconds.`;
  return { content: [{ type: 'text', text: `${code}: ${message}${retry}` }], structuredContent: { error }, isError: true };
}

/** Runs `tool` for `caller`: limits and unstorable text refused first, the arguments parsed as REST parses a body, every failure a tool error with the Voice API's code. */
async function runTool(ctx: Ctx, caller: McpCaller, tool: McpTool, args: unknown): Promise<CallToolResult> {
  if (caller.refused) return toolError('rate_limited', 'Request rate limit exceeded', caller.refused.retryAfterSec);
  const unstorable = unstorableTextRefusal(args, 'arguments');
  if (unstorable) return toolError(unstorable.code, unstorable.message);
  try {
    return ok(await tool.handler(parseVoice(tool.inputSchema, args, 'arguments')));
  } catch (err) {
    const domain = domainErrorOf(err);
    if (domain) {
      const { code, message } = voiceErrorOf(domain);
      return toolError(code, message, domain.retryAfterSec);
    }
    ctx.log.error({ err, tenantId: caller.principal.tenant.id }, 'unexpected MCP tool error');
    return toolError('internal', 'Failure on the service side; retry');
  }
}

/** The call tools, acting for `caller` alone. */
function callTools(ctx: Ctx, caller: McpCaller): Record<string, McpTool> {
  const { tenant, keyId } = caller.principal;
  return {
    place_call: mcpTool({
      description: 'Place an AI phone call (POST /v1/calls). Returns the call record; follow it with get_call_result.',
      inputSchema: placeCallInput,
      handler: async ({ idempotency_key, ...body }) => {
        const { call } = await placeCall(ctx, { tenant, keyId, channel: 'mcp', app: caller.app }, parsePlaceCall(body), idempotency_key);
        return callRecord(call);
      },
    }),
    get_call: mcpTool({
      description: 'Read a call record (GET /v1/calls/{id}).',
      inputSchema: callId,
      annotations: { readOnlyHint: true },
      handler: async ({ call_id }) => callRecord(await getCall(ctx, tenant.id, call_id)),
    }),
    get_call_result: mcpTool({
      description: 'The call result (GET /v1/calls/{id}/result); with wait, held up to that many seconds until it is final.',
      inputSchema: callId.extend(resultQuery.shape),
      annotations: { readOnlyHint: true },
      handler: async ({ call_id, wait }) => callResult(await waitForFinal(ctx, tenant.id, call_id, wait ?? 0)),
    }),
    steer_call: mcpTool({
      description: 'Steer a live call (POST /v1/calls/{id}/steer): an instruction for the agent, or words it says next.',
      inputSchema: callId.extend(steerBody.shape),
      handler: async ({ call_id, ...steering }) => {
        const call = await steerCall(ctx, tenant.id, call_id, parseSteer(steering));
        return { call_id: call.id, accepted: true };
      },
    }),
    hangup_call: mcpTool({
      description: 'Hang up a call (POST /v1/calls/{id}/hangup); before answer it ends canceled.',
      inputSchema: callId,
      annotations: { destructiveHint: true },
      handler: async ({ call_id }) => callRecord(await hangupCall(ctx, tenant.id, call_id)),
    }),
    list_calls: mcpTool({
      description: 'List calls newest first (GET /v1/calls), with filters and a cursor.',
      inputSchema: listCallsQuery,
      annotations: { readOnlyHint: true },
      handler: async (query) => listCallsPage(ctx, tenant, query),
    }),
    list_voices: mcpTool({
      description: 'The voice catalogue (GET /v1/voices).',
      inputSchema: z.object({}).strict(),
      annotations: { readOnlyHint: true },
      handler: async () => listVoices(ctx.config),
    }),
  };
}

/**
 * One MCP server per HTTP request (stateless): the tools act for `caller` alone. Our own tools/call
 * handler, not the SDK's McpServer: its argument check answers a text alone, naming no field.
 */
export function mcpServer(ctx: Ctx, caller: McpCaller): Server {
  const tools = { ...callTools(ctx, caller), ...campaignTools(ctx, caller.principal.tenant) };
  const server = new Server({ name: 'switchboard-voice', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: Object.entries(tools).map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.inputSchema, { io: 'input', target: 'draft-7' }) as Tool['inputSchema'],
      ...(tool.annotations && { annotations: tool.annotations }),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = tools[request.params.name];
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return runTool(ctx, caller, tool, request.params.arguments ?? {});
  });
  return server;
}
