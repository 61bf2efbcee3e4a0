// POST /api/v1/conversations: create (201) or resume (200), with the contact rules of the spec.
import type { Ctx } from '../context.js';
import { Conflict, Invalid, Unavailable } from '../errors.js';
import { getUsableAgent } from '../store/agents.js';
import { resolveContact, type ContactHints } from '../store/contacts.js';
import {
  assertActive,
  bindContact,
  createConversation,
  getConversation,
  updateConversation,
  type Conversation,
} from '../store/conversations.js';
import { hasFeature, type Tenant } from '../store/tenants.js';

interface OpenInput {
  agentId?: string;
  conversationId?: string;
  contactId?: number;
  contact?: ContactHints;
  customSystemMessage?: string;
  metadata?: Record<string, unknown>;
  memoryScope?: 'company';
}

export function assertMemoryScopeAllowed(tenant: Tenant, memoryScope: string | undefined): void {
  if (memoryScope === 'company' && !hasFeature(tenant, 'company_memory')) {
    throw new Unavailable('Company memory is disabled for this company');
  }
}

export const conversationSummary = (c: Conversation) => ({
  conversationId: c.id,
  contactId: c.contactId,
  agentId: c.agentId,
  createdAt: c.createdAt,
});

export async function openConversation(
  ctx: Ctx,
  tenant: Tenant,
  input: OpenInput,
): Promise<{ created: boolean; conversation: Conversation }> {
  assertMemoryScopeAllowed(tenant, input.memoryScope);
  if (input.conversationId) {
    let c = await getConversation(ctx, tenant.id, input.conversationId);
    if (input.agentId && input.agentId !== c.agentId) throw new Conflict('agentId does not match the conversation');
    const changes = input.contactId !== undefined || input.contact || input.metadata || input.customSystemMessage || input.memoryScope;
    if (!changes) return { created: false, conversation: c };
    assertActive(c);
    // One transaction: a refused bind must not leave behind a contact its hints just created.
    return ctx.db.transaction(async (trx) => {
      const tx = { ...ctx, db: trx };
      const contactId = await resolveContact(tx, tenant.id, input);
      if (contactId !== null) c = await bindContact(tx, c, contactId);
      if (input.metadata || input.customSystemMessage || input.memoryScope) {
        c = await updateConversation(tx, c, {
          metadata: input.metadata,
          customSystemMessage: input.customSystemMessage,
          memoryScope: input.memoryScope,
        });
      }
      return { created: false, conversation: c };
    });
  }
  if (!input.agentId) {
    throw new Invalid('agentId is required to create a conversation', [{ path: 'agentId', message: 'Required' }]);
  }
  const agent = await getUsableAgent(ctx, tenant.id, input.agentId);
  const contactId = await resolveContact(ctx, tenant.id, input);
  const conversation = await createConversation(ctx, {
    tenantId: tenant.id,
    agentId: agent.id,
    contactId,
    metadata: input.metadata,
    customSystemMessage: input.customSystemMessage,
    memoryScope: input.memoryScope,
  });
  return { created: true, conversation };
}
