// Identifiers: UUIDs where the Agent API names them, `<prefix>_<ULID>` elsewhere (DECISIONS.md).
import { randomUUID, randomBytes, createHash } from 'node:crypto';
import { ulid } from 'ulid';

export const uuid = (): string => randomUUID();

export const prefixedId = (prefix: 'tnt' | 'key'): string => `${prefix}_${ulid()}`;

/** A new raw API key, shown once; only its SHA-256 is stored. */
export function newApiKey(): { raw: string; prefix: string; hash: string } {
  const raw = `sb_${randomBytes(32).toString('base64url')}`;
  return { raw, prefix: raw.slice(0, 10), hash: sha256(raw) };
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const isUuid = (v: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
