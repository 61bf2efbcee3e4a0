// POST /api/v1/conversations/:id/messages: one user message and the agent's turn, serialized per
// conversation so two concurrent messages never interleave history.
import type { Ctx } from '../context.js';
import { Conflict, DomainError } from '../errors.js';
import { runTurn, type TurnEvent, type TurnResult } from '../agent/turn.js';
import { getConversationAgent } from '../store/agents.js';
import { contactMemoryOf, getContact, resolveContact } from '../store/contacts.js';
import { bindContact, getActiveConversation, updateConversation, type Conversation } from '../store/conversations.js';
import { assertCanSpend, chargeTokens } from '../store/credits.js';
import { appendMessage, listMessages } from '../store/messages.js';
import type { Tenant } from '../store/tenants.js';
import { mergeTools, sealTools, type CustomTool } from '../tools/custom-tools.js';
import { assertMemoryScopeAllowed } from './open.js';
import { waitingForReply } from '../store/triggers.js';
import { replyToTrigger } from '../triggers/actions.js';
import { backgroundTaskTool } from '../triggers/job-tools.js';

export interface MessageInput {
  message: string;
  contactId?: number;
  customSystemMessage?: string;
  customTools?: CustomTool[];
  memoryScope?: 'company';
  /** After the turn, resume the conversation's single job waiting for a reply with this text. */
  asHumanReply?: boolean;
}

export interface MessageHooks {
  /** Called once every check has passed, just before the model is asked (streams start here). */
  onStart?: () => void;
  emit?: (event: TurnEvent) => void;
}

export interface MessageResult {
  turn: TurnResult;
  conversation: Conversation;
  resumed?: { resumedTriggerId: string; resumedStatus: string } | { resumeError: { status: number; error: string } };
}

/** asHumanReply needs exactly one job waiting for a reply; checked before the turn runs. */
async function waitingJob(ctx: Ctx, conversationId: string): Promise<string> {
  const waiting = await waitingForReply(ctx.db, conversationId);
  if (waiting.length !== 1) {
    throw new Conflict(`asHumanReply needs exactly one job waiting for a reply; this conversation has ${waiting.length}`);
  }
  return waiting[0]!.id;
}

/** The chat turn has succeeded whatever happens here: a failed resume is reported, not thrown. */
async function resume(ctx: Ctx, tenant: Tenant, triggerId: string, text: string): Promise<MessageResult['resumed']> {
  try {
    const row = await replyToTrigger(ctx, tenant, triggerId, 'provided', text);
    return { resumedTriggerId: row.id, resumedStatus: row.status };
  } catch (err) {
    if (err instanceof DomainError) return { resumeError: { status: err.status, error: err.message } };
    // What the reply endpoint would answer; the job is still parked, so /reply can recover it.
    ctx.log.error({ err, triggerId }, 'asHumanReply resume failed unexpectedly');
    return { resumeError: { status: 500, error: 'Unexpected processing failure' } };
  }
}

/**
 * Independent reads at once, so the turn waits one round trip instead of several before the
 * model is asked; the first failure in argument order wins, so the error never depends on timing.
 */
async function inOrder<T extends readonly unknown[]>(...reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** Changes a message request makes to the conversation before its turn: bind, tools, scope. */
async function applyAdditions(ctx: Ctx, tenant: Tenant, c: Conversation, input: MessageInput): Promise<Conversation> {
  // Tools are checked first: a refused merge must leave the conversation unchanged.
  const tools = input.customTools?.length ? mergeTools(c.customTools, sealTools(input.customTools, ctx.secrets)) : undefined;
  if (input.contactId !== undefined) {
    const contactId = await resolveContact(ctx, tenant.id, { contactId: input.contactId });
    if (c.contactId !== null && c.contactId !== contactId) throw new Conflict('Conversation is bound to a different contact');
    c = await bindContact(ctx, c, contactId!);
  }
  if (tools || input.memoryScope) c = await updateConversation(ctx, c, { customTools: tools, memoryScope: input.memoryScope });
  return c;
}

export async function sendMessage(
  ctx: Ctx,
  tenant: Tenant,
  conversationId: string,
  input: MessageInput,
  hooks: MessageHooks = {},
): Promise<MessageResult> {
  assertMemoryScopeAllowed(tenant, input.memoryScope);
  // Every check runs under the conversation's lock, where it holds; the reads that do not depend
  // on each other go out together, so a turn waits for few round trips before the model is asked.
  return ctx.locks.withLock(conversationId, async () => {
    const [active, , triggerId, history, agent, storedMemory] = await inOrder(
      getActiveConversation(ctx, tenant.id, conversationId),
      assertCanSpend(ctx, tenant),
      input.asHumanReply ? waitingJob(ctx, conversationId) : Promise.resolve(null),
      listMessages(ctx, conversationId),
      getConversationAgent(ctx, tenant.id, conversationId),
      contactMemoryOf(ctx, tenant.id, conversationId),
    );
    const conversation = await applyAdditions(ctx, tenant, active, input);
    const contactMemory =
      conversation.contactId === active.contactId ? storedMemory : (await getContact(ctx, tenant.id, conversation.contactId!)).memory;
    // The user's message is stored while the model is already being asked; nothing is emitted
    // (and no stream opened) before it is durable.
    const inserted = appendMessage(ctx, conversation.id, 'user', input.message);
    inserted.catch(() => {});
    history.push({ id: '', role: 'user', content: input.message, metadata: null, createdAt: ctx.clock.now().toISOString() });
    let turn;
    try {
      turn = await runTurn(ctx, {
        tenant,
        agent,
        conversation,
        history,
        beforeEmit: inserted.then(() => hooks.onStart?.()),
        turnSystemMessage: input.customSystemMessage,
        contactMemory,
        emit: hooks.emit,
        extraTools: (_agent, c) => backgroundTaskTool(ctx, tenant, c),
      });
    } catch (err) {
      // A failed turn still leaves the user's message recorded before the caller hears of it.
      await inserted.catch(() => {});
      throw err;
    }
    const userMessage = await inserted;
    await chargeTokens(ctx, tenant.id, turn.usage, userMessage.id);
    const resumed = triggerId ? await resume(ctx, tenant, triggerId, input.message) : undefined;
    return { turn, conversation: turn.conversation, resumed };
  });
}
