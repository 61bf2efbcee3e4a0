// The model client: the real `openai` client against any OpenAI-compatible endpoint.
import OpenAI from 'openai';
import { modelFetch } from './model-fetch.js';

export interface ModelClient {
  openai: OpenAI;
  defaultModel: string;
}

export function createModelClient(opts: { baseURL: string; apiKey?: string; defaultModel: string }): ModelClient {
  return {
    // The client's own 10-minute bound per call, not the synchronous turn timeout: a turn whose
    // caller got 504 still finishes and is recorded.
    openai: new OpenAI({
      baseURL: opts.baseURL,
      apiKey: opts.apiKey ?? 'unused',
      // Retries are pkg/agent/model-call.ts's: on the injected clock, within a slot of the deployment's cap.
      maxRetries: 0,
      fetch: modelFetch,
    }),
    defaultModel: opts.defaultModel,
  };
}
