/**
 * Input bounds of the matchers, applied at the entry of every batch so library callers that bypass the
 * facade's schema (which refuses longer values with a 422) get the same bounded work. The row echoed in
 * the answer is the caller's own; only the matcher sees the bounded copy.
 *
 * Names are bounded twice: in characters as given, and after folding (ligatures such as "ﬃ" and dotted
 * capitals such as "İ" expand when folded), with each word cut to {@link MAX_NAME_WORD} characters —
 * no company or person name has longer words, and scoring costs grow with word length.
 */
import { words } from '../../normalise/index.js';
import type { BusinessInput, ProspectInput } from './types.js';

/** Longest name (company or person) read, as given and after folding; the live schema's 256. */
export const MAX_NAME_CHARS = 256;
/** Longest word of a name read after folding. */
export const MAX_NAME_WORD = 64;
/** Longest e-mail address (RFC 5321 path limit). */
export const MAX_EMAIL_CHARS = 320;
/** Longest phone number (E.164 is 15 digits; formatting and extensions fit easily). */
export const MAX_PHONE_CHARS = 64;
/** Longest URL, domain or id read. */
export const MAX_URL_CHARS = 2_048;

/** A name within the bounds: unchanged when it already is, else its folded words cut to fit. */
export function boundedName(v: string | null, max = MAX_NAME_CHARS): string | null {
  if (v === null) return null;
  if (asciiWithin(v, max)) return v;
  const raw = v.length > max ? v.slice(0, max) : v;
  const ws = words(raw);
  let total = ws.length - 1;
  let longest = 0;
  for (const w of ws) {
    total += w.length;
    longest = Math.max(longest, w.length);
  }
  if (raw === v && total <= max && longest <= MAX_NAME_WORD) return v;
  const out: string[] = [];
  let used = 0;
  for (const w of ws) {
    const word = w.slice(0, Math.min(MAX_NAME_WORD, max - used));
    if (word.length === 0) break;
    out.push(word);
    used += word.length + 1;
  }
  return out.join(' ');
}

/**
 * Whether an ASCII name is within the bounds as it stands, checked without folding it: ASCII folds to
 * no more characters, but for "&" (" and "), and no word is longer than the longest run of characters
 * between spaces.
 */
function asciiWithin(v: string, max: number): boolean {
  let size = v.length;
  if (size > max) return false;
  let run = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0x80) return false;
    if (c === 0x26) size += 4;
    if (c === 0x20) run = 0;
    else if (++run > MAX_NAME_WORD) return false;
  }
  return size <= max;
}

const cap = (v: string | null, max: number) => (v !== null && v.length > max ? v.slice(0, max) : v);

/** The business row the matcher reads (the row itself when it is within the bounds: no copy). */
export function boundedBusiness(row: BusinessInput): BusinessInput {
  const name = boundedName(row.name);
  const domain = cap(row.domain, MAX_URL_CHARS);
  const url = cap(row.url, MAX_URL_CHARS);
  const linkedin_url = cap(row.linkedin_url, MAX_URL_CHARS);
  if (name === row.name && domain === row.domain && url === row.url && linkedin_url === row.linkedin_url)
    return row;
  return { name, domain, url, linkedin_url };
}

/** The prospect row the matcher reads. */
export function boundedProspect(row: ProspectInput): ProspectInput {
  return {
    business_id: cap(row.business_id, MAX_URL_CHARS),
    full_name: boundedName(row.full_name),
    company_name: boundedName(row.company_name),
    email: cap(row.email, MAX_EMAIL_CHARS),
    phone_number: cap(row.phone_number, MAX_PHONE_CHARS),
    linkedin: cap(row.linkedin, MAX_URL_CHARS),
  };
}
