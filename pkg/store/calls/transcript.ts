// A call's transcript: lines appended as they are said, and the agent's last words revised to what was heard of them.
// The console's live calls show the transcript as it grows: each change is announced on CHANNELS.transcripts.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { CHANNELS, notifyIdColumn } from '../../db/notify.js';
import type { TranscriptItem } from './row.js';

export async function appendTranscript(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, item: TranscriptItem): Promise<void> {
  await transcriptAppend(ctx, id, item);
}

/** appendTranscript's statement, unsent, answering the row's `columns` as the append left them. */
export function transcriptAppend(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  item: TranscriptItem,
  columns: string[] = [],
): Knex.QueryBuilder {
  return ctx
    .db('calls')
    .where({ id })
    .update({ transcript: ctx.db.raw('transcript || ?::jsonb', [JSON.stringify([item])]), updated_at: ctx.clock.now() })
    .returning([...columns, notifyIdColumn(ctx.db, CHANNELS.transcripts)]);
}

/** The agent's last words become what the far end heard of them (it interrupted); added when not yet written. */
export async function reviseLastAgentWords(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, heard: string): Promise<void> {
  const item = JSON.stringify({ speaker: 'agent', text: heard });
  await ctx
    .db('calls')
    .where({ id })
    .update({
      transcript: ctx.db.raw(
        `case when transcript->-1->>'speaker' = 'agent' then jsonb_set(transcript, '{-1}', ?::jsonb) else transcript || jsonb_build_array(?::jsonb) end`,
        [item, item],
      ),
      updated_at: ctx.clock.now(),
    })
    .returning(notifyIdColumn(ctx.db, CHANNELS.transcripts));
}
