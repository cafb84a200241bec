/**
 * Phone numbers → E.164 with libphonenumber-js. The "max" metadata build validates against each
 * country's number-type patterns (the "min" build only checks lengths), so invalid numbers are rejected.
 */
import { createRequire } from 'node:module';
import type * as Lib from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

type PhoneLib = typeof Lib;
let lib: PhoneLib | undefined;
/**
 * The library with its full metadata is ~90 modules and ~0.14 s of CPU to load: it is loaded on the
 * first phone number (a prospect match row with a phone), not by every process that imports prospectdb.
 */
const phoneLib = (): PhoneLib =>
  (lib ??= createRequire(import.meta.url)('libphonenumber-js/max') as PhoneLib);

/** Upper-cased default countries, resolved once each (callers pass "us", "GB", "uk" …). */
const countryCache = new Map<string, CountryCode | undefined>();

function resolveCountry(country: string): CountryCode | undefined {
  const cached = countryCache.get(country);
  if (cached !== undefined || countryCache.has(country)) return cached;
  let code = country.trim().toUpperCase();
  if (code === 'UK') code = 'GB'; // common alias that is not an ISO 3166 code
  const resolved = phoneLib().isSupportedCountry(code) ? code : undefined;
  if (countryCache.size < 1024) countryCache.set(country, resolved);
  return resolved;
}

/**
 * Normalises a phone number to E.164 ("+14155550123"); null when it is not a valid number. National
 * formats need `defaultCountry` (ISO 3166 alpha-2, any case); "00" and "+" prefixes work without it.
 * Extensions are dropped.
 * @example normalisePhone('020 7946 0958', 'gb') // '+442079460958'
 */
export function normalisePhone(input: string | null | undefined, defaultCountry?: string): string | null {
  if (input == null) return null;
  // Cheap rejection before the parser: no valid number has fewer than 7 digits.
  let digits = 0;
  let first = -1;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (first === -1) first = i;
      digits++;
    }
  }
  if (digits < 7 || first === -1) return null;
  let text = input;
  // "00" is the international prefix almost everywhere; read it as "+" when no "+" precedes it.
  if (input.startsWith('00', first) && input.lastIndexOf('+', first) === -1) {
    text = '+' + input.slice(first + 2);
  }
  const country = defaultCountry ? resolveCountry(defaultCountry) : undefined;
  const parsed = phoneLib().parsePhoneNumberFromString(text, country);
  return parsed !== undefined && parsed.isValid() ? parsed.number : null;
}
