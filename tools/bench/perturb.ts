/**
 * Perturbations the way real CRM exports differ from the reference data: legal suffixes, case,
 * punctuation, "The", typos, abbreviations, word order, URL forms of domains and profile URLs, e-mail
 * case and Gmail variants, phone formats, nicknames, middle names. All driven by a seeded generator.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { GIVEN_VARIANTS } from '../../src/normalise/nicknames.js';
import type { Prng } from '../rng.js';

const SUFFIX =
  /(,?\s+(Inc\.?|LLC|Co\.|Corp\.?|Corporation|Ltd\.?|Limited|PLC|GmbH( & Co\. KG)?|UG|AG|SE|SAS|SARL|S\.A\.|SA|Pvt Ltd|Private Limited|LLP|Pty\.? Ltd\.?|B\.V\.|N\.V\.|S\.L\.|SL|S\.r\.l\.|Srl|S\.p\.A\.|SpA|Ltda\.?|ME|K\.K\.|Co\., Ltd\.|G\.K\.|AB( \(publ\))?|Pte\.? Ltd\.?|Sàrl|DAC))+$/;

/** The name without its legal suffix, and the suffix ('' when none). */
export function splitSuffix(name: string): [core: string, suffix: string] {
  const m = SUFFIX.exec(name);
  return m === null || m.index === 0 ? [name, ''] : [name.slice(0, m.index), m[0]];
}

/** Legal forms a CRM might write for a company of each country. */
const FORMS: Record<string, readonly string[]> = {
  us: [' Inc.', ', Inc.', ' LLC', ' Corp.'],
  ca: [' Inc.', ' Ltd.'],
  gb: [' Ltd', ' Limited'],
  ie: [' Ltd', ' Limited'],
  de: [' GmbH', ' AG'],
  ch: [' AG', ' GmbH'],
  fr: [' SAS', ' S.A.'],
  nl: [' B.V.'],
  in: [' Pvt Ltd', ' Limited'],
  au: [' Pty Ltd', ' Limited'],
  sg: [' Pte. Ltd.'],
  se: [' AB'],
  it: [' S.r.l.', ' S.p.A.'],
  es: [' S.L.', ' S.A.'],
  br: [' Ltda.', ' S.A.'],
  jp: [' K.K.', ' Co., Ltd.'],
};

/** The legal suffix removed, or one that fits the company's country added. */
export function suffixChange(rng: Prng, name: string, country?: string | null): string {
  const [core, suffix] = splitSuffix(name);
  if (suffix !== '') return core;
  return `${core}${rng.pick(FORMS[country ?? ''] ?? [' Ltd', ' Inc.'])}`;
}

export function caseChange(rng: Prng, s: string): string {
  const k = rng.int(3);
  if (k === 0) return s.toUpperCase();
  if (k === 1) return s.toLowerCase();
  return s.replace(/\p{L}+/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

export function punctuation(rng: Prng, s: string): string {
  const k = rng.int(3);
  if (k === 0 && /[.,]/.test(s)) return s.replace(/[.,]/g, '');
  if (k === 1 && s.includes('&')) return s.replace('&', 'and');
  if (k === 1 && / and /i.test(s)) return s.replace(/ and /i, ' & ');
  const [core, suffix] = splitSuffix(s);
  return core.includes(' ') ? core.replace(' ', rng.pick(['-', ' - ', ', '])) + suffix : `${core}.${suffix}`;
}

export function theChange(s: string): string {
  return /^the /i.test(s) ? s.slice(4) : `The ${s}`;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `n` random edits (substitute, delete, insert, transpose) on letters of the name's core. */
export function typos(rng: Prng, s: string, n: number): string {
  const [core, suffix] = splitSuffix(s);
  let out = core;
  for (let k = 0; k < n; k++) {
    const letters: number[] = [];
    for (let i = 0; i < out.length; i++) if (/\p{L}/u.test(out[i] as string)) letters.push(i);
    if (letters.length < 4) break;
    const i = rng.pick(letters);
    const ch = rng.pick([...LETTERS]);
    const kind = rng.int(4);
    if (kind === 0) out = out.slice(0, i) + ch + out.slice(i + 1);
    else if (kind === 1) out = out.slice(0, i) + out.slice(i + 1);
    else if (kind === 2) out = out.slice(0, i) + ch + out.slice(i);
    else if (i + 1 < out.length && /\p{L}/u.test(out[i + 1] as string) && out[i] !== out[i + 1]) {
      out = out.slice(0, i) + (out[i + 1] as string) + (out[i] as string) + out.slice(i + 2);
    } else out = out.slice(0, i) + ch + out.slice(i + 1);
  }
  return out + suffix;
}

const ABBREVIATIONS: readonly [RegExp, string][] = [
  [/\bInternational\b/, 'Intl'],
  [/\bInternational\b/, "Int'l"],
  [/\bManufacturing\b/, 'Mfg'],
  [/\bServices\b/, 'Svcs'],
  [/\bBrothers\b/, 'Bros'],
  [/\bAssociates\b/, 'Assoc'],
  [/\bNational\b/, 'Natl'],
  [/ and /, ' & '],
  [/ & /, ' and '],
];

/** An abbreviation applied, or null when the name has nothing to abbreviate. */
export function abbreviate(rng: Prng, s: string): string | null {
  const options = ABBREVIATIONS.filter(([re]) => re.test(s));
  if (options.length === 0) return null;
  const [re, to] = rng.pick(options);
  return s.replace(re, to);
}

/** Two words of the core swapped, or null for a one-word core. */
export function wordOrder(rng: Prng, s: string): string | null {
  const [core, suffix] = splitSuffix(s);
  const w = core.split(' ');
  if (w.length < 2) return null;
  const i = rng.int(w.length - 1);
  [w[i], w[i + 1]] = [w[i + 1] as string, w[i] as string];
  return w.join(' ') + suffix;
}

export function domainAsUrl(rng: Prng, domain: string): string {
  return `${rng.pick(['https://', 'http://', ''])}${rng.pick(['www.', ''])}${domain}${rng.pick(['/about', '/en/contact-us/', '/?utm_source=crm', '/products/index.html'])}`;
}

export function otherSubdomain(rng: Prng, domain: string): string {
  return `${rng.pick(['shop', 'blog', 'en', 'careers', 'mail', 'app'])}.${domain}`;
}

export function profileVariant(rng: Prng, url: string): string {
  const m = /linkedin\.com\/((?:company|in)\/[^/?#]+)/i.exec(url);
  if (m === null) return url;
  const path = m[1] as string;
  const host = rng.pick([
    'https://www.linkedin.com',
    'http://linkedin.com',
    'linkedin.com',
    'https://uk.linkedin.com',
    'www.linkedin.com',
  ]);
  const tail = rng.pick(['', '/', '/about/', '?trk=public_profile', '/?originalSubdomain=de']);
  const body = `${host}/${path}${tail}`;
  return rng.chance(0.3) ? body.toUpperCase().replace('HTTPS://', 'https://') : body;
}

export function emailCase(rng: Prng, email: string): string {
  return rng.chance(0.5) ? email.toUpperCase() : email.replace(/^./, (c) => c.toUpperCase());
}

/** A Gmail address written another way that reaches the same mailbox, or null for other providers. */
export function gmailVariant(rng: Prng, email: string): string | null {
  const m = /^([^@]+)@(gmail|googlemail)\.com$/i.exec(email);
  if (m === null) return null;
  const local = (m[1] as string).replace(/\./g, '');
  let out = local;
  if (rng.chance(0.6) && local.length > 2) {
    const i = 1 + rng.int(local.length - 1);
    out = local.slice(0, i) + '.' + local.slice(i);
  }
  if (rng.chance(0.5)) out += `+${rng.pick(['crm', 'news', 'work'])}`;
  return `${out}@${rng.pick(['gmail.com', 'googlemail.com', 'Gmail.com'])}`;
}

export function phoneFormat(rng: Prng, e164: string): string {
  const p = parsePhoneNumberFromString(e164);
  if (p === undefined) return e164;
  const k = rng.int(3);
  if (k === 0) return p.formatInternational();
  if (k === 1) return `00${e164.slice(1)}`;
  return p.formatInternational().replace(/ /g, '-');
}

/** The full name with a nickname (or the formal name of a nickname), or null when none is known. */
export function nickname(rng: Prng, full: string): string | null {
  const [first, ...rest] = full.split(' ');
  if (first === undefined || rest.length === 0) return null;
  const variants = (GIVEN_VARIANTS.get(first.toLowerCase()) ?? []).filter((v) => v !== first.toLowerCase());
  if (variants.length === 0) return null;
  const v = rng.pick(variants);
  return [v.charAt(0).toUpperCase() + v.slice(1), ...rest].join(' ');
}

/** Middle names dropped, or a middle initial added when there is none. */
export function middleName(rng: Prng, full: string): string {
  const w = full.split(' ');
  if (w.length > 2) return `${w[0]} ${w[w.length - 1]}`;
  if (w.length === 2) return `${w[0]} ${rng.pick([...'ABCDEJKLMRS'])}. ${w[1]}`;
  return full;
}
