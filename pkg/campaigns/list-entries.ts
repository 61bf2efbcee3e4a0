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
function readPhone(
  raw: unknown,
  country: string,
  policy: ContactPolicy,
  ownNumbers: string[],
): { phone: string | null; skip: SkipReason | null } {
  if (typeof raw !== 'string') return { phone: null, skip: 'invalid_phone' };
  if (raw.replace(/\D/g, '').length <= SHORT_NUMBER_DIGITS && /\d/.test(raw)) return { phone: null, skip: 'not_allowed' };
  const parsed = parsePhoneNumberFromString(raw, country as CountryCode);
  if (!parsed?.isValid()) return { phone: null, skip: 'invalid_phone' };
  const phone = parsed.number;
  const refused =
    !policy.allowedCountries.includes(parsed.country ?? '') || parsed.getType() === 'PREMIUM_RATE' || ownNumbers.includes(phone);
  return { phone, skip: refused ? 'not_allowed' : null };
}

/**
 * The facts for the call: the entry's context with its name added. As DECISIONS.md "Campaign list
 * entry refused fields" says, a name is cut to 100 characters (a name that is not text is left out)
 * and a zone not known is the campaign's; only a context that is no object (or over 8 KB) is `bad`.
 */
function readContext(entry: Record<string, unknown>, defaultZone: string): Pick<Entry, 'name' | 'timezone' | 'context'> & { bad: boolean } {
  // Cut by code point: cutting a UTF-16 pair in two would leave text Postgres cannot store.
  const name = typeof entry.name === 'string' ? Array.from(entry.name).slice(0, MAX_NAME).join('') : null;
  const timezone = typeof entry.timezone === 'string' && IANAZone.isValidZone(entry.timezone) ? entry.timezone : defaultZone;
  const context = entry.context === undefined || entry.context === null ? {} : entry.context;
  if (!isObject(context) || Buffer.byteLength(JSON.stringify(context)) > MAX_CONTEXT_BYTES)
    return { name, timezone, context: {}, bad: true };
  return { name, timezone, context: name !== null && !('name' in context) ? { ...context, name } : context, bad: false };
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
