// Where voicemail recordings are kept: one small interface, so a file or object store can take
// Postgres's place (pkg/store/recordings.ts) without changing the calls or the routes.
export interface RecordingStore {
  /** Keep the WAV of the tenant's message `messageId`. */
  save(tenantId: string, messageId: string, wav: Buffer): Promise<void>;
  /** The WAV of the tenant's message, or null when it has none (or the message is another tenant's). */
  load(tenantId: string, messageId: string): Promise<Buffer | null>;
}
