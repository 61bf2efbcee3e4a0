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
  created_at: Date;
}

export async function insertVoiceMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  m: Pick<VoiceMessageRow, 'tenant_id' | 'call_id' | 'kind' | 'caller' | 'summary' | 'details' | 'agent_id'> & { duration_sec?: number },
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

export async function messagesOfCall(ctx: Pick<Ctx, 'db'>, callId: string): Promise<VoiceMessageRow[]> {
  return ctx.db('voice_messages').where({ call_id: callId }).orderBy('created_at');
}
