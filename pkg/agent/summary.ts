// End-of-conversation summary: one model call over the transcript, with a plain fallback.
import type { Ctx } from '../context.js';
import { modelCall } from './model-call.js';
import type { StoredMessage } from '../store/messages.js';

export const SUMMARY_INSTRUCTION =
  'Summarize this conversation in at most five sentences for future reference: who the user is, what they wanted, and what was agreed or left open.';

const transcriptOf = (messages: StoredMessage[]): string =>
  messages
    .filter((m) => m.role === 'user' || m.role === 'assistant' || m.role === 'admin')
    .map((m) => `${m.role}: ${m.content}`)
    .join('\n')
    .slice(-20_000);

export async function summarize(ctx: Ctx, model: string, messages: StoredMessage[]): Promise<string | null> {
  const transcript = transcriptOf(messages);
  if (!transcript) return null;
  try {
    const res = await modelCall(
      ctx,
      (client) =>
        client.complete({
          model,
          messages: [
            { role: 'system', content: SUMMARY_INSTRUCTION },
            { role: 'user', content: transcript },
          ],
        }),
      async (answer) => answer,
    );
    const text = res.choices[0]?.message?.content?.trim();
    if (text) return text;
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, 'summary model call failed; keeping an excerpt');
  }
  return transcript.slice(-1000);
}
