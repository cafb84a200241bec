/**
 * Company names → comparable keys. Legal forms come off the end only (repeatedly), never the whole name;
 * the weak-word "core" is what fuzzy name matching weighs most.
 *
 * Over 400 lines on purpose: one normalisation pipeline (markers, brackets, places, legal forms,
 * initials, connectors) whose steps run in a stated order; places and legal-form tables are apart.
 */
import { legalFormSpellings } from './legal-forms.generated.js';
import { isPlace, placeTables, trailingPlaceLength } from './company-places.js';
import { commaList, words } from './text.js';

/** Normalised company name: `key` for exact lookups, `tokens` for fuzzy scoring, `core` without weak words. */
export interface CompanyName {
  key: string;
  tokens: string[];
  core: string[];
}

/**
 * Legal-form suffixes of the stored key (`companyKey`: filters, autocomplete, the generator's
 * one-name-per-country rule) as folded token sequences: every spelling of the ISO 20275 table
 * ("Naamloze Vennootschap", "N.V.", "Kft."), except those the stored key has always kept as words
 * (UG, ME, EIRELI, G.K., DAC, AB (publ)), which only matching strips ({@link companyMatchName}).
 */
const KEY_KEEPS: ReadonlySet<string> = new Set(['ug', 'me', 'eireli', 'gk', 'g k', 'dac', 'publ', 'ab publ']);

/** Weak words: dropped from `core` (never from `key`). */
const WEAK_WORDS: ReadonlySet<string> = new Set(
  commaList(`group, holdings, holding, international, global, worldwide, enterprises, solutions, services,
    technologies, systems, partners, industries`),
);

/** Unambiguous abbreviations, expanded to one spelling ("int'l" folds to "intl"). */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['intl', 'international'],
  ['mfg', 'manufacturing'],
  ['svcs', 'services'],
  ['assoc', 'associates'],
  ['bros', 'brothers'],
  ['natl', 'national'],
]);

type FormsByLastToken = ReadonlyMap<string, readonly (readonly string[])[]>;

/** Last token → the legal forms that end with it, longest first. */
function formsByLastToken(forms: readonly string[]): FormsByLastToken {
  const byLast = new Map<string, string[][]>();
  for (const form of forms) {
    const parts = form.split(' ');
    const last = parts[parts.length - 1] as string;
    const list = byLast.get(last) ?? [];
    list.push(parts);
    byLast.set(last, list);
  }
  for (const list of byLast.values()) list.sort((a, b) => b.length - a.length);
  return byLast;
}

/**
 * The legal-form tables, built from the generated list on first use (a few thousand spellings: most of
 * this module's import time, which a process that never normalises a company name should not pay).
 */
interface FormTables {
  /** Last token → the stripped legal forms of the stored key that end with it, longest first. */
  byLastToken: FormsByLastToken;
  /** Folded spelling → legal form. */
  forms: ReadonlyMap<string, FormEntry>;
  /** Edge word → the most words a legal form ending with it has. */
  formLast: ReadonlyMap<string, number>;
  /** Edge word → the most words a leading legal form starting with it has. */
  formFirst: ReadonlyMap<string, number>;
  /** Countries of each legal-form class used in a few jurisdictions only. */
  classCountries: ReadonlyMap<string, ReadonlySet<string>>;
}
let formTables: FormTables | undefined;
function legalForms(): FormTables {
  formTables ??= {
    byLastToken: formsByLastToken(
      legalFormSpellings()
        .map(([spelling]) => spelling)
        .filter((spelling) => !KEY_KEEPS.has(spelling)),
    ),
    forms: new Map(
      legalFormSpellings().map(([spelling, klass, countries, leading]) => [
        spelling,
        {
          klass,
          leading: leading === 1,
          countries: countries === '' || klass === '-' ? null : new Set(countries.split(' ')),
        },
      ]),
    ),
    formLast: edgeWords(false),
    formFirst: edgeWords(true),
    classCountries: classCountries(),
  };
  return formTables;
}

/** How many trailing tokens form a legal form that may be stripped (0 when none, or it is the whole name). */
function legalFormLength(
  tokens: readonly string[],
  start: number,
  end: number,
  byLast: FormsByLastToken = legalForms().byLastToken,
): number {
  if (end - start < 2) return 0;
  const forms = byLast.get(tokens[end - 1] as string);
  if (forms === undefined) return 0;
  for (const form of forms) {
    const n = form.length;
    if (n >= end - start) continue; // never strip the whole name
    let ok = true;
    for (let j = 0; j < n - 1; j++) {
      if (tokens[end - n + j] !== form[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return n;
  }
  return 0;
}

function companyTokens(name: string, byLast: FormsByLastToken = legalForms().byLastToken): string[] {
  const all = words(name);
  let start = 0;
  while (all.length - start > 1 && all[start] === 'the') start++;
  let end = all.length;
  for (let n = legalFormLength(all, start, end, byLast); n > 0; n = legalFormLength(all, start, end, byLast))
    end -= n;
  const tokens = start === 0 && end === all.length ? all : all.slice(start, end);
  for (let i = 0; i < tokens.length; i++) {
    const expanded = ABBREVIATIONS.get(tokens[i] as string);
    if (expanded !== undefined) tokens[i] = expanded;
  }
  return tokens;
}

/**
 * Normalises a company name: folded words, leading "the" and trailing legal forms removed, abbreviations
 * expanded; `core` drops weak words such as "group" or "holdings" but is never empty.
 * @example normaliseCompanyName('Acme Holdings Ltd.') // { key: 'acme holdings', tokens: ['acme', 'holdings'], core: ['acme'] }
 */
export function normaliseCompanyName(name: string): CompanyName {
  const tokens = companyTokens(name);
  const core = tokens.filter((t) => !WEAK_WORDS.has(t));
  return { key: tokens.join(' '), tokens, core: core.length > 0 ? core : tokens.slice() };
}

/**
 * The `key` of {@link normaliseCompanyName} without building `core`.
 * @example companyKey('The Coca-Cola Company') // 'coca cola'
 */
export function companyKey(name: string): string {
  return companyTokens(name).join(' ');
}

/**
 * The key names are matched on ({@link companyMatchName}).
 * @example companyMatchKey('Harborstack Maschinenbau UG') // 'harborstack maschinenbau'
 */
export function companyMatchKey(name: string): string {
  return companyMatchName(name).key;
}

/**
 * The stored keys ({@link companyKey}) a `company_name` filter value names: its key as written, and, when
 * it starts with a legal form that ISO 20275 allows in front ("N.V. Brightwell", "Kabushiki Kaisha
 * Toshiba", "Société dite …"), the key of the name without it, the way autocomplete reads it, so the
 * filter finds "Brightwell N.V." as autocomplete does.
 * @example companyFilterKeys('N.V. Brightwell') // ['n v brightwell', 'brightwell']
 */
export function companyFilterKeys(value: string): string[] {
  const key = companyKey(value);
  const tokens = nameWords(value);
  let start = 0;
  for (let moved = true; moved && tokens.length - start > 1;) {
    moved = false;
    const n = formAt(tokens, start, tokens.length, true);
    if (n > 0 && hasWord(tokens, start + n, tokens.length)) {
      start += n;
      moved = true;
      if (tokens.length - start > 1 && LEADING_NOTES.has(tokens[start] as string)) start++;
    }
  }
  if (start === 0) return [key];
  const rest = companyKey(tokens.slice(start).join(' '));
  return rest.length === 0 || rest === key ? [key] : [key, rest];
}

/**
 * A company name as written, folded (case, accents, punctuation, initials joined: "U.S." = "US") and
 * nothing read off: the key of the exact name, which no reading of legal forms can override.
 * @example companyFullKey('PTC Inc.') // 'ptc inc'
 */
export function companyFullKey(name: string): string {
  return nameWords(name).join(' ');
}

/** A company name as the matcher reads it. */
export interface CompanyMatchName {
  /** The name's own words: legal forms, trailing locations, notes and the other name removed. */
  key: string;
  /** Equivalence classes of the legal forms written (ISO 20275: "N.V." = "Naamloze Vennootschap" = `nv`). */
  form: string;
  /** The name ended in a lone letter, read as a cut-off legal form ("Brightwell N"). */
  truncated: boolean;
}

interface FormEntry {
  klass: string;
  leading: boolean;
  /** Countries that use the spelling (null: any; the generic words for "company" too). */
  countries: ReadonlySet<string> | null;
}

/** Edge word → the most words a legal form ending (or, leading, starting) with it has. */
function edgeWords(leading: boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const [spelling, , , lead] of legalFormSpellings()) {
    if (leading && lead !== 1) continue;
    const parts = spelling.split(' ');
    const edge = (leading ? parts[0] : parts[parts.length - 1]) as string;
    out.set(edge, Math.max(out.get(edge) ?? 0, parts.length));
  }
  return out;
}
const MAX_FORM_WORDS = 6;

/**
 * Countries that use each legal-form class, for the classes used in a few jurisdictions only ("GmbH",
 * "K.K."); a class used in many (Ltd, Inc, SA) says nothing about the country.
 */
function classCountries(): Map<string, ReadonlySet<string>> {
  const byClass = new Map<string, Set<string>>();
  for (const [, klass, countries] of legalFormSpellings()) {
    const set = byClass.get(klass) ?? new Set<string>();
    if (countries === '') set.add('*');
    else for (const c of countries.split(' ')) set.add(c);
    byClass.set(klass, set);
  }
  const out = new Map<string, ReadonlySet<string>>();
  for (const [klass, set] of byClass) if (!set.has('*') && set.size <= 8) out.set(klass, set);
  return out;
}

/** Whether legal form class `klass` is never used in `country` (false when unknown or widely used). */
export function formClassOutsideCountry(klass: string, country: string): boolean {
  const countries = legalForms().classCountries.get(klass);
  return countries !== undefined && !countries.has(country);
}

/** Prefixes a name may carry before its words: "Société dite …" (French filings), "Firma …". */
const LEADING_NOTES: ReadonlySet<string> = new Set(['dite', 'dit', 'firma', 'messrs']);
/** Words joining two parts of a name in other languages ("Müller und Söhne", "Dupont et Fils"). */
const AND_WORDS: ReadonlySet<string> = new Set(['und', 'et', 'en', 'y', 'e', 'och', 'og', 'i']);
/** Brackets whose content is a note, not part of the name ("(formerly …)", "(in liquidation)"). */
const NOTE_IN_BRACKETS =
  /^\s*(formerly|previously|now|fka|f\/k\/a|aka|a\/k\/a|dba|d\/b\/a|in liquidation|in administration|publ)\b/i;
/** Where a second name starts ("Acme Ltd t/a Brightwell", "Acme Inc. (formerly Foo Corp)"). */
const SECOND_NAME =
  /\s(?:d\/b\/a|dba|t\/a|trading as|doing business as|formerly|f\/k\/a|fka|a\/k\/a|aka|also known as|now known as)[\s:]/i;

/**
 * Normalises a company name the way it is matched. Real names carry more than the name: a legal form at
 * either end, in any jurisdiction's spelling (ISO 20275), a location ("…, Utrecht, NL", "… te Utrecht",
 * "… GmbH Berlin"), notes in brackets, a second name ("t/a …"), initials written with dots or spaces,
 * possessives, "+"/"und"/"et" for "and", and country words in another language. All of that is read off
 * so that the words that name the company remain; the legal forms come back as equivalence classes.
 * @example companyMatchName('N.V. Brightwell, te Utrecht') // { key: 'brightwell', form: 'nv', truncated: false }
 */
export function companyMatchName(name: string, country: string | null = null): CompanyMatchName {
  let s = name;
  const second = SECOND_NAME.exec(s);
  if (second !== null && second.index > 0) s = s.slice(0, second.index);
  if (s.includes('(') || s.includes('['))
    s = s.replace(/[([]([^()[\]]*)[)\]]?/g, (_m, inner: string) => bracket(inner));
  if (s.includes("'") || s.includes('\u2019')) s = s.replace(/['\u2019]s\b/gi, '');
  // "à Paris" is a seat; a plain "a" is an English word ("It Takes a Village").
  if (s.includes('\u00e0')) s = s.replace(/\s\u00e0\s+(?=[A-Z\u00c0-\u00de])/g, ' te ');
  let tokens: string[];
  if (s.includes(',') || s.includes(';')) {
    const parts = s.split(/[,;]/);
    tokens = nameWords(parts[0] as string);
    let address = false;
    for (let i = 1; i < parts.length; i++) {
      const more = nameWords(parts[i] as string);
      if (more.length === 0) continue;
      // After the legal form, or once a part is a place, the rest is the address ("…, Inc., Utrecht, NL").
      if (!address && isForms(more) && !isPlace(more)) {
        tokens.push(...more);
        continue;
      }
      if (address || endsWithForm(tokens) || isPlace(more)) {
        address = true;
        continue;
      }
      tokens.push(...more);
    }
  } else tokens = nameWords(s);
  const forms: string[] = [];
  let start = 0;
  let end = tokens.length;
  // Leading: "the", legal forms ("N.V. Brightwell", "Kabushiki Kaisha …"), notes ("Société dite …").
  for (let moved = true; moved && end - start > 1;) {
    moved = false;
    if (tokens[start] === 'the') {
      start++;
      moved = true;
      continue;
    }
    const n = formAt(tokens, start, end, true, country);
    if (n > 0 && hasWord(tokens, start + n, end)) {
      const klass = (legalForms().forms.get(tokens.slice(start, start + n).join(' ')) as FormEntry).klass;
      if (klass !== '-') forms.push(klass);
      start += n;
      moved = true;
      if (end - start > 1 && LEADING_NOTES.has(tokens[start] as string)) start++;
    }
  }
  // Trailing: legal forms, and the location written after one or after "te"/"in".
  const trailing: string[] = [];
  let truncated = false;
  for (let moved = true; moved && end - start > 1;) {
    moved = false;
    const te = tokens.lastIndexOf('te', end - 1);
    if (te > start && end - te <= 4) {
      end = te;
      moved = true;
      continue;
    }
    const n = formAt(tokens, start, end, false);
    if (n > 0 && hasName(tokens, start, end - n)) {
      const klass = (legalForms().forms.get(tokens.slice(end - n, end).join(' ')) as FormEntry).klass;
      if (klass !== '-') trailing.push(klass);
      end -= n;
      moved = true;
      continue;
    }
    // A place right after a legal form or after "in" ("… GmbH Berlin", "… Inc. in Delaware"); a place
    // word before the legal form is part of the name ("Acme Europe GmbH").
    const place = trailingPlaceLength(tokens, start, end);
    if (place > 0 && end - place - start >= 1) {
      const before = end - place;
      if (tokens[before - 1] === 'in' && before - 1 > start) {
        end = before - 1;
        moved = true;
        continue;
      }
      if (formAt(tokens, start, before, false) > 0) {
        end = before;
        moved = true;
        continue;
      }
    }
    // One or two words after a distinctive legal form are its seat ("Philips N.V. Eindhoven").
    for (let k = 1; k <= 2 && end - k - start >= 2; k++) {
      const n = formAt(tokens, start, end - k, false);
      if (n === 0) continue;
      const spelling = tokens.slice(end - k - n, end - k).join(' ');
      if (SEAT_FORMS_EXCLUDED.has(spelling) || spelling.length < 2) continue;
      // A seat is a place name: not a number or a numeral ("Teddy Bear Nursery School, Inc. II").
      if (tokens.slice(end - k, end).some((t) => t.length < 3 || /^[0-9]|^[ivxlc]+$/.test(t))) continue;
      end -= k;
      moved = true;
      break;
    }
  }
  const last = tokens[end - 1] as string;
  // A lone letter written after a space, without a dot or comma ("Brightwell N"; not "Hughes, L.").
  if (
    end === tokens.length &&
    end - start > 1 &&
    last.length === 1 &&
    last >= 'a' &&
    last <= 'z' &&
    (tokens[end - 2] as string).length > 1 &&
    /[^\s,]\s+[A-Za-z]$/.test(name.trimEnd())
  ) {
    end--; // "Brightwell N": a legal form cut off after its first letter
    truncated = true;
  }
  forms.push(...trailing.reverse());
  const out: string[] = [];
  for (let i = start; i < end; i++) {
    let t = tokens[i] as string;
    if (AND_WORDS.has(t) && i > start && i < end - 1) t = 'and';
    t = ABBREVIATIONS.get(t) ?? t;
    out.push(t);
  }
  return { key: countryWords(out).join(' '), form: forms.join('+'), truncated };
}

/** Forms that also stand inside names ("Acme & Co Consulting"): never taken as the end of the name. */
const SEAT_FORMS_EXCLUDED: ReadonlySet<string> = new Set([
  'co',
  'and co',
  'company',
  'and company',
  'as',
  'sa',
  'ab',
  'se',
]);

/**
 * Whether a word may name the company: not a weak word ("holdings", "partners") nor a joining word. A
 * legal form is read off only when such a word remains ("Global Partners LP" keeps its "LP").
 */
function distinctive(word: string): boolean {
  return !WEAK_WORDS.has(word) && word !== 'and' && word !== 'of' && word !== 'the';
}

/**
 * Whether the range holds a distinctive word of three letters or more that is no legal form itself (a
 * name left after a leading form: "AB Volvo" reads `volvo`; "AB Inc", "N.V. Holdings" keep their first word).
 */
function hasWord(tokens: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const t = tokens[i] as string;
    if (t.length >= 3 && distinctive(t) && !legalForms().forms.has(t)) return true;
  }
  return false;
}

/** Whether the range holds a distinctive word (a name left after a trailing form: "3M Company"). */
function hasName(tokens: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (distinctive(tokens[i] as string)) return true;
  return false;
}

/**
 * Words of a name, with initials joined: letters written with dots ("B.T.W.", "N.V.") are one word, and
 * so is a run of single letters written apart ("B T W N.V." → `btw nv`).
 */
function nameWords(s: string): string[] {
  if (!/[.\s][a-zA-Z](?:[.\s]|$)/.test(s) && !/^[a-zA-Z][.\s]/.test(s)) return words(s);
  const out: string[] = [];
  let run = '';
  for (const chunk of s.split(/\s+/)) {
    const w = words(chunk);
    if (w.length === 1 && (w[0] as string).length === 1 && /[a-z]/.test(w[0] as string)) {
      run += w[0];
      continue;
    }
    if (run) out.push(run);
    run = '';
    if (w.length > 1 && w.every((x) => x.length === 1) && /^[\p{L}.]+$/u.test(chunk)) out.push(w.join(''));
    else out.push(...w);
  }
  if (run) out.push(run);
  return out;
}

function bracket(inner: string): string {
  // "Wendy's Company (The)": the article as listings write it.
  if (NOTE_IN_BRACKETS.test(inner) || /^\s*the\s*$/i.test(inner)) return ' ';
  const w = nameWords(inner);
  return isPlace(w) || isForms(w) ? ' ' : ` ${inner} `;
}

/**
 * Length of the legal form that starts (leading) or ends the range, 0 when none; never the whole range.
 * A leading one only where it stands in front in its jurisdiction and, when the name's country is known,
 * where that country uses it ("AB Volvo" in Sweden; "AB Core Bond ETF" in the US keeps its "AB").
 */
function formAt(
  tokens: readonly string[],
  start: number,
  end: number,
  leading: boolean,
  country: string | null = null,
): number {
  const edge = tokens[leading ? start : end - 1] as string;
  const most = (leading ? legalForms().formFirst : legalForms().formLast).get(edge);
  if (most === undefined) return 0;
  for (let n = Math.min(most, MAX_FORM_WORDS, end - start - 1); n >= 1; n--) {
    const phrase =
      n === 1 ? edge : (leading ? tokens.slice(start, start + n) : tokens.slice(end - n, end)).join(' ');
    const form = legalForms().forms.get(phrase);
    if (form === undefined) continue;
    if (!leading) return n;
    if (form.leading && (country === null || form.countries === null || form.countries.has(country)))
      return n;
  }
  return 0;
}

/**
 * Legal forms read off both ends of folded words (a query: "brightwell naamloze vennootschap"), longest
 * ISO 20275 spelling first, a leading one only where the table allows it in front; at least one word
 * stays a name word. `forms` are the equivalence classes (`nv`), as {@link companyMatchName} gives them.
 * @example splitLegalForms(['n', 'v', 'brightwell', 'ag']) // { name: ['brightwell'], forms: ['nv', 'ag'] }
 */
export function splitLegalForms(tokens: readonly string[]): { name: string[]; forms: string[] } {
  const forms: string[] = [];
  const klass = (from: number, to: number) =>
    (legalForms().forms.get(tokens.slice(from, to).join(' ')) as FormEntry).klass;
  let start = 0;
  let end = tokens.length;
  for (let n = formAt(tokens, start, end, true); n > 0; n = formAt(tokens, start, end, true)) {
    forms.push(klass(start, start + n));
    start += n;
  }
  const trailing: string[] = [];
  for (let n = formAt(tokens, start, end, false); n > 0; n = formAt(tokens, start, end, false)) {
    trailing.push(klass(end - n, end));
    end -= n;
  }
  forms.push(...trailing.reverse());
  return { name: tokens.slice(start, end), forms: forms.filter((f) => f !== '-') };
}

function endsWithForm(tokens: readonly string[]): boolean {
  return tokens.length > 1 && formAt(tokens, 0, tokens.length, false) > 0;
}

/** Whether the words are legal forms only ("Inc.", "Co., Ltd."). */
function isForms(tokens: readonly string[]): boolean {
  return tokens.length > 0 && leadingForms(tokens) === tokens.length;
}

/** How many leading words of a comma part are legal forms. */
function leadingForms(tokens: readonly string[]): number {
  let i = 0;
  while (i < tokens.length) {
    let n = Math.min(MAX_FORM_WORDS, tokens.length - i);
    for (; n >= 1; n--) if (legalForms().forms.has(tokens.slice(i, i + n).join(' '))) break;
    if (n === 0) break;
    i += n;
  }
  return i;
}

/** Country words written one way ("Holland", "Nederland" → `netherlands`), longest phrase first. */
function countryWords(tokens: string[]): string[] {
  const places = placeTables();
  let changed = false;
  const out: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i] as string;
    let hit = 0;
    let c = '';
    if (places.countryFirst.has(t)) {
      for (let n = Math.min(4, tokens.length - i); n >= 1; n--) {
        const v = places.countryWords.get(n === 1 ? t : tokens.slice(i, i + n).join(' '));
        if (v !== undefined) {
          hit = n;
          c = v;
          break;
        }
      }
    }
    if (hit > 0) {
      out.push(c);
      changed ||= hit > 1 || c !== t;
      i += hit;
    } else {
      out.push(t);
      i++;
    }
  }
  return changed ? out : tokens;
}
