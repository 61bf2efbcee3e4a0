// One agent turn: call the model, run the tools it asks for on the server, repeat until it
// answers in plain text. Every message is stored as it completes, so a turn is never lost.
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Ctx } from '../context.js';
import type { HeldLock } from '../db/locks.js';
import { noUsage, type TurnCharge, type Usage } from '../credits/charge.js';
import type { ModelSlot } from '../limits/model-slots.js';
import type { Agent } from '../store/agents.js';
import type { Conversation } from '../store/conversations.js';
import { updateConversation } from '../store/conversations.js';
import { appendMessages, listMessages, unstoredMessage, type StoredMessage, type UnstoredMessage } from '../store/messages.js';
import type { Tenant } from '../store/tenants.js';
import { ModelError, modelCall } from './model-call.js';
import { assemblePrompt } from './prompt.js';
import { turnTools, type TurnTool } from './tools.js';

export type TurnEvent =
  | { type: 'content'; content: string }
  | { type: 'new_message' }
  | { type: 'tool'; name: string }
  | { type: 'handoff'; roleName: string; greeting: string; agentId: string };

export interface TurnResult {
  /** The assistant's messages of this turn, each complete. */
  messages: string[];
  toolCalls: string[];
  usage: Usage;
  handoff?: { roleName: string; greeting: string; agentId: string };
  conversation: Conversation;
  /** Set when every tool round (SWITCHBOARD_MAX_TOOL_ROUNDS) ran tools: the turn's last message is the server's, not an answer. */
  unfinished?: boolean;
  /** Set when a round was held back for an unverified contact (TurnInput.heldBack). */
  heldBack?: boolean;
}

export interface TurnInput {
  tenant: Tenant;
  agent: Agent;
  conversation: Conversation;
  turnSystemMessage?: string;
  contactMemory?: string | null;
  emit?: (event: TurnEvent) => void;
  /**
   * The stored history, when the caller has read it already (the message path reads it alongside
   * its other checks). Otherwise the turn reads it.
   */
  history?: StoredMessage[];
  /**
   * A write that must be durable before the turn emits anything (the user's message, inserted
   * while the model is already being asked).
   */
  beforeEmit?: Promise<unknown>;
  /** Closes a phase of the caller's timing each time the model answers. */
  mark?: (phase: 'model') => void;
  /**
   * A message that opens the turn without a write of its own: in the prompt at once, stored with the
   * turn's first write (a job's brief: nobody reads a job while it runs).
   */
  opening?: UnstoredMessage;
  /**
   * Stores the message that ends the turn together with the caller's closing writes, in one
   * transaction (it is then the turn's last write), after `opening` when no earlier write stored it;
   * appendMessages when not given.
   */
  storeLast?: (
    message: { content: string; metadata: Record<string, unknown> },
    result: TurnResult,
    opening: UnstoredMessage[],
  ) => Promise<void>;
  /** False asks the model for complete answers, not streams: nobody reads this turn as it is written (a job). */
  streaming?: boolean;
  /** Stops the model's answer at once (a caller cut the agent short); the turn then fails. */
  signal?: AbortSignal;
  /**
   * Whether the turn is held back with `agent` (DECISIONS.md "Verification"), asked each round since a
   * handoff changes the agent: held back, the model gets no tools and no contact memory. Never held back when not given.
   */
  heldBack?: (agent: Agent, conversation: Conversation) => Promise<boolean>;
  /** The tools a held-back round still has (a job's own); none when not given. */
  heldBackTools?: () => Map<string, TurnTool>;
  /** Extra tools for this turn (job tools). */
  extraTools?: (agent: Agent, conversation: Conversation) => Map<string, TurnTool>;
  /**
   * The model slot every model call of the turn uses, taken before the turn's lock so that a turn
   * waiting for a slot holds no conversation (pkg/agent/model-call.ts turnModelSlot); the caller
   * releases it. Without it each call takes its own.
   */
  modelSlot?: ModelSlot;
  /** What the turn costs, charged when it ends, finished or failed (pkg/credits/charge.ts); `storeLast` closes it with `charge.close`. */
  charge: TurnCharge;
}

/**
 * Starts storing a message that opens a turn while the model is already being asked, sent by the
 * turn's `lock`, and adds it to `history` for the prompt. The write is the turn's `beforeEmit`:
 * nothing is emitted or stored before it is durable. Its failure is the caller's to report; it is
 * never left unhandled. Returns the message's id and its write.
 */
export function startAppendingMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  lock: Pick<HeldLock, 'send'>,
  history: StoredMessage[],
  conversationId: string,
  role: StoredMessage['role'],
  content: string,
): { id: string; written: Promise<unknown> } {
  const message = unstoredMessage(role, content);
  const written = appendMessages({ db: ctx.db, clock: ctx.clock, pipelined: lock }, conversationId, [message]);
  written.catch(() => {});
  history.push({ ...message, createdAt: ctx.clock.now().toISOString() });
  return { id: message.id, written };
}

interface ModelRound {
  content: string;
  toolCalls: ChatCompletionMessageFunctionToolCall[];
  usage: Usage;
}

async function callModel(
  ctx: Ctx,
  input: TurnInput,
  agent: Agent,
  conversation: Conversation,
  history: StoredMessage[],
  tools: Map<string, TurnTool>,
  unverified: boolean,
  onContent: (chunk: string) => void,
): Promise<ModelRound> {
  const messages = assemblePrompt({
    agent,
    conversation,
    turnSystemMessage: input.turnSystemMessage,
    contactMemory: input.contactMemory,
    unverified,
    history,
  });
  const round: ModelRound = { content: '', toolCalls: [], usage: noUsage() };
  const request = {
    model: agent.model ?? ctx.model.defaultModel,
    messages,
    ...(tools.size ? { tools: [...tools.values()].map((t) => t.definition) } : {}),
  };
  try {
    if (input.streaming === false) return await unstreamedRound(ctx, input, request, onContent);
    return await modelCall(
      ctx,
      (model) => model.stream({ ...request, stream: true, stream_options: { include_usage: true } }, { signal: input.signal }),
      async (stream) => {
        input.mark?.('model');
        await storedBeforeEmit(input);
        for await (const chunk of stream) {
          if (chunk.usage) round.usage = toUsage(chunk.usage);
          const delta = chunk.choices[0]?.delta;
          if (!delta) continue;
          if (delta.content) {
            round.content += delta.content;
            onContent(delta.content);
          }
          for (const call of delta.tool_calls ?? []) {
            round.toolCalls[call.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
            const slot = round.toolCalls[call.index]!;
            if (call.id) slot.id = call.id;
            if (call.function?.name) slot.function.name += call.function.name;
            if (call.function?.arguments) slot.function.arguments += call.function.arguments;
          }
        }
        return round;
      },
      { signal: input.signal, slot: input.modelSlot },
    );
  } catch (err) {
    if (err instanceof StoreFailure) throw err.cause;
    if (err instanceof ModelError) throw err;
    throw new ModelError(`model request failed: ${(err as Error).message}`);
  }
}

/** A failure of the turn's own write, kept apart from the model's so its details never reach the caller as a model error. */
class StoreFailure {
  constructor(readonly cause: unknown) {}
}

const storedBeforeEmit = async (input: TurnInput): Promise<void> => {
  await input.beforeEmit?.catch((err: unknown) => {
    throw new StoreFailure(err);
  });
};

const toUsage = (u: CompletionUsage): Usage => ({
  promptTokens: u.prompt_tokens,
  completionTokens: u.completion_tokens,
  totalTokens: u.total_tokens,
});

/** callModel's round asked for as one answer rather than a stream (TurnInput.streaming false). */
async function unstreamedRound(
  ctx: Ctx,
  input: TurnInput,
  request: ChatCompletionCreateParamsNonStreaming,
  onContent: (chunk: string) => void,
): Promise<ModelRound> {
  const completion = await modelCall(
    ctx,
    (model) => model.complete(request),
    async (answer) => answer,
    { signal: input.signal, slot: input.modelSlot },
  );
  input.mark?.('model');
  await storedBeforeEmit(input);
  const message = completion.choices[0]?.message;
  const content = message?.content ?? '';
  if (content) onContent(content);
  return {
    content,
    toolCalls: (message?.tool_calls ?? []).filter((c): c is ChatCompletionMessageFunctionToolCall => c.type === 'function'),
    usage: completion.usage ? toUsage(completion.usage) : noUsage(),
  };
}

function parseArgs(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function runTurn(ctx: Ctx, input: TurnInput): Promise<TurnResult> {
  const emit = input.emit ?? (() => {});
  let { agent, conversation } = input;
  const result: TurnResult = { messages: [], toolCalls: [], usage: input.charge.usage, conversation };
  let afterTool = false;
  // The turn holds the conversation's lock, so nothing else writes its history meanwhile: the
  // history is read once and extended in memory as the turn stores messages.
  const history = input.history ?? (await listMessages(ctx, conversation.id));
  /** The opening message until a write has stored it. */
  let opening = input.opening ? [input.opening] : [];
  if (input.opening) history.push({ ...input.opening, createdAt: ctx.clock.now().toISOString() });
  const unstoredOpening = (): UnstoredMessage[] => {
    const pending = opening;
    opening = [];
    return pending;
  };
  const store = async (role: StoredMessage['role'], content: string, metadata: Record<string, unknown>) => {
    const stored = await appendMessages(ctx, conversation.id, [...unstoredOpening(), unstoredMessage(role, content, metadata)]);
    history.push(stored.at(-1)!);
  };
  /** The assistant message that ends the turn, stored as the caller closes it. */
  const storeLast = (content: string): Promise<void> => {
    const metadata = { agentId: agent.id };
    if (!input.storeLast) return store('assistant', content, metadata);
    return input.storeLast({ content, metadata }, result, unstoredOpening());
  };

  try {
    await rounds();
  } catch (err) {
    await input.charge.failed();
    throw err;
  }
  await input.charge.ended();
  return result;

  async function rounds(): Promise<void> {
    for (let round = 0; round < ctx.config.SWITCHBOARD_MAX_TOOL_ROUNDS; round++) {
      const heldBack = (await input.heldBack?.(agent, conversation)) ?? false;
      if (heldBack) result.heldBack = true;
      const tools = heldBack
        ? (input.heldBackTools?.() ?? new Map<string, TurnTool>())
        : turnTools(ctx, { tenant: input.tenant, agent, conversation }, input.extraTools?.(agent, conversation));
      let started = false;
      const reply = await callModel(ctx, input, agent, conversation, history, tools, heldBack, (chunk) => {
        if (!started && afterTool) emit({ type: 'new_message' });
        started = true;
        emit({ type: 'content', content: chunk });
      });
      input.charge.add(reply.usage);

      const calls = reply.toolCalls.filter((c) => c.function.name);
      if (reply.content) result.messages.push(reply.content);
      if (!calls.length) {
        await storeLast(reply.content);
        return;
      }
      await store('assistant', reply.content, { toolCalls: calls, agentId: agent.id });

      for (const call of calls) {
        const name = call.function.name;
        result.toolCalls.push(name);
        emit({ type: 'tool', name });
        const tool = tools.get(name);
        const args = parseArgs(call.function.arguments);
        let output: string;
        if (!tool) output = `Unknown tool ${name}`;
        else if (!args) output = 'Tool arguments must be a JSON object';
        else {
          const outcome = await tool.run(args);
          output = outcome.output;
          if (outcome.handoff) {
            const { roleName, greeting, agent: next } = outcome.handoff;
            conversation = await updateConversation(ctx, conversation, { agentId: next.id });
            agent = next;
            result.handoff = { roleName, greeting, agentId: next.id };
            result.conversation = conversation;
            emit({ type: 'handoff', ...result.handoff });
          }
        }
        await store('tool', output, { toolCallId: call.id, name });
      }
      afterTool = true;
    }
    const stop = 'I could not finish within the allowed number of tool calls.';
    result.unfinished = true;
    result.messages.push(stop);
    await storeLast(stop);
    // Every round ran tools, so this closing message starts after a tool run.
    emit({ type: 'new_message' });
    emit({ type: 'content', content: stop });
  }
}
