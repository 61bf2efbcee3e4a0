// The model client: the real `openai` client against any OpenAI-compatible endpoint.
import OpenAI from 'openai';

export interface ModelClient {
  openai: OpenAI;
  defaultModel: string;
}

export function createModelClient(opts: { baseURL: string; apiKey?: string; defaultModel: string; timeoutMs: number }): ModelClient {
  return {
    openai: new OpenAI({
      baseURL: opts.baseURL,
      apiKey: opts.apiKey ?? 'unused',
      timeout: opts.timeoutMs,
      // A failed turn is reported, not retried behind the caller's back.
      maxRetries: 0,
    }),
    defaultModel: opts.defaultModel,
  };
}
