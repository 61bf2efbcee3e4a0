// Prompt assembly: strictly additive to the agent's own configuration, in a fixed order.
import type { ChatCompletionMessageParam, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { Agent } from '../store/agents.js';
import type { Conversation } from '../store/conversations.js';
import type { StoredMessage } from '../store/messages.js';

interface PromptInput {
  agent: Agent;
  conversation: Conversation;
  /** This turn's customSystemMessage, on top of the conversation-level one. */
  turnSystemMessage?: string;
  contactMemory?: string | null;
  /** The contact is not verified for an agent that requires it: the model is told to ask for the passcode. */
  unverified?: boolean;
  history: StoredMessage[];
}

const UNVERIFIED_NOTE =
  'THE CONTACT IS NOT VERIFIED. A 6-digit passcode has been sent to them through the company. Ask them to type it here. ' +
  'Until they do you have no tools and no memory of this contact: do not say you can act for them or know anything about them.';

const adminPrefix = (username: string): string => `[ADMIN MESSAGE - ${username}]`;

function historyMessage(m: StoredMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'user':
      return { role: 'user', content: m.content };
    case 'admin':
      return { role: 'user', content: `${adminPrefix(m.metadata?.username ?? 'admin')} ${m.content}` };
    case 'system':
      return { role: 'system', content: m.content };
    case 'tool':
      return { role: 'tool', content: m.content, tool_call_id: m.metadata?.toolCallId };
    case 'assistant': {
      const toolCalls = m.metadata?.toolCalls as ChatCompletionMessageFunctionToolCall[] | undefined;
      return toolCalls?.length
        ? { role: 'assistant', content: m.content || null, tool_calls: toolCalls }
        : { role: 'assistant', content: m.content };
    }
  }
}

export function assemblePrompt(input: PromptInput): ChatCompletionMessageParam[] {
  const system: string[] = [];
  if (input.agent.systemPrompt) system.push(input.agent.systemPrompt);
  if (input.conversation.customSystemMessage) system.push(input.conversation.customSystemMessage);
  if (input.turnSystemMessage) system.push(input.turnSystemMessage);
  if (Object.keys(input.conversation.metadata).length > 0) {
    system.push(`CONVERSATION METADATA:\n${JSON.stringify(input.conversation.metadata)}`);
  }
  if (input.contactMemory && !input.unverified) system.push(`WHAT YOU REMEMBER ABOUT THIS CONTACT:\n${input.contactMemory}`);
  if (input.unverified) system.push(UNVERIFIED_NOTE);
  return [...system.map((content): ChatCompletionMessageParam => ({ role: 'system', content })), ...input.history.map(historyMessage)];
}
