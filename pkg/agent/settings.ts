// An agent's settings as the operator and the console change them: the form checked, then the
// message webhook (an allowed destination), the voice (in the catalogue) and the handoff roster (the
// company's own agents); tools' credentials sealed before they are stored.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { agentsOfTenant, getAgent, insertAgent, updateAgentRow, type Agent } from '../store/agents.js';
import { getTenant } from '../store/tenants.js';
import { receiverIssues, receiverUrl } from '../tenants/settings.js';
import { customToolSchema, openAuth, publicTool, sealTools } from '../tools/custom-tools.js';
import { invalid, parseInput } from '../validate.js';
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

/** The operator's view: credentials never shown. */
export const agentView = (a: Agent) => ({ ...a, tools: a.tools.map(publicTool) });

/** Tools as stored: their credentials sealed. */
const sealed = (ctx: Pick<Ctx, 'secrets'>, tools: ParsedAgentInput['tools']) => tools && sealTools(tools, ctx.secrets);

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
  const own = await agentsOfTenant(ctx, tenantId, ids);
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
  return insertAgent(ctx, tenantId, { ...agent, tools: sealed(ctx, agent.tools) });
}

export async function updateAgent(
  ctx: Pick<Ctx, 'db' | 'clock' | 'secrets' | 'config'>,
  agentId: string,
  input: AgentInput,
): Promise<Agent> {
  const patch = parseInput(agentInputSchema, input, 'agent');
  const current = await getAgent(ctx, agentId);
  await checkReferences(ctx, current.tenantId, patch);
  return updateAgentRow(ctx, agentId, { ...patch, tools: sealed(ctx, patch.tools) });
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
