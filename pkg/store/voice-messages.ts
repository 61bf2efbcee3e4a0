// Messages of calls: what an AI agent took down for the tenant (ai_message) and voicemails.
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { prefixedId } from '../ids.js';

export interface VoiceMessageRow {
  id: string;
  tenant_id: string;
  call_id: string | null;
  kind: 'ai_message' | 'voicemail';
  caller: string;
  summary: string;
  details: Record<string, unknown>;
  agent_id: string | null;
  status: 'new' | 'read' | 'archived';
  duration_sec: number | null;
  mailbox_id: string | null;
  created_at: Date;
}

export async function insertVoiceMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  m: Pick<VoiceMessageRow, 'tenant_id' | 'call_id' | 'kind' | 'caller' | 'summary' | 'details' | 'agent_id'> & { duration_sec?: number; mailbox_id?: string },
): Promise<VoiceMessageRow> {
  const [row] = await ctx.db('voice_messages')
    .insert({ ...m, id: prefixedId('msg'), details: JSON.stringify(m.details), duration_sec: m.duration_sec ?? null, created_at: ctx.clock.now() })
    .returning('*');
  return row;
}

export async function getVoiceMessage(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<VoiceMessageRow> {
  const row = await ctx.db('voice_messages').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`No message ${id} on this account`);
  return row;
}

/** The call's messages, each with the name of the mailbox it was left in (null for none). */
export async function messagesOfCall(ctx: Pick<Ctx, 'db'>, callId: string): Promise<(VoiceMessageRow & { mailbox_name: string | null })[]> {
  return ctx.db('voice_messages as m')
    .leftJoin('mailboxes as b', 'b.id', 'm.mailbox_id')
    .where({ 'm.call_id': callId })
    .orderBy('m.created_at')
    .select('m.*', 'b.name as mailbox_name');
}
