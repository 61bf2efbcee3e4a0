// Identifiers: UUIDs where the Agent API names them, `<prefix>_<ULID>` elsewhere (DECISIONS.md).
import { randomUUID, randomBytes, createHash } from 'node:crypto';
import { ulid } from 'ulid';

export const uuid = (): string => randomUUID();

type IdPrefix = 'tnt' | 'key' | 'cal' | 'evt' | 'msg' | 'cmp' | 'run' | 'con' | 'que' | 'mbx' | 'usr' | 'mem';

export const prefixedId = (prefix: IdPrefix): string => `${prefix}_${ulid()}`;

// Crockford base32, as ULIDs use: an agent's UUID (128 bits) is exactly one 26-character ULID body.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The Voice API's `agt_` id of an agent (the same agent as the Agent API's UUID). */
export function agentRef(agentUuid: string): string {
  let n = BigInt(`0x${agentUuid.replace(/-/g, '')}`);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = CROCKFORD[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return `agt_${out}`;
}

/** The UUID behind an `agt_` id, or null when it is not one. */
export function parseAgentRef(ref: string): string | null {
  const m = /^agt_([0-7][0-9A-HJKMNP-TV-Z]{25})$/i.exec(ref);
  if (!m) return null;
  let n = 0n;
  for (const c of m[1]!.toUpperCase()) n = (n << 5n) | BigInt(CROCKFORD.indexOf(c));
  const hex = n.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new raw API key, shown once; only its SHA-256 is stored. */
export function newApiKey(): { raw: string; prefix: string; hash: string } {
  const raw = `sb_${randomBytes(32).toString('base64url')}`;
  return { raw, prefix: raw.slice(0, 10), hash: sha256(raw) };
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const isUuid = (v: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
