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
  history: StoredMessage[];
}

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
  if (input.contactMemory) system.push(`WHAT YOU REMEMBER ABOUT THIS CONTACT:\n${input.contactMemory}`);
  return [
    ...system.map((content): ChatCompletionMessageParam => ({ role: 'system', content })),
    ...input.history.map(historyMessage),
  ];
}
