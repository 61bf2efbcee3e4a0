// A voicemail left in a mailbox: its recording kept first, then the message, as long as the recording.
import type { Ctx } from '../context.js';
import { prefixedId } from '../ids.js';
import { insertVoiceMessage, type VoiceMessageRow } from '../store/voice-messages.js';
import { wavSeconds } from '../voice/wav.js';

/** A voicemail is at most this long (DECISIONS.md "Mailboxes and messages"). */
export const MAX_VOICEMAIL_SEC = 120;

type Left = Pick<VoiceMessageRow, 'tenant_id' | 'call_id' | 'caller' | 'summary'> & { mailbox_id: string };

export async function keepVoicemail(ctx: Pick<Ctx, 'db' | 'clock' | 'recordings'>, left: Left, wav: Buffer): Promise<VoiceMessageRow> {
  const id = prefixedId('msg');
  // The audio first: a message never shows without it.
  await ctx.recordings.save(left.tenant_id, id, wav);
  return insertVoiceMessage(ctx, {
    ...left,
    id,
    kind: 'voicemail',
    details: {},
    agent_id: null,
    duration_sec: Math.round(wavSeconds(wav)),
  });
}
