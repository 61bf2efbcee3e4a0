// Voicemail recordings in Postgres (bytea: at most 120 s of 8 kHz 16-bit audio, under 2 MB each).
import type { Db } from '../db/index.js';
import type { RecordingStore } from '../messages/recordings.js';

export function postgresRecordings(db: Db): RecordingStore {
  return {
    async save(tenantId, messageId, wav) {
      await db('message_recordings').insert({ message_id: messageId, tenant_id: tenantId, audio: wav });
    },
    async load(tenantId, messageId) {
      const row = await db('message_recordings').where({ message_id: messageId, tenant_id: tenantId }).first('audio');
      return row?.audio ?? null;
    },
  };
}
