// A call's transcript: lines appended as they are said, and the agent's last words revised to what was heard of them.
// The console's live calls show the transcript as it grows: each change is announced on CHANNELS.transcripts.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { compiledOnce } from '../../db/compiled.js';
import { CHANNELS, notifyIdColumn } from '../../db/notify.js';
import { compiledQuery, type Sends } from '../../db/statements.js';
import type { TranscriptItem } from './row.js';

interface Appended {
  id: string;
  /** The line, as a one-item JSON array. */
  line: string;
  at: Date;
}

/** The append of a line, answering `columns` of the row as it left it. */
const append =
  (columns: readonly string[]) =>
  (db: Knex, { id, line, at }: Appended) =>
    db('calls')
      .where({ id })
      .update({ transcript: db.raw('transcript || ?::jsonb', [line]), updated_at: at })
      .returning([...columns, notifyIdColumn(db, CHANNELS.transcripts)]);

const appendLine = compiledQuery(append([]));

const appended = (ctx: Pick<Ctx, 'clock'>, id: string, item: TranscriptItem): Appended => ({
  id,
  line: JSON.stringify([item]),
  at: ctx.clock.now(),
});

export async function appendTranscript(ctx: Pick<Ctx, 'clock'> & Sends, id: string, item: TranscriptItem): Promise<void> {
  await appendLine(ctx, appended(ctx, id, item));
}

/**
 * appendTranscript's statement, unsent, answering the row's `columns` as the append left them:
 * made once per call site (two lines of every call turn), compiled once, not on every line.
 */
export function transcriptAppend(columns: readonly string[] = []) {
  const statement = compiledOnce(append(columns));
  return (ctx: Pick<Ctx, 'db' | 'clock'>, id: string, item: TranscriptItem): Knex.SqlNative => statement(ctx.db, appended(ctx, id, item));
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
