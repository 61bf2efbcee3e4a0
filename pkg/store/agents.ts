// Agents: prompt, model, assigned API tools, handoff roster, contact verification, and on calls their outcomes and message webhook.
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { isUuid, uuid } from '../ids.js';
import { NotFound } from '../errors.js';
import { invalid, parseInput } from '../validate.js';
import { customToolSchema, openAuth, sealTools, publicTool, type StoredTool } from '../tools/custom-tools.js';
import { getTenant, receiverIssues, receiverUrl } from './tenants.js';
import { voiceProblem } from '../voice/voices.js';

const handoffRosterSchema = z.array(
  z.object({ roleName: z.string().min(1).max(64), agentId: z.string().uuid(), greeting: z.string().max(2000).default('') }).strict(),
);
type HandoffTarget = z.output<typeof handoffRosterSchema>[number];

const agentToolsSchema = z.array(customToolSchema).max(50);

/** DECISIONS.md "Verification": a one-time passcode sent through the company's webhook. */
const verificationSchema = z
  .object({ required: z.boolean(), method: z.literal('passcode').default('passcode'), deliver_to: z.literal('webhook').default('webhook') })
  .strict();
export type Verification = z.output<typeof verificationSchema>;

export interface Agent {
  id: string;
  tenantId: string | null;
  isPublic: boolean;
  name: string;
  systemPrompt: string;
  model: string | null;
  tools: StoredTool[];
  handoffEnabled: boolean;
  handoffRoster: HandoffTarget[];
  /** What it may end a call with (DECISIONS.md "Agent outcome values"), unless the call names its own. */
  outcomes: string[];
  /** Where the messages it takes go instead of the account's message webhook. */
  messageWebhookUrl: string | null;
  /** Whether its turns need a verified contact; null: they do not. */
  verification: Verification | null;
  /** The catalogue voice it speaks with on calls that name none (GET /v1/voices); null: the deployment's default. */
  voice: string | null;
  createdAt: string;
  updatedAt: string;
}

const agentName = z.string().trim().min(1).max(200);

const outcomesSchema = z
  .array(z.string().trim().min(1).max(64))
  .min(1)
  .max(20)
  .refine((o) => new Set(o).size === o.length, 'outcome names must be unique');

const agentInputSchema = z
  .object({
    name: agentName.optional(),
    systemPrompt: z.string().optional(),
    // null: the deployment's default model.
    model: z.string().trim().min(1).max(200).nullable().optional(),
    tools: agentToolsSchema.optional(),
    handoffRoster: handoffRosterSchema.optional(),
    handoffEnabled: z.boolean().optional(),
    isPublic: z.boolean().optional(),
    outcomes: outcomesSchema.optional(),
    messageWebhookUrl: receiverUrl.optional(),
    verification: verificationSchema.nullable().optional(),
    // null or '': the deployment's default voice.
    voice: z
      .string()
      .trim()
      .max(64)
      .nullable()
      .optional()
      .transform((v) => (v === '' ? null : v)),
  })
  .strict();
const newAgentSchema = agentInputSchema.extend({ name: agentName });

export type AgentInput = z.input<typeof agentInputSchema>;
type ParsedAgentInput = z.output<typeof agentInputSchema>;

type Row = Record<string, any>;

export const toAgent = (r: Row): Agent => ({
  id: r.id,
  tenantId: r.tenant_id,
  isPublic: r.is_public,
  name: r.name,
  systemPrompt: r.system_prompt,
  model: r.model,
  tools: r.tools,
  handoffEnabled: r.handoff_enabled,
  handoffRoster: r.handoff_roster,
  outcomes: r.outcomes,
  messageWebhookUrl: r.message_webhook_url,
  verification: r.verification,
  voice: r.voice,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The operator's view: credentials never shown. */
export const agentView = (a: Agent) => ({ ...a, tools: a.tools.map(publicTool) });

function columns(ctx: Pick<Ctx, 'secrets'>, input: ParsedAgentInput): Row {
  const out: Row = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.systemPrompt !== undefined) out.system_prompt = input.systemPrompt;
  if (input.model !== undefined) out.model = input.model;
  if (input.tools !== undefined) out.tools = JSON.stringify(sealTools(input.tools, ctx.secrets));
  if (input.handoffRoster !== undefined) out.handoff_roster = JSON.stringify(input.handoffRoster);
  if (input.handoffEnabled !== undefined) out.handoff_enabled = input.handoffEnabled;
  if (input.isPublic !== undefined) out.is_public = input.isPublic;
  if (input.outcomes !== undefined) out.outcomes = JSON.stringify(input.outcomes);
  if (input.messageWebhookUrl !== undefined) out.message_webhook_url = input.messageWebhookUrl;
  if (input.verification !== undefined) out.verification = input.verification && JSON.stringify(input.verification);
  if (input.voice !== undefined) out.voice = input.voice;
  return out;
}

/** Handoff targets must be agents of the same tenant; the message webhook https and public (or allowed); the voice in the catalogue. */
async function checkReferences(ctx: Pick<Ctx, 'db' | 'config'>, tenantId: string | null, input: ParsedAgentInput): Promise<void> {
  const issues = receiverIssues(ctx.config, { messageWebhookUrl: input.messageWebhookUrl });
  const voice = input.voice ? voiceProblem(ctx.config, input.voice) : undefined;
  if (voice) issues.push({ path: 'voice', message: voice });
  if (issues.length) throw invalid('agent', issues);
  await assertRosterOfTenant(ctx, tenantId, input.handoffRoster);
}

async function assertRosterOfTenant(ctx: Pick<Ctx, 'db'>, tenantId: string | null, roster: HandoffTarget[] = []): Promise<void> {
  if (!roster.length) return;
  const ids = [...new Set(roster.map((t) => t.agentId))];
  const own = new Set<string>(await ctx.db('agents').whereIn('id', ids).andWhere({ tenant_id: tenantId }).pluck('id'));
  const details = roster.flatMap((t, i) =>
    own.has(t.agentId) ? [] : [{ path: `handoffRoster.${i}.agentId`, message: `${t.agentId} is not an agent of this company` }],
  );
  if (details.length) throw invalid('agent', details);
}

export async function createAgent(
  ctx: Pick<Ctx, 'db' | 'clock' | 'secrets' | 'config'>,
  tenantId: string,
  input: AgentInput & { name: string },
): Promise<Agent> {
  const agent = parseInput(newAgentSchema, input, 'agent');
  await getTenant(ctx, tenantId);
  await checkReferences(ctx, tenantId, agent);
  const now = ctx.clock.now();
  const [row] = await ctx.db('agents')
    .insert({ id: uuid(), tenant_id: tenantId, ...columns(ctx, agent), created_at: now, updated_at: now })
    .returning('*');
  return toAgent(row);
}

export async function updateAgent(ctx: Pick<Ctx, 'db' | 'clock' | 'secrets' | 'config'>, agentId: string, input: AgentInput): Promise<Agent> {
  const patch = parseInput(agentInputSchema, input, 'agent');
  const current = isUuid(agentId) ? await ctx.db('agents').where({ id: agentId }).first('tenant_id') : undefined;
  if (!current) throw unknownAgent(agentId);
  await checkReferences(ctx, current.tenant_id, patch);
  const [row] = await ctx.db('agents')
    .where({ id: agentId })
    .update({ ...columns(ctx, patch), updated_at: ctx.clock.now() })
    .returning('*');
  return toAgent(row);
}

export async function listAgents(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<Agent[]> {
  return (await ctx.db('agents').where({ tenant_id: tenantId }).orderBy('created_at')).map(toAgent);
}

/** Any agent, by id (the operator's view). */
export async function getAgent(ctx: Pick<Ctx, 'db'>, agentId: string): Promise<Agent> {
  const row = isUuid(agentId) ? await ctx.db('agents').where({ id: agentId }).first() : undefined;
  if (!row) throw unknownAgent(agentId);
  return toAgent(row);
}

/** The tenant's own agent (not another's, public or not): what its console may read and change. */
export async function getOwnAgent(ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<Agent> {
  const row = isUuid(agentId) ? await ctx.db('agents').where({ id: agentId, tenant_id: tenantId }).first() : undefined;
  if (!row) throw unknownAgent(agentId);
  return toAgent(row);
}

/**
 * Tools as a form sends them back: a tool that names no credentials keeps the ones stored under its
 * name and auth type, so a write-only secret survives edits that never saw it.
 */
export function keepStoredSecrets(ctx: Pick<Ctx, 'secrets'>, agent: Agent, tools: unknown): unknown {
  if (!Array.isArray(tools)) return tools;
  const stored = new Map(agent.tools.map((t) => [t.name, t]));
  return tools.map((tool) => {
    if (!tool || typeof tool !== 'object' || 'authConfig' in tool) return tool;
    const { name, authType } = tool as { name?: unknown; authType?: unknown };
    const kept = typeof name === 'string' ? stored.get(name) : undefined;
    if (!kept || kept.authType !== authType || !kept.sealedAuth) return tool;
    return { ...tool, authConfig: openAuth(kept, ctx.secrets) };
  });
}

/** An agent the tenant may use: its own or a public one; anything else is unknown (404). */
export async function getUsableAgent(ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<Agent> {
  const row = await usableAgent(ctx.db, tenantId, agentId).first();
  if (!row) throw unknownAgent(agentId);
  return toAgent(row);
}

/** The message webhook of the tenant's own agent `agentId`, if it has one; a public agent's never gets another account's messages. */
export async function ownAgentMessageWebhook(ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<string | null> {
  const row = await ctx.db('agents').where({ id: agentId, tenant_id: tenantId }).first('message_webhook_url');
  return row?.message_webhook_url ?? null;
}

export const unknownAgent = (agentId: string): NotFound => new NotFound(`Unknown agent ${agentId}`);

/** getUsableAgent's query; a malformed id is unknown. */
export function usableAgent(db: Knex, tenantId: string, agentId: string): Knex.QueryBuilder {
  if (!isUuid(agentId)) throw unknownAgent(agentId);
  return usableAgentOf(db, tenantId, agentId);
}

/** usableAgent's query for an id known to be a UUID, or a compiled statement's parameter (pkg/db/compiled.ts). */
export const usableAgentOf = (db: Knex, tenantId: string, agentId: string): Knex.QueryBuilder =>
  db('agents').where({ id: agentId }).andWhere((q) => q.where({ tenant_id: tenantId }).orWhere({ is_public: true }));

/** The catalogue voice agent `agentId` speaks with, if it names one. */
export async function agentVoice(ctx: Pick<Ctx, 'db'>, agentId: string): Promise<string | null> {
  const row = await ctx.db('agents').where({ id: agentId }).first('voice');
  return row?.voice ?? null;
}
