/** A person's identity: name and gender from a culture, e-mail addresses, phone numbers, LinkedIn URLs. */
import { CULTURES, type Culture } from './data/names.js';
import type { CityRow, CountrySpec } from '../../src/schemas/places.js';
import type { BusinessCore, EmailPattern } from './business-core.js';
import { mobileNumber } from './location.js';
import { Weighted, type Rng } from '../rng.js';
import { ascii } from './text.js';

export interface Person {
  first: string;
  last: string;
  gender: 'male' | 'female';
}

/** Data providers; a waterfall later ranks them. */
export const SOURCES = ['explorium', 'provider_a', 'provider_b'] as const;
const SOURCE = new Weighted(SOURCES.map((s, i) => [s, [60, 25, 15][i]!] as const));
const STATUS = new Weighted([
  ['valid', 76],
  ['catch_all', 17],
  ['invalid', 7],
] as const);
const PERSONAL_DOMAIN = new Weighted([
  ['gmail.com', 60],
  ['yahoo.com', 13],
  ['outlook.com', 12],
  ['hotmail.com', 8],
  ['icloud.com', 7],
] as const);

const CULTURE_PICKS = new Map<string, Weighted<Culture>>();
function culturePick(country: CountrySpec): Weighted<Culture> {
  let pick = CULTURE_PICKS.get(country.code);
  if (!pick) {
    pick = new Weighted(country.cultures.map(([name, w]) => [CULTURES[name]!, w] as const));
    CULTURE_PICKS.set(country.code, pick);
  }
  return pick;
}

export function person(rng: Rng, country: CountrySpec): Person {
  const culture = culturePick(country).pick(rng);
  const gender = rng.chance(0.52) ? 'male' : 'female';
  const first = rng.pick(gender === 'male' ? culture.male : culture.female);
  let last = rng.pick(culture.last);
  // Double surnames: Spanish-speaking people often carry two; elsewhere a few hyphenate.
  if (culture === CULTURES.spanish || culture === CULTURES.hispanic) {
    if (rng.chance(0.3)) last = `${last} ${rng.pick(culture.last)}`;
  } else if (rng.chance(0.03)) {
    last = `${last}-${rng.pick(culture.last)}`;
  }
  return { first, last, gender };
}

/** The local part of a work address in the company's pattern. */
export function workLocalPart(pattern: EmailPattern, p: Person): string {
  const f = ascii(p.first);
  const l = ascii(p.last);
  switch (pattern) {
    case 'first.last':
      return `${f}.${l}`;
    case 'flast':
      return `${f[0]}${l}`;
    case 'first':
      return f;
    case 'firstl':
      return `${f}${l[0]}`;
    case 'first_last':
      return `${f}_${l}`;
  }
}

export interface Email {
  address: string;
  type: 'professional' | 'current_professional' | 'personal';
  status: 'valid' | 'catch_all' | 'invalid';
  source: string;
}

/**
 * Mailboxes already handed out, for the sequential generator: a second John Smith gets
 * `john.smith2@…`, as mail admins and webmail sign-ups do. Keys fold case, and Gmail's dots.
 */
export class TakenEmails {
  private readonly taken = new Set<string>();

  /** `local@domain`, or with the first number from 2 that makes the mailbox free; then marks it taken. */
  claim(local: string, domain: string): string {
    const gmail = domain === 'gmail.com' || domain === 'googlemail.com';
    const key = (l: string) => (gmail ? l.replace(/\./g, '') + '@gmail.com' : `${l}@${domain}`);
    let out = local;
    for (let n = 2; this.taken.has(key(out)); n++) out = `${local}${n}`;
    this.taken.add(key(out));
    return `${out}@${domain}`;
  }
}

/** A person's addresses; with `taken`, each mailbox is unique across the snapshot. */
export function emails(rng: Rng, p: Person, employer: BusinessCore | null, taken?: TakenEmails): Email[] {
  const out: Email[] = [];
  const claim = (local: string, domain: string) =>
    taken === undefined ? `${local}@${domain}` : taken.claim(local, domain);
  if (employer && rng.chance(0.85)) {
    const address = claim(workLocalPart(employer.emailPattern, p), employer.domain);
    const type = rng.chance(0.6) ? 'current_professional' : 'professional';
    out.push({ address, type, status: STATUS.pick(rng), source: SOURCE.pick(rng) });
    // Several providers often report the same address, sometimes with another verdict.
    if (rng.chance(0.2)) out.push({ address, type, status: STATUS.pick(rng), source: rng.pick(SOURCES) });
  }
  if (rng.chance(employer ? 0.4 : 0.8)) {
    const f = ascii(p.first);
    const l = ascii(p.last);
    const domain = PERSONAL_DOMAIN.pick(rng);
    const local = rng.chance(0.5)
      ? `${f}.${l}`
      : rng.chance(0.5)
        ? `${f}${l}`
        : `${f}${l}${rng.between(1, 99)}`;
    out.push({
      address: claim(local, domain),
      type: 'personal',
      status: STATUS.pick(rng),
      source: SOURCE.pick(rng),
    });
  }
  return out;
}

export interface Phone {
  phone_number: string;
  type: string;
  source: string;
}

export function phones(rng: Rng, country: CountrySpec, city: CityRow | null): Phone[] {
  const out: Phone[] = [];
  if (rng.chance(0.55))
    out.push({ phone_number: mobileNumber(rng, country, city), type: 'mobile', source: SOURCE.pick(rng) });
  if (rng.chance(0.12))
    out.push({ phone_number: mobileNumber(rng, country, city), type: 'work', source: SOURCE.pick(rng) });
  return out;
}

/** A bijection on `bits`-bit integers (multiply by odd, xor-shift): distinct indexes, distinct tags. */
function permute(x: number, bits: number, seed: number): number {
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  x = (x ^ (seed & mask)) >>> 0;
  x = (Math.imul(x, 0x2c1b3c6d) & mask) >>> 0;
  x = (x ^ (x >>> (bits >> 1))) >>> 0;
  x = (Math.imul(x, 0x297a2d39) & mask) >>> 0;
  return (x ^ (x >>> (bits >> 1))) >>> 0;
}

/**
 * The primary LinkedIn URL and the variants providers report for it. The handle ends in a 6- or 8-hex
 * tag that is a bijection of the prospect index `k`, so no two prospects share a profile.
 */
export function linkedinUrls(
  rng: Rng,
  p: Person,
  k: number,
  seed: number,
): { primary: string; variants: string[] } {
  const base = `${ascii(p.first)}-${p.last
    .split(/[\s-]+/)
    .map(ascii)
    .join('-')}`;
  const short = rng.chance(0.5) && k < 1 << 24;
  const tag = short
    ? permute(k, 24, seed).toString(16).padStart(6, '0')
    : permute(k, 32, seed).toString(16).padStart(8, '0');
  const handle = `${base}-${tag}`;
  const primary = `https://www.linkedin.com/in/${handle}`;
  const variants = [primary];
  if (rng.chance(0.5)) variants.push(`https://linkedin.com/in/${handle}/`);
  if (rng.chance(0.3)) variants.push(`http://www.linkedin.com/in/${handle}`);
  if (rng.chance(0.2)) variants.push(`linkedin.com/in/${handle}`);
  return { primary, variants };
}
