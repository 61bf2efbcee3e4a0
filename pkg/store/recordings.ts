// Voicemail recordings in Postgres (bytea: at most 120 s of 8 kHz 16-bit audio, under 2 MB each).
import type { Db } from '../db/index.js';

/** The RecordingStore of pkg/messages/recordings.ts kept in the database. */
export function postgresRecordings(db: Db) {
  return {
    async save(tenantId: string, messageId: string, wav: Buffer): Promise<void> {
      await db('message_recordings').insert({ message_id: messageId, tenant_id: tenantId, audio: wav });
    },
    async load(tenantId: string, messageId: string): Promise<Buffer | null> {
      const row = await db('message_recordings').where({ message_id: messageId, tenant_id: tenantId }).first('audio');
      return row?.audio ?? null;
    },
  };
}
