// The tools one turn may offer the model, each with the code that runs it on the server.
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Ctx } from '../context.js';
import type { Agent } from '../store/agents.js';
import type { Conversation } from '../store/conversations.js';
import { hasFeature, type Tenant } from '../store/tenants.js';
import { NotFound } from '../errors.js';
import { getUsableAgent } from '../store/agents.js';
import { searchCompanyMemory } from '../store/memories.js';
import type { StoredTool } from '../store/tools.js';
import { callHttpTool } from '../tools/http-tool.js';
import { webhookSecret } from '../webhooks/secret.js';

/** Never offered on the API channel, whatever an agent is configured with. */
const FORBIDDEN_TOOLS = new Set(['end_conversation', 'barge_in', 'call_internal_contact', 'end_session']);

interface Handoff {
  roleName: string;
  greeting: string;
  agent: Agent;
}

interface ToolOutcome {
  output: string;
  handoff?: Handoff;
}

export interface TurnTool {
  definition: ChatCompletionTool;
  run(args: Record<string, unknown>): Promise<ToolOutcome>;
}

interface TurnToolScope {
  tenant: Tenant;
  agent: Agent;
  conversation: Conversation;
}

const fn = (name: string, description: string, parameters: Record<string, unknown>): ChatCompletionTool => ({
  type: 'function',
  function: { name, description, parameters },
});

function httpTool(ctx: Ctx, tenant: Tenant, name: string, tool: StoredTool): TurnTool {
  const properties = Object.fromEntries(
    tool.parameters.map((p) => [
      p.name,
      // JSON Schema arrays need `items`; the custom tool shape has no item type, so any is allowed.
      { type: p.type, ...(p.type === 'array' ? { items: {} } : {}), ...(p.description ? { description: p.description } : {}) },
    ]),
  );
  const required = tool.parameters.filter((p) => p.required).map((p) => p.name);
  return {
    definition: fn(name, tool.description, { type: 'object', properties, required }),
    run: async (args) => {
      const signing = { secret: await webhookSecret(ctx, tenant.id), timestamp: Math.floor(ctx.clock.now().getTime() / 1000) };
      return { output: await callHttpTool(ctx, tool, args, signing) };
    },
  };
}

function handoffTool(ctx: Ctx, { tenant, agent }: TurnToolScope): TurnTool {
  const roles = agent.handoffRoster.map((r) => r.roleName);
  return {
    definition: fn('handoff_to_agent', `Hand the conversation to another agent. Roles: ${roles.join(', ')}`, {
      type: 'object',
      properties: { roleName: { type: 'string', enum: roles } },
      required: ['roleName'],
    }),
    run: async (args) => {
      const target = agent.handoffRoster.find((r) => r.roleName === args.roleName);
      if (!target) return { output: `Unknown role ${String(args.roleName)}; choose one of ${roles.join(', ')}` };
      let next: Agent;
      try {
        next = await getUsableAgent(ctx, tenant.id, target.agentId);
      } catch (err) {
        // A roster entry naming an agent the tenant may not use (another tenant's): the model is told, nothing moves.
        if (!(err instanceof NotFound)) throw err;
        return { output: `Unknown agent for role ${target.roleName}; the conversation stays with you` };
      }
      return {
        output: `The conversation is now handled by ${target.roleName}. Continue as that agent.`,
        handoff: { roleName: target.roleName, greeting: target.greeting, agent: next },
      };
    },
  };
}

function memoryTool(ctx: Ctx, { tenant }: TurnToolScope): TurnTool {
  return {
    definition: fn('search_company_memory', "Search the company's memory of earlier conversations", {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for' } },
      required: ['query'],
    }),
    run: async (args) => {
      const found = await searchCompanyMemory(ctx, tenant.id, String(args.query ?? ''));
      return { output: found.length ? JSON.stringify(found) : 'No company memory matches.' };
    },
  };
}

/** Tools for a turn: the agent's assigned tools, the conversation's custom tools, and built-ins. */
export function turnTools(ctx: Ctx, scope: TurnToolScope, extra: Map<string, TurnTool> = new Map()): Map<string, TurnTool> {
  const tools = new Map<string, TurnTool>();
  for (const tool of scope.agent.tools) {
    if (!FORBIDDEN_TOOLS.has(tool.name)) tools.set(tool.name, httpTool(ctx, scope.tenant, tool.name, tool));
  }
  for (const tool of scope.conversation.customTools) {
    const name = `custom_${scope.conversation.id}_${tool.name}`;
    tools.set(name, httpTool(ctx, scope.tenant, name, tool));
  }
  if (scope.agent.handoffEnabled && scope.agent.handoffRoster.length > 0) {
    tools.set('handoff_to_agent', handoffTool(ctx, scope));
  }
  if (hasFeature(scope.tenant, 'company_memory')) tools.set('search_company_memory', memoryTool(ctx, scope));
  for (const [name, tool] of extra) tools.set(name, tool);
  return tools;
}
