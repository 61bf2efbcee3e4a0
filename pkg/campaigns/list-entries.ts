// Reading the list (voice spec "Campaign list entry"): each entry becomes a person of the run, or is
// left out (no contact_id, or a repeat), or is skipped with its reason, reported as a result.
import { IANAZone } from 'luxon';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { ContactRow } from '../store/campaigns/contacts.js';
import type { ContactPolicy } from '../store/campaigns/number-checks.js';
import type { SkipReason } from './state.js';

const MAX_ID = 100;
const MAX_NAME = 100;
const MAX_CONTEXT_BYTES = 8 * 1024;
/** Digits a number has at most and still is a short code or an emergency number. */
const SHORT_NUMBER_DIGITS = 6;

/** An entry as read: who, and the reason to skip them, if any (phone null when unreadable). */
export type Entry = Pick<ContactRow, 'contact_id' | 'position' | 'name' | 'phone' | 'timezone' | 'context'> & { skip: SkipReason | null };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function contactIdOf(v: unknown): string | null {
  const id = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID ? id : null;
}

/** The number in E.164 and whether it may be called at all. */
function readPhone(raw: unknown, country: string, policy: ContactPolicy, ownNumbers: string[]): { phone: string | null; skip: SkipReason | null } {
  if (typeof raw !== 'string') return { phone: null, skip: 'invalid_phone' };
  if (raw.replace(/\D/g, '').length <= SHORT_NUMBER_DIGITS && /\d/.test(raw)) return { phone: null, skip: 'not_allowed' };
  const parsed = parsePhoneNumberFromString(raw, country as CountryCode);
  if (!parsed?.isValid()) return { phone: null, skip: 'invalid_phone' };
  const phone = parsed.number;
  const refused = !policy.allowedCountries.includes(parsed.country ?? '') || parsed.getType() === 'PREMIUM_RATE' || ownNumbers.includes(phone);
  return { phone, skip: refused ? 'not_allowed' : null };
}

/** The facts for the call: the entry's context with its name added, unless unreadable or over 8 KB. */
function readContext(entry: Record<string, unknown>, defaultZone: string): Pick<Entry, 'name' | 'timezone' | 'context'> & { bad: boolean } {
  const name = entry.name === undefined || entry.name === null ? null : entry.name;
  const context = entry.context === undefined || entry.context === null ? {} : entry.context;
  const zone = entry.timezone === undefined || entry.timezone === null ? defaultZone : entry.timezone;
  const bad =
    (name !== null && (typeof name !== 'string' || name.length > MAX_NAME)) ||
    !isObject(context) ||
    Buffer.byteLength(JSON.stringify(context)) > MAX_CONTEXT_BYTES ||
    typeof zone !== 'string' ||
    !IANAZone.isValidZone(zone);
  if (bad) return { name: null, timezone: defaultZone, context: {}, bad };
  const withName = typeof name === 'string' && !('name' in (context as object)) ? { ...(context as object), name } : (context as Record<string, unknown>);
  return { name: name as string | null, timezone: zone as string, context: withName, bad };
}

export interface ReadOptions {
  country: string;
  defaultZone: string;
  policy: ContactPolicy;
  ownNumbers: string[];
}

/** Every entry with a contact_id not seen before, in list order. */
export function readEntries(entries: unknown[], opts: ReadOptions): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  entries.forEach((raw, position) => {
    const entry = isObject(raw) ? raw : {};
    const contactId = contactIdOf(entry.contact_id);
    if (contactId === null || seen.has(contactId)) return;
    seen.add(contactId);
    const { phone, skip: phoneSkip } = readPhone(entry.phone, opts.country, opts.policy, opts.ownNumbers);
    const { bad, ...facts } = readContext(entry, opts.defaultZone);
    const skip = phoneSkip === 'invalid_phone' ? phoneSkip : bad ? 'invalid_context' : phoneSkip;
    out.push({ contact_id: contactId, position, phone, ...facts, skip });
  });
  return out;
}
