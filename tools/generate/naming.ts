/** Company names: a core (what the domain is made of) and the full legal or trading name. */
import {
  ADJECTIVES,
  BRAND_HEADS,
  BRAND_TAILS,
  COINED,
  GROUP_WORDS,
  HOUSE_WORDS,
  LOCAL_WORDS,
  NOUNS,
} from './data/companies.js';
import type { Industry } from './data/industries.js';
import { CULTURES } from './data/names.js';
import type { CityRow, CountrySpec } from '../../src/schemas/places.js';
import type { Rng } from '../rng.js';
import { Weighted } from '../rng.js';

const PATTERN = new Weighted([
  ['surname', 24],
  ['brand', 26],
  ['coined', 14],
  ['house', 6],
  ['partners', 8],
  ['city', 12],
  ['initials', 5],
  ['surnames', 5],
] as const);

const LETTERS = 'ABCDEFGHJKLMNPRSTVW';

function industryWord(rng: Rng, country: CountrySpec, industry: Industry): string {
  const local = LOCAL_WORDS[country.code];
  return local && rng.chance(0.6) ? rng.pick(local) : rng.pick(industry.nameWords);
}

function surname(rng: Rng, country: CountrySpec): string {
  const culture = CULTURES[country.cultures[0]![0]]!;
  return rng.pick(culture.last);
}

/** The distinctive part of a company name, e.g. "Bluepath Software" or "The Copper Kettle Company". */
export function coreName(rng: Rng, country: CountrySpec, industry: Industry, city: CityRow): string {
  switch (PATTERN.pick(rng)) {
    case 'surname':
      return `${surname(rng, country)} ${industryWord(rng, country, industry)}`;
    case 'brand':
      return `${rng.pick(BRAND_HEADS)}${rng.pick(BRAND_TAILS)} ${industryWord(rng, country, industry)}`;
    case 'coined':
      return rng.chance(0.25)
        ? rng.pick(COINED)
        : `${rng.pick(COINED)} ${industryWord(rng, country, industry)}`;
    case 'house':
      return `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.pick(HOUSE_WORDS)}`;
    case 'partners':
      return `${surname(rng, country)} & ${surname(rng, country)}`;
    case 'city':
      return `${city[0]} ${industryWord(rng, country, industry)}`;
    case 'initials':
      return `${LETTERS[rng.int(LETTERS.length)]}${LETTERS[rng.int(LETTERS.length)]}${LETTERS[rng.int(LETTERS.length)]} ${industryWord(rng, country, industry)}`;
    case 'surnames':
      return `${surname(rng, country)}, ${surname(rng, country)} & ${surname(rng, country)}`;
  }
}

/** A legal name in parts: the trading body, the comma before the suffix, the suffix ('' when none). */
export interface NameParts {
  body: string;
  comma: string;
  suffix: string;
}

/** The parts of the full name: core, sometimes a group word, and a legal suffix fitting country and size. */
export function legalParts(rng: Rng, core: string, country: CountrySpec, large: boolean): NameParts {
  let body = core;
  if (!core.startsWith('The ') && rng.chance(large ? 0.3 : 0.04)) body += ` ${rng.pick(GROUP_WORDS)}`;
  if (rng.chance(0.15)) return { body, comma: '', suffix: '' }; // trading name without a suffix
  const suffix = rng.pick(large ? country.suffixes.large : country.suffixes.small);
  const comma = (suffix === 'Inc.' || suffix === 'LLC') && rng.chance(0.4) ? ',' : '';
  return { body, comma, suffix };
}

/** The parts joined: "Acme Robotics, Inc.". */
export function joinName(parts: NameParts, extra = ''): string {
  const body = extra ? `${parts.body} ${extra}` : parts.body;
  return parts.suffix ? `${body}${parts.comma} ${parts.suffix}` : body;
}

/** The full name: core, sometimes a group word, and a legal suffix that fits the country and size. */
export function legalName(rng: Rng, core: string, country: CountrySpec, large: boolean): string {
  return joinName(legalParts(rng, core, country, large));
}
