// POST /api/v1/conversations/:id/messages: one user message and the agent's turn, serialized per
// conversation so two concurrent messages never interleave history.
import type { Ctx } from '../context.js';
import { Conflict, DomainError, NotFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { turnModelSlot } from '../agent/model-call.js';
import { runTurn, startAppendingMessage, type TurnEvent, type TurnResult } from '../agent/turn.js';
import { TurnCharge } from '../credits/charge.js';
import { getContact, resolveContact } from '../store/contacts.js';
import { bindContact, updateConversation, type Conversation } from '../store/conversations.js';
import { appendMessages, unstoredMessage } from '../store/messages.js';
import type { Tenant } from '../store/tenants.js';
import { tenantOwnsConversation, turnContext, turnReads } from '../store/turn-context.js';
import { mergeTools, sealTools, type CustomTool } from '../tools/custom-tools.js';
import { assertMemoryScopeAllowed } from './open.js';
import { replyToTrigger } from '../triggers/actions.js';
import { backgroundTaskTool } from '../triggers/job-tools.js';
import { holdBackUnverified, needsVerification, redeemPasscode } from './verification.js';

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
  /** Closes a phase of the request's timing: `context` (the lock and the reads), `store` (the user's message is durable), `model`. */
  mark?: (phase: string) => void;
}

export interface MessageResult {
  turn: TurnResult;
  conversation: Conversation;
  resumed?: { resumedTriggerId: string; resumedStatus: string } | { resumeError: { status: number; error: string } };
}

const notVerified = { resumeError: { status: 403, error: 'The contact is not verified: the job waiting for a reply was not resumed' } };

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

/** A message from company `tenant` to conversation `conversationId`, and the agent's turn. */
export async function sendMessage(
  ctx: Ctx,
  tenant: Tenant,
  conversationId: string,
  input: MessageInput,
  hooks: MessageHooks = {},
): Promise<MessageResult> {
  if (!isUuid(conversationId)) throw new NotFound(`Unknown conversation ${conversationId}`);
  assertMemoryScopeAllowed(tenant, input.memoryScope);
  // Every check runs under the conversation's lock, where it holds. Only a conversation of the
  // company is locked, so no other caller waits on a turn or makes one wait.
  const own = tenantOwnsConversation(ctx.db, tenant.id, conversationId);
  const model = turnModelSlot(ctx);
  return ctx.locks
    .withLock(
      conversationId,
      async (lock) => {
        const read = turnContext(tenant, conversationId, lock.reads, input.asHumanReply);
        hooks.mark?.('context');
        const { conversation: active, agent, history, waitingJobId: triggerId } = read;
        const storedMemory = read.contactMemory;
        const added = await applyAdditions(ctx, tenant, active, input);
        const conversation = needsVerification(agent, added) ? await redeemPasscode(ctx, added, input.message) : added;
        const contactMemory =
          conversation.contactId === active.contactId ? storedMemory : (await getContact(ctx, tenant.id, conversation.contactId!)).memory;
        // No stream is opened before the user's message is durable.
        const inserted = startAppendingMessage(ctx, lock, history, conversation.id, 'user', input.message);
        const stored = inserted.written.then(() => {
          hooks.mark?.('store');
          hooks.onStart?.();
        });
        // Awaited by the turn unless the model fails first; the failure is then reported from below.
        stored.catch(() => {});
        // The turn's charge names the user's message.
        const charge = new TurnCharge(ctx, tenant.id, { turnKind: 'chat', agentId: agent.id }, () =>
          inserted.written.then(() => inserted.id),
        );
        let turn: TurnResult;
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
            heldBack: holdBackUnverified(ctx, tenant),
            extraTools: (_agent, c) => backgroundTaskTool(ctx, tenant, c, c.verifiedAt === null),
            charge,
            modelSlot: model.slot,
            // The reply and the credits the turn used: one transaction, its statements sent together.
            storeLast: async (last) => {
              await charge.close(lock, (tx) =>
                appendMessages(tx, conversation.id, [unstoredMessage('assistant', last.content, last.metadata)]),
              );
            },
          });
        } catch (err) {
          // A failed turn still leaves the user's message recorded before the caller hears of it.
          await stored.catch(() => {});
          throw err;
        }
        // A held-back turn's words answer no job: the job would act on them with its tools.
        const resumed = triggerId ? (turn.heldBack ? notVerified : await resume(ctx, tenant, triggerId, input.message)) : undefined;
        return { turn, conversation: turn.conversation, resumed };
      },
      { reads: turnReads(ctx.db, tenant.id, conversationId), onlyIf: own, holder: tenant.id, first: model.take },
    )
    .finally(model.release);
}
