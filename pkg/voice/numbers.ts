// Phone numbers: stored and shown in E.164; national formats are read in the tenant's country.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { Invalid } from '../errors.js';

/** `raw` in E.164, or null when it is not a valid number. */
export function toE164(raw: string, country: string): string | null {
  const parsed = parsePhoneNumberFromString(raw, country as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/** `raw` in E.164, or Invalid naming it (operator input). */
export function requireE164(raw: string, country: string): string {
  const number = toE164(raw, country);
  if (!number) throw new Invalid(`${raw} is not a valid phone number (E.164, or national in ${country})`);
  return number;
}

/** The country (ISO 3166) an E.164 number belongs to, when its plan says. */
export function countryOf(e164: string): string | undefined {
  return parsePhoneNumberFromString(e164)?.country;
}
