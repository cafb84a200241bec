/**
 * Country and place words in company names, from the data the runtime and the repo already hold: country
 * names in several languages from CLDR (`Intl.DisplayNames`, shipped with Node's ICU), the spec's country
 * and region names (`schemas/enums.json`) and the generator's real cities. Country words inside a name are
 * written one way ("Holland", "Nederland", "Pays-Bas" → `netherlands`); places after the name ("…,
 * Utrecht, NL", "… te Utrecht") are recognised so the normaliser can drop them.
 */
import { COUNTRIES } from '../schemas/places.js';
import SAVED from './place-tables.generated.json' with { type: 'json' };
import { COUNTRY_CODES, COUNTRY_NAMES, REGION_NAMES } from '../schemas/enums.js';
import { words } from './text.js';

/** Languages whose country names are recognised (the languages company registers are written in). */
const LANGUAGES = [
  'en',
  'de',
  'fr',
  'nl',
  'es',
  'it',
  'pt',
  'sv',
  'da',
  'nb',
  'fi',
  'pl',
  'cs',
  'ro',
  'hu',
  'tr',
  'id',
];

/**
 * Common names for countries and regions that CLDR files elsewhere (short forms, older names) → the
 * ISO code, or `europe` for the continent, which names use as a qualifier like a country.
 */
const ALIASES: readonly (readonly [string, string])[] = [
  ['holland', 'nl'],
  ['usa', 'us'],
  ['us', 'us'],
  ['america', 'us'],
  ['united states of america', 'us'],
  ['uk', 'gb'],
  ['great britain', 'gb'],
  ['britain', 'gb'],
  ['deutschland', 'de'],
  ['brasil', 'br'],
  ['schweiz', 'ch'],
  ['suisse', 'ch'],
  ['svizzera', 'ch'],
  ['nippon', 'jp'],
  ['korea', 'kr'],
  ['republic of korea', 'kr'],
  ['europe', 'europe'],
  ['europa', 'europe'],
  ['europaische', 'europe'],
  ['european', 'europe'],
  ['europeenne', 'europe'],
];

/** The canonical word of a country: its English name without spaces ("unitedkingdom"). */
function canonical(code: string, english: ReadonlyMap<string, string>): string {
  if (code === 'europe') return 'europe';
  return (english.get(code) ?? code).replace(/ /g, '');
}

function buildCountryWords(): Map<string, string> {
  const english = new Map<string, string>();
  const en = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const code of COUNTRY_CODES) {
    const name = safeName(en, code);
    if (name !== null) english.set(code, words(name).join(' '));
  }
  const out = new Map<string, string>();
  const add = (phrase: string, code: string) => {
    const folded = words(phrase).join(' ');
    if (folded.length >= 2 && !out.has(folded)) out.set(folded, canonical(code, english));
  };
  for (const [phrase, code] of ALIASES) add(phrase, code);
  for (const lang of LANGUAGES) {
    const names = new Intl.DisplayNames([lang], { type: 'region' });
    for (const code of COUNTRY_CODES) {
      const name = safeName(names, code);
      if (name !== null) add(name, code);
    }
  }
  COUNTRY_CODES.forEach((code, i) => add(COUNTRY_NAMES[i] ?? '', code));
  return out;
}

function safeName(names: Intl.DisplayNames, code: string): string | null {
  try {
    const name = names.of(code.toUpperCase());
    return name === undefined || name === code.toUpperCase() ? null : name;
  } catch {
    return null;
  }
}

function buildPlaces(canonicalCountries: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const add = (s: string) => {
    const folded = words(s).join(' ');
    if (folded.length >= 2) out.add(folded);
  };
  for (const country of COUNTRIES) for (const city of country.cities) add(city[0]);
  for (const region of REGION_NAMES) add(region.replace(/\[.*\]/, ''));
  for (const c of canonicalCountries) out.add(c);
  for (const c of COUNTRY_CODES) out.add(c); // "…, Utrecht, NL"
  return out;
}

/** The country and place words, built from CLDR and the spec's lists on first use. */
export interface PlaceTables {
  /** Folded country phrase ("pays bas", "holland", "united states") → canonical word ("netherlands"). */
  readonly countryWords: ReadonlyMap<string, string>;
  /** The first word of each phrase of {@link countryWords} (a cheap test before a longer lookup). */
  readonly countryFirst: ReadonlySet<string>;
  /** The canonical country words themselves (what {@link countryWords} maps to). */
  readonly canonicalCountries: ReadonlySet<string>;
  /** Folded place names (cities, regions, countries) that may follow a name as its location. */
  readonly places: ReadonlySet<string>;
  /** Last word of a place or country phrase → the most words such a phrase has. */
  readonly placeLast: ReadonlyMap<string, number>;
}

/** The tables as lists (what `place-tables.generated.json` holds, with the CLDR version they came from). */
export interface PlaceLists {
  cldr: string | undefined;
  /** {@link PlaceTables.countryWords}, in order. */
  countryWords: [string, string][];
  /** {@link PlaceTables.places}, in order. */
  places: string[];
}

/** Builds the lists from CLDR (this Node's ICU) and the spec's lists: ~0.15 s of CPU. */
export function buildPlaceLists(): PlaceLists {
  const countryWords = buildCountryWords();
  const places = buildPlaces(new Set(countryWords.values()));
  return { cldr: process.versions.cldr, countryWords: [...countryWords], places: [...places] };
}

function tablesOf(lists: Pick<PlaceLists, 'countryWords' | 'places'>): PlaceTables {
  const countryWords = new Map(lists.countryWords);
  const canonicalCountries = new Set(countryWords.values());
  const places = new Set(lists.places);
  const placeLast = new Map<string, number>();
  for (const phrase of [...places, ...countryWords.keys()]) {
    const parts = phrase.split(' ');
    const last = parts[parts.length - 1] as string;
    placeLast.set(last, Math.max(placeLast.get(last) ?? 0, parts.length));
  }
  const countryFirst = new Set([...countryWords.keys()].map((k) => k.split(' ')[0] as string));
  return { countryWords, countryFirst, canonicalCountries, places, placeLast };
}

// Documented module state: built on first use, not when the module loads. The CLDR names of 17
// languages and the folding of every phrase cost ~0.15 s of CPU, which every process that imports the
// engine paid at startup (a CLI `--help`, a server that never matches a name), not only the ones that
// normalise a company name. Where this Node's CLDR is the one `place-tables.generated.json` was written
// with (`node --import tsx scripts/place-tables.ts`), its lists are the same and are used instead.
let tables: PlaceTables | undefined;

/** The country and place tables (made on the first call, then the same object). */
export function placeTables(): PlaceTables {
  const saved = SAVED as PlaceLists;
  tables ??= tablesOf(saved.cldr === process.versions.cldr ? saved : buildPlaceLists());
  return tables;
}

/** The longest phrase length in either map (phrases are looked up by word count). */
export const MAX_PLACE_WORDS = 5;

/**
 * How many trailing words of `tokens[start..end)` name a place or country (0 when none; never all of
 * the range).
 */
export function trailingPlaceLength(tokens: readonly string[], start: number, end: number): number {
  const { placeLast, places, countryWords } = placeTables();
  const most = placeLast.get(tokens[end - 1] as string);
  if (most === undefined) return 0;
  for (let n = Math.min(most, MAX_PLACE_WORDS, end - start - 1); n >= 1; n--) {
    const phrase = n === 1 ? (tokens[end - 1] as string) : tokens.slice(end - n, end).join(' ');
    if (places.has(phrase) || countryWords.has(phrase)) return n;
  }
  return 0;
}

/** Whether the words `tokens` are one place or country (or a run of them: "Utrecht NL"). */
export function isPlace(tokens: readonly string[]): boolean {
  const { places, countryWords } = placeTables();
  let end = tokens.length;
  while (end > 0) {
    let n = Math.min(MAX_PLACE_WORDS, end);
    for (; n >= 1; n--) {
      const phrase = tokens.slice(end - n, end).join(' ');
      if (places.has(phrase) || countryWords.has(phrase)) break;
    }
    if (n === 0) return false;
    end -= n;
  }
  return tokens.length > 0;
}
