// Conversation operations without an AI turn: metadata, manual messages, reading, ending.
import type { Ctx } from '../context.js';
import { summarize } from '../agent/summary.js';
import { needsVerification } from './verification.js';
import { getUsableAgent } from '../store/agents.js';
import { appendContactMemory } from '../store/contacts.js';
import { getActiveConversation, getConversation, markEnded, updateConversation, type Conversation } from '../store/conversations.js';
import { addCompanyMemory } from '../store/memories.js';
import { appendMessage, listMessages, type StoredMessage } from '../store/messages.js';
import { hasFeature, type Tenant } from '../store/tenants.js';
import { latestTrigger } from '../store/triggers/get.js';

export async function replaceMetadata(
  ctx: Ctx,
  tenant: Tenant,
  id: string,
  input: { metadata: Record<string, unknown>; customSystemMessage?: string },
): Promise<Conversation> {
  const c = await getActiveConversation(ctx, tenant.id, id);
  return updateConversation(ctx, c, input);
}

export async function addManualMessage(
  ctx: Ctx,
  tenant: Tenant,
  id: string,
  input: { message: string; username?: string; metadata?: Record<string, unknown> },
): Promise<{ conversationId: string; messageId: string; addedBy: string; timestamp: string }> {
  await getActiveConversation(ctx, tenant.id, id);
  const username = input.username?.trim() || 'admin';
  // Taken under the turn lock so a manual message never lands inside a running turn's history.
  return ctx.locks.withLock(
    id,
    async () => {
      const c = await getActiveConversation(ctx, tenant.id, id);
      const m = await appendMessage(ctx, c.id, 'admin', input.message, { ...input.metadata, username, source: 'manual' });
      return { conversationId: c.id, messageId: m.id, addedBy: username, timestamp: m.createdAt };
    },
    { holder: tenant.id },
  );
}

interface MessageEntry {
  role: string;
  content: string;
  timestamp: string;
  metadata?: Record<string, unknown>;
}

const VISIBLE = new Set(['user', 'assistant', 'admin']);

function entry(m: StoredMessage, all: boolean): MessageEntry | null {
  if (!all && (!VISIBLE.has(m.role) || (m.role === 'assistant' && !m.content))) return null;
  const base = { role: m.role, content: m.content, timestamp: m.createdAt };
  if (m.role === 'admin') return { ...base, metadata: m.metadata ?? {} };
  if (all && m.role === 'tool') return { ...base, metadata: { name: m.metadata?.name } };
  // A job's brief names its job, and whether it ran with the contact unverified (DECISIONS.md "Verification").
  if (all && m.role === 'system' && m.metadata?.triggerId) {
    return {
      ...base,
      metadata: { triggerId: m.metadata.triggerId, ...(m.metadata.contactVerified === false && { contactVerified: false }) },
    };
  }
  if (all && m.role === 'assistant' && m.metadata?.toolCalls) {
    return { ...base, metadata: { toolCalls: m.metadata.toolCalls.map((c: { function: { name: string } }) => c.function.name) } };
  }
  return base;
}

export async function readConversation(ctx: Ctx, c: Conversation, includeAll: boolean) {
  const messages = (await listMessages(ctx, c.id)).map((m) => entry(m, includeAll)).filter((m) => m !== null);
  const job = await latestTrigger(ctx, c.id);
  return {
    conversationId: c.id,
    contactId: c.contactId,
    agentId: c.agentId,
    status: c.status,
    createdAt: c.createdAt,
    metadata: c.metadata,
    customSystemMessage: c.customSystemMessage,
    // Best-effort mirrors of the latest job; polling the trigger is the contract.
    jobId: job?.id ?? null,
    jobStatus: job?.status ?? null,
    messages,
  };
}

/**
 * active → ended. The summary for lasting memory is written first, while the conversation is
 * still active and under its turn lock, then the end and the memories are stored together.
 */
export async function endConversation(ctx: Ctx, tenant: Tenant, id: string): Promise<Conversation> {
  const current = await getConversation(ctx, tenant.id, id);
  if (current.status === 'ended') return current;
  return ctx.locks.withLock(
    id,
    async () => {
      const c = await getConversation(ctx, tenant.id, id);
      if (c.status === 'ended') return c;
      const companyMemory = c.memoryScope === 'company' && hasFeature(tenant, 'company_memory');
      const agent = companyMemory || c.contactId !== null ? await getUsableAgent(ctx, tenant.id, c.agentId ?? '') : null;
      // What someone not verified said is not remembered as the contact's: they may not be the contact.
      const contactMemory = agent !== null && c.contactId !== null && !needsVerification(agent, c);
      let summary: string | null = null;
      if (agent && (companyMemory || contactMemory))
        summary = await summarize(ctx, agent.model ?? ctx.model.defaultModel, await listMessages(ctx, c.id));
      return ctx.db.transaction(async (trx) => {
        const tx = { ...ctx, db: trx };
        const ended = (await markEnded(tx, c)) ?? c;
        if (summary && companyMemory) await addCompanyMemory(tx, tenant.id, c.id, summary);
        if (summary && contactMemory) await appendContactMemory(tx, c.contactId!, summary);
        return ended;
      });
    },
    { holder: tenant.id },
  );
}
