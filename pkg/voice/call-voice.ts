// The voice a call speaks with and the language it is in, as its relay sessions declare them.
import type { Ctx } from '../context.js';
import { agentVoice } from '../store/agents.js';
import type { CallRow } from '../store/calls/row.js';
import { defaultVoice, findVoice, relaySpeech, type Voice } from './voices.js';

/**
 * The call's own voice (placed with, or named by its `ai` step), else its agent's, else the deployment's
 * default; a voice no longer in the catalogue is passed over.
 */
export async function voiceOfCall(ctx: Pick<Ctx, 'db' | 'config'>, row: CallRow): Promise<Voice> {
  const agents = row.agent_id ? await agentVoice(ctx, row.agent_id) : null;
  for (const id of [row.voice, agents]) {
    const voice = id ? findVoice(ctx.config, id) : undefined;
    if (voice) return voice;
  }
  return defaultVoice(ctx.config);
}

/** What a new relay session of the call declares: the language it is in now (the agent's switch, else its voice's) and every other. */
export async function speechOfCall(ctx: Pick<Ctx, 'db' | 'config'>, row: CallRow) {
  const voice = await voiceOfCall(ctx, row);
  return relaySpeech(ctx.config, voice, row.language ?? voice.language);
}
