// The model stand-in: an OpenAI-compatible server whose replies each test scripts.
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { FunctionDefinition } from 'openai/resources/shared';
import { startModelServer, type ModelReply, type ModelServer } from '../../pkg/agent/openai-server.js';

export type ScriptedReply = ModelReply | ((request: ChatCompletionCreateParams) => ModelReply | Promise<ModelReply>);

export interface ScriptedModel {
  url: string;
  /** Every request the product sent, in order. */
  requests: ChatCompletionCreateParams[];
  /** The address each of `requests` came from. */
  sources: string[];
  /** Replies to give, in order; when none are queued the default reply is used. */
  reply(...replies: ScriptedReply[]): void;
  setDefault(reply: ScriptedReply): void;
  reset(): void;
  close(): Promise<void>;
}

/** On loopback, or on `host` (an address of a bridge the test made). */
export async function startScriptedModel(host?: string): Promise<ScriptedModel> {
  const queue: ScriptedReply[] = [];
  const requests: ChatCompletionCreateParams[] = [];
  const sources: string[] = [];
  let fallback: ScriptedReply = { content: 'ok' };
  const server: ModelServer = await startModelServer(
    async (request, from) => {
      requests.push(request);
      sources.push(from);
      const next = queue.shift() ?? fallback;
      return typeof next === 'function' ? next(request) : next;
    },
    { host },
  );
  return {
    url: server.url,
    requests,
    sources,
    reply: (...replies) => queue.push(...replies),
    setDefault: (reply) => {
      fallback = reply;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      sources.length = 0;
      fallback = { content: 'ok' };
    },
    close: server.close,
  };
}

/** The job a request runs (the latest job brief or follow-up in its messages), or null for a chat turn. */
export function jobIn(request: ChatCompletionCreateParams): { id: string; task: string | null } | null {
  for (const message of [...request.messages].reverse()) {
    if (message.role !== 'system' || typeof message.content !== 'string') continue;
    const found = /^(?:AUTONOMOUS JOB|FOLLOW-UP RUN of job) (\S+)/.exec(message.content);
    if (found) return { id: found[1]!, task: /^Task: (.*)$/m.exec(message.content)?.[1] ?? null };
  }
  return null;
}

/** The call a request converses on (the id its PHONE CALL instructions name), or null. */
export function callIn(request: ChatCompletionCreateParams): string | null {
  for (const message of request.messages) {
    const found = message.role === 'system' && typeof message.content === 'string' ? /^PHONE CALL (\S+):/.exec(message.content) : null;
    if (found) return found[1]!;
  }
  return null;
}

/** The function tools a request offers the model, as the product declared them. */
export function offeredFunctions(request: ChatCompletionCreateParams): FunctionDefinition[] {
  return (request.tools ?? []).flatMap((t) => (t.type === 'function' ? [t.function] : []));
}

/** The names of the tools a request offers the model (the type of any tool that is not a function). */
export const offeredTools = (request: ChatCompletionCreateParams): string[] =>
  (request.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : t.type));
