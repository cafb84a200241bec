/**
 * ISO 20275 (ELF) CSV → the legal-form table of `src/normalise/legal-forms.generated.ts`. Pure: the
 * script writes its output, the test compares it with the committed file.
 */
import { sharedDataFile } from './shared-data.js';
import { parseCsv } from '../src/jobs/csv.js';
import { words } from '../src/normalise/text.js';

/** One spelling (folded words joined by spaces) with its class ('-': generic, no particular form), countries and where it may stand. */
export interface LegalFormSpelling {
  spelling: string;
  /** Equivalence class: the compact abbreviation of the ELF entry ("nv", "ag", "llc"). */
  klass: string;
  /** ISO 3166-1 alpha-2 codes (lower case) of the jurisdictions that use it, sorted. */
  countries: string[];
  /** Whether the spelling may also stand in front of the name ("N.V. Philips", "OOO Romashka"). */
  leading: boolean;
}

/**
 * A one-word full name is a legal form only when it names a kind of company; "Association", "Trust",
 * "Bank" or "Foundation" are also ELF forms but, written in a name, are words of the name.
 */
const COMPANY_WORD =
  /(gesellschaft|bolag|selskab|selskap|yhtio|yhti$|vennootschap|aktie|aksje|berhad|kaisha|gaisya|hoesa|company|corporation|incorporated|limited|teoranta|cyfyngedig|compagnie|companhia|aktsiaselts)/;

/**
 * Abbreviations never stripped: single letters (a truncated form is the matcher's call), roman numerals
 * and words that end names in their own right ("Fund II", "Acme & Co" stays handled as "co").
 */
const NOT_A_FORM: ReadonlySet<string> = new Set(
  (
    'ii iii iv vi et am others na up fund ' +
    // words of names in their own right ("& Son", "Family Center", "Trust", "Society", "District")
    'is ok son gen fab oth per pr tp tr ed ctr dba zoo sac sam sal ms ml pl cc ccc cdc ac ad af ra rb rt ' +
    'association assn assoc bezirk bund canton cantone chartered commune comune confederation ' +
    'confederazione consorzio coop cooperation cooperative cooperatif cooperatie district distretto ' +
    'gemeinde kanton partnership procura procuration prokura society trust trustco undivided unlimited ' +
    'reit proprietary ' +
    // country and region codes: a qualifier of the name ("Acme EU"), not a legal form
    'eu nl jp hu ca au cn da ko yu ju lv fi si np tu ba bi bn us uk de fr'
  ).split(' '),
);

/**
 * Spellings in common use that the ELF list writes otherwise (English words for forms the list names
 * by jurisdiction, romanisations of Japanese forms): [spelling, class, countries].
 */
const SUPPLEMENT: readonly (readonly [string, string, string])[] = [
  ['inc', 'inc', 'us ca ph'],
  ['incorporated', 'inc', 'us ca ph'],
  ['corp', 'corp', 'us ca ph'],
  ['corporation', 'corp', 'us ca ph jp kr tw'],
  ['co', 'co', ''],
  ['company', 'co', ''],
  ['ltd', 'ltd', ''],
  ['limited', 'ltd', ''],
  ['llc', 'llc', 'us'],
  ['pllc', 'pllc', 'us'],
  ['lllp', 'lllp', 'us'],
  ['pvt', 'pvt', 'in pk np lk bd'],
  ['private limited', 'pvt ltd', 'in pk np lk bd'],
  ['pvt ltd', 'pvt ltd', 'in pk np lk bd'],
  ['pty', 'pty', 'au za'],
  ['pty ltd', 'pty ltd', 'au za'],
  ['pte', 'pte', 'sg'],
  ['pte ltd', 'pte ltd', 'sg'],
  ['sdn bhd', 'sdn bhd', 'my'],
  ['bhd', 'bhd', 'my'],
  ['kabushiki kaisha', 'kk', 'jp'],
  ['kabushikigaisha', 'kk', 'jp'],
  ['kk', 'kk', 'jp'],
  ['k k', 'kk', 'jp'],
  ['g k', 'gk', 'jp'],
  ['sro', 'sro', 'cz sk'],
  ['s r o', 'sro', 'cz sk'],
  ['godo kaisha', 'gk', 'jp'],
  ['gk', 'gk', 'jp'],
  ['yugen kaisha', 'yk', 'jp'],
  ['gmbh and co kg', 'gmbh and co kg', 'de at'],
  ['gmbh co kg', 'gmbh and co kg', 'de at'],
  ['ag and co kg', 'ag and co kg', 'de at'],
  ['se and co kg', 'se and co kg', 'de'],
  ['sa de cv', 'sa de cv', 'mx'],
  ['ab publ', 'ab', 'se'],
  ['publ', 'ab', 'se'],
  ['ltee', 'ltd', 'ca'],
  ['ltda', 'ltda', 'br pt co cl'],
  ['sau', 'sau', 'es'],
  ['spzoo', 'sp z o o', 'pl'],
  ['me', 'me', 'br'],
  ['eireli', 'eireli', 'br'],
  ['dac', 'dac', 'ie'],
  ['plc', 'plc', 'gb ie'],
  ['llp', 'llp', 'in us gb'],
  ['ug', 'ug', 'de'],
  ['limited liability company', 'llc', 'us'],
  ['limited liability partnership', 'llp', 'us gb in'],
  ['limited partnership', 'lp', 'us gb'],
  ['lp', 'lp', 'us gb'],
  ['public limited company', 'plc', 'gb ie'],
  // The jurisdictions the matcher knew before the table was generated (ELF lists some forms without
  // their abbreviation, e.g. the French SARL and SAS).
  ['gmbh', 'gmbh', 'de at ch li'],
  ['ag', 'ag', 'de at ch li'],
  ['kg', 'kg', 'de at'],
  ['sarl', 'sarl', 'fr be lu ch ma'],
  ['sas', 'sas', 'fr'],
  ['bv', 'bv', 'nl be'],
  ['nv', 'nv', 'nl be'],
  ['ab', 'ab', 'se fi'],
  ['srl', 'srl', 'it ro'],
  ['spa', 'spa', 'it'],
  ['sl', 'sl', 'es'],
  ['and co', 'co', ''],
  ['and company', 'co', ''],
  ['and cie', 'co', 'fr be ch lu'],
  ['co kg', 'kg', 'de at'],
  ['and co kg', 'kg', 'de at'],
  ['sp zoo', 'spzoo', 'pl'],
  ['sp z oo', 'spzoo', 'pl'],
  ['pt', 'pt', 'id'],
  // Words for "company" that name no particular form: read off, never evidence of another entity.
  ['societe', '-', ''],
  ['ste', '-', ''],
  ['societe dite', '-', ''],
  ['firma', '-', ''],
  ['tbk', 'tbk', 'id'],
];

/**
 * Abbreviations written in front of the name in their jurisdictions ("PT Bank …", "AB Volvo", "SIA
 * Tele2", "UAB Bitė", "Oy Karl Fazer", "N.V. Philips"). Every other abbreviation is read at the end of a
 * name only: most jurisdictions write the form after the name, and a short abbreviation in front is as
 * likely the company's own initials ("MPS Partners", "BRL Logistiek", "PTC Inc.", "SS&C Technologies").
 */
const LEADING_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'pt', // id
  'cv', // id
  'kk', // jp
  'ab', // se, fi, lt
  'uab', // lt
  'oy', // fi
  'as', // ee, lv, dk
  'ou', // ee
  'sia', // lv
  'nv', // nl, be
  'bv',
]);

/**
 * Words of English legal-form names ("Limited Partnership", "Public Limited Company", "Corporation"):
 * such a name stands after the company's own words, never in front ("Corporation Bank", "Limited Brands").
 */
const ENGLISH_FORM_WORD =
  /\b(company|corporation|incorporated|limited|partnership|liability|corp|inc|ltd|trust)\b/;

/** Full names of the supplement written in front ("Kabushiki Kaisha Toshiba", "Société dite …"). */
const LEADING_SUPPLEMENT: ReadonlySet<string> = new Set([
  'kabushiki kaisha',
  'kabushikigaisha',
  'godo kaisha',
  'yugen kaisha',
  'societe',
  'societe dite',
  'ste',
  'firma',
]);

/** Full names written after the company's own words only ("… Berhad", "… Teoranta", "… Cyfyngedig"). */
const TRAILING_FULL_NAMES: ReadonlySet<string> = new Set(['berhad', 'teoranta', 'cyfyngedig']);

/**
 * Whether a full legal-form name may stand in front of the name ("Aktiebolaget Electrolux", "Naamloze
 * Vennootschap …"): one in another language than English, with a word of four letters or more (a
 * spelled-out abbreviation such as "co op" or "qi ye" is not a name).
 */
function fullNameLeads(spelling: string): boolean {
  if (TRAILING_FULL_NAMES.has(spelling) || ENGLISH_FORM_WORD.test(spelling)) return false;
  return spelling.split(' ').some((w) => w.length >= 4);
}

const isLetters = (s: string) => /^[a-z]+$/.test(s);
const isAscii = (s: string) => /^[a-z0-9 ]+$/.test(s);

/** The folded spellings of one written form: as written, and letters joined or spaced. */
function spellings(written: string): { text: string; dotted: boolean }[] {
  const folded = words(written);
  if (folded.length === 0) return [];
  const text = folded.join(' ');
  if (!isAscii(text)) return []; // a name written in another script is never compared in it
  const out = [{ text, dotted: folded.length > 1 && folded.every((w) => w.length === 1) }];
  if (out[0]!.dotted)
    out.push({ text: folded.join(''), dotted: true }); // "n v" → "nv" (may lead: "NV Philips")
  else if (folded.length === 1 && isLetters(text) && text.length >= 2 && text.length <= 4)
    out.push({ text: text.split('').join(' '), dotted: true }); // "nv" → "n v" ("N.V.")
  // "GmbH & Co. KG" is also written "GmbH Co. KG".
  if (folded.includes('and')) out.push({ text: folded.filter((w) => w !== 'and').join(' '), dotted: false });
  return out;
}

const compact = (s: string) => s.replace(/ /g, '');

/** The ELF CSV in `shared/data` beside the repository, or null. */
export function elfCsvPath(): string | null {
  return sharedDataFile('elf-code-list-v1.5.csv');
}

/** Builds the table from the ELF CSV text, sorted by spelling. */
export function legalFormTable(csv: string): LegalFormSpelling[] {
  const rows = parseCsv(csv.replace(/^\uFEFF/, ''));
  const header = rows[0] ?? [];
  const col = (name: string) => {
    const i = header.findIndex((h) => h.startsWith(name));
    if (i < 0) throw new Error(`ELF CSV: no column ${name}`);
    return i;
  };
  const cCountry = col('Country Code');
  const cLocal = col('Entity Legal Form name Local name');
  const cTrans = col('Entity Legal Form name Transliterated');
  const cAbbr = col('Abbreviations Local');
  const cAbbrT = col('Abbreviations transliterated');
  const cStatus = col('ELF Status');

  // spelling → class → countries (and whether some source allows it in front)
  const seen = new Map<string, { classes: Map<string, Set<string>>; leading: boolean }>();
  const add = (spelling: string, klass: string, countries: Iterable<string>, leading: boolean) => {
    if (spelling.length === 0 || NOT_A_FORM.has(spelling) || compact(spelling).length < 2) return;
    let entry = seen.get(spelling);
    if (entry === undefined) seen.set(spelling, (entry = { classes: new Map(), leading: false }));
    entry.leading ||= leading;
    const set = entry.classes.get(klass) ?? new Set<string>();
    for (const c of countries) if (c) set.add(c);
    entry.classes.set(klass, set);
  };

  for (const row of rows.slice(1)) {
    if (row[cStatus] !== 'ACTV') continue;
    const country = (row[cCountry] ?? '').toLowerCase();
    if (country.length !== 2) continue;
    const abbrs = [...(row[cAbbr] ?? '').split(';'), ...(row[cAbbrT] ?? '').split(';')]
      .map((a) => a.trim())
      .filter((a) => a.length > 0);
    const abbrSpellings = abbrs.flatMap(spellings);
    const firstLatin = abbrSpellings.find((s) => !NOT_A_FORM.has(s.text) && compact(s.text).length >= 2);
    for (const s of abbrSpellings) {
      // An abbreviation is its own class ("n v" and "nv" are `nv`); only a few lead the name.
      const leading = LEADING_ABBREVIATIONS.has(compact(s.text));
      add(s.text, compact(s.text), [country], leading);
    }
    for (const name of [row[cLocal] ?? '', row[cTrans] ?? '']) {
      for (const s of spellings(name)) {
        const single = !s.text.includes(' ');
        if (single && !COMPANY_WORD.test(s.text)) continue;
        const klass = firstLatin === undefined ? compact(s.text) : compact(firstLatin.text);
        add(s.text, klass, [country], fullNameLeads(s.text));
      }
    }
  }
  const supplementClass = new Map<string, string>();
  for (const [spelling, klass, countries] of SUPPLEMENT) {
    // The supplement's spellings are abbreviations and English names: only the listed abbreviations,
    // and full names in another language ("kabushiki kaisha"), may lead.
    const leading = LEADING_ABBREVIATIONS.has(compact(spelling)) || LEADING_SUPPLEMENT.has(spelling);
    add(spelling, klass, countries.split(' '), leading);
    supplementClass.set(spelling, klass);
  }

  const out: LegalFormSpelling[] = [];
  for (const [spelling, { classes, leading }] of seen) {
    // A spelling shared by several entries takes the class most of them give (ties: shortest, then
    // alphabetical), and the countries of all of them.
    let best = '';
    let bestCount = -1;
    const countries = new Set<string>();
    for (const [klass, set] of classes) {
      for (const c of set) countries.add(c);
      const n = set.size;
      if (
        n > bestCount ||
        (n === bestCount && (klass.length < best.length || (klass.length === best.length && klass < best)))
      ) {
        best = klass;
        bestCount = n;
      }
    }
    // An abbreviation is always its own class (so "inc" is never "ltd" because some entry lists both).
    // The supplement names the class of the English words the list files under one jurisdiction.
    const klass =
      supplementClass.get(spelling) ??
      (!spelling.includes(' ') && spelling.length <= 5 && classes.has(spelling) ? spelling : best);
    out.push({ spelling, klass, countries: [...countries].sort(), leading });
  }
  out.sort((a, b) => (a.spelling < b.spelling ? -1 : a.spelling > b.spelling ? 1 : 0));
  return out;
}

/** The generated module's text. */
export function renderLegalForms(table: readonly LegalFormSpelling[]): string {
  const lines = table.map((f) =>
    JSON.stringify([f.spelling, f.klass, f.countries.join(' '), f.leading ? 1 : 0]),
  );
  const text = lines.join(',\n');
  // The entries sit in a raw template literal: nothing in them may end it or interpolate.
  if (text.includes('`') || text.includes('${')) throw new Error('a legal form spelling holds ` or ${');
  return `/**
 * GENERATED by scripts/legal-forms.ts from the ISO 20275 Entity Legal Forms list (GLEIF ELF code list
 * v1.5, CC0 1.0) — do not edit by hand. Each entry: [folded spelling, equivalence class, countries that
 * use it (ISO 3166-1, space-separated; empty = everywhere), 1 when it may also stand in front of the name].
 * The entries are JSON text parsed on first use: a process that never reads a company name never parses
 * them (as a JavaScript array literal they cost every process that imports prospectdb ~30 ms of CPU).
 */
export type LegalFormEntry = readonly [string, string, string, 0 | 1];

let parsed: readonly LegalFormEntry[] | undefined;

/** Every spelling of the table (parsed on the first call, then the same array). */
export function legalFormSpellings(): readonly LegalFormEntry[] {
  return (parsed ??= JSON.parse(ENTRIES) as LegalFormEntry[]);
}

// prettier-ignore
const ENTRIES = String.raw\`[
${text}
]\`;
`;
}
