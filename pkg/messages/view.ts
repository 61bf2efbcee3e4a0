// What the API and message.created show of a message (voice spec "Message").
import { agentRef } from '../ids.js';
import type { VoiceMessageRow } from '../store/voice-messages.js';

export type MessageRow = VoiceMessageRow & { mailbox_name: string | null };

/** `baseUrl`: the deployment's public URL (publicUrl), which recording_url is on. */
export function messageView(m: MessageRow, baseUrl: string) {
  return {
    id: m.id,
    kind: m.kind,
    caller: m.caller,
    summary: m.summary,
    details: m.details,
    agent_id: m.agent_id ? agentRef(m.agent_id) : null,
    status: m.status,
    created_at: m.created_at.toISOString(),
    ...(m.kind === 'voicemail'
      ? {
          duration_sec: m.duration_sec,
          mailbox_id: m.mailbox_id,
          mailbox_name: m.mailbox_name,
          recording_url: `${baseUrl}/v1/messages/${m.id}/recording`,
        }
      : {}),
  };
}
