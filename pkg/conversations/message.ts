// POST /api/v1/conversations/:id/messages: one user message and the agent's turn, serialized per
// conversation so two concurrent messages never interleave history.
import type { Ctx } from '../context.js';
import { Conflict, DomainError, NotFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { runTurn, storeWhileAsking, type TurnEvent, type TurnResult } from '../agent/turn.js';
import { getContact, resolveContact } from '../store/contacts.js';
import { bindContact, updateConversation, type Conversation } from '../store/conversations.js';
import { chargeAlongside, chargeTokens } from '../store/credits.js';
import { appendMessage } from '../store/messages.js';
import type { Tenant } from '../store/tenants.js';
import { authenticate, principalFrom, type Principal } from '../store/keys.js';
import { chatTurnReads, turnContext } from '../store/turn-context.js';
import { mergeTools, sealTools, type CustomTool } from '../tools/custom-tools.js';
import { assertMemoryScopeAllowed } from './open.js';
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
  /**
   * Called once the key is known good, before anything else is checked: counts the request against
   * its limits and gives the message (the request's body). What it throws refuses the turn.
   */
  admit: (principal: Principal) => Promise<MessageInput>;
  /** Called once every check has passed, just before the model is asked (streams start here). */
  onStart?: () => void;
  emit?: (event: TurnEvent) => void;
  /** Closes a phase of the request's timing: `context` (key, lock and reads), `store` (the user's message is durable), `model`. */
  mark?: (phase: string) => void;
}

export interface MessageResult {
  turn: TurnResult;
  conversation: Conversation;
  resumed?: { resumedTriggerId: string; resumedStatus: string } | { resumeError: { status: number; error: string } };
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

/**
 * The turn of the request authenticated by `apiKey`: the key is looked up with the conversation's
 * lock and reads, so the model is asked after one round trip.
 */
export async function sendMessage(ctx: Ctx, apiKey: string, conversationId: string, hooks: MessageHooks): Promise<MessageResult> {
  if (!isUuid(conversationId)) {
    await hooks.admit(await authenticate(ctx, apiKey));
    throw new NotFound(`Unknown conversation ${conversationId}`);
  }
  // Every check runs under the conversation's lock, where it holds.
  const { reads, onlyIf } = chatTurnReads(apiKey, conversationId);
  return ctx.locks.withLock(conversationId, async (results, lock) => {
    const principal = await principalFrom(ctx, results[0]!.rows[0]);
    const input = await hooks.admit(principal);
    const { tenant } = principal;
    assertMemoryScopeAllowed(tenant, input.memoryScope);
    const read = turnContext(tenant, conversationId, results, input.asHumanReply);
    hooks.mark?.('context');
    const { conversation: active, agent, history, waitingJobId: triggerId } = read;
    const storedMemory = read.contactMemory;
    const conversation = await applyAdditions(ctx, tenant, active, input);
    const contactMemory =
      conversation.contactId === active.contactId ? storedMemory : (await getContact(ctx, tenant.id, conversation.contactId!)).memory;
    // No stream is opened before the user's message is durable.
    const inserted = storeWhileAsking(ctx, history, conversation.id, 'user', input.message, null, lock.run);
    const stored = inserted.then(() => {
      hooks.mark?.('store');
      hooks.onStart?.();
    });
    // Awaited by the turn unless the model fails first; the failure is then reported from below.
    stored.catch(() => {});
    let turn;
    try {
      turn = await runTurn(ctx, {
        tenant,
        agent,
        conversation,
        history,
        beforeEmit: stored,
        turnSystemMessage: input.customSystemMessage,
        contactMemory,
        emit: hooks.emit,
        mark: hooks.mark,
        extraTools: (_agent, c) => backgroundTaskTool(ctx, tenant, c),
        chargeFailed: async (usage) => chargeTokens(ctx, tenant.id, usage, (await inserted).id),
        // The reply and the credits the turn used: one statement, the unlock behind it in the same round trip.
        storeLast: async (last, done) => {
          const userMessage = await inserted;
          await appendMessage(ctx, conversation.id, 'assistant', last.content, last.metadata, [
            chargeAlongside(ctx, tenant.id, done.usage, userMessage.id),
          ], lock.close);
        },
      });
    } catch (err) {
      // A failed turn still leaves the user's message recorded before the caller hears of it.
      await stored.catch(() => {});
      throw err;
    }
    const resumed = triggerId ? await resume(ctx, tenant, triggerId, input.message) : undefined;
    return { turn, conversation: turn.conversation, resumed };
  }, reads, onlyIf);
}
