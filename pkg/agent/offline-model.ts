// The built-in offline model: deterministic answers so every endpoint can be tried without a
// model endpoint. It says it is the offline model, and it can call a tool it is asked to by name.
import type { ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { startModelServer, type ModelReply, type ModelServer } from './openai-server.js';
import { SUMMARY_INSTRUCTION } from './summary.js';

const textOf = (m: ChatCompletionMessageParam | undefined): string =>
  typeof m?.content === 'string' ? m.content : Array.isArray(m?.content) ? m.content.map((p) => ('text' in p ? p.text : '')).join('') : '';

function offlineReply(request: ChatCompletionCreateParams): ModelReply {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    return { content: `[offline model] The tool answered: ${textOf(last).slice(0, 500)}` };
  }
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const said = textOf(lastUser);
  if (request.messages.some((m) => m.role === 'system' && textOf(m) === SUMMARY_INSTRUCTION)) {
    return { content: `[offline model] Summary: ${said.slice(0, 300)}` };
  }
  const tools = request.tools ?? [];
  const asked = tools.find((t) => t.type === 'function' && said.includes(t.function.name));
  if (asked && asked.type === 'function') return { toolCalls: [{ name: asked.function.name, arguments: {} }] };
  return { content: `[offline model] You said: ${said}` };
}

export const startOfflineModel = (): Promise<ModelServer> => startModelServer(offlineReply);
