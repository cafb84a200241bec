/**
 * Person names → a `given last` key that survives nicknames, titles, suffixes, accents, middle names and
 * "Last, First" order.
 */
import { CANONICAL_GIVEN, GIVEN_VARIANTS } from './nicknames.js';
import { commaList, foldText } from './text.js';

/**
 * `tokens`: folded name words without titles and suffixes (middle names kept); `first`/`last`: first and
 * last token (`last` is '' for a one-word name); `given`: `first` through the nickname table;
 * `key`: `${given} ${last}` (just `given` for a one-word name); `initials`: first letters of first and last.
 */
export interface PersonName {
  key: string;
  first: string;
  last: string;
  given: string;
  initials: string;
  tokens: string[];
}

/** Dropped from the start of a name. */
const TITLES: ReadonlySet<string> = new Set(
  commaList('mr, mrs, ms, miss, mx, dr, prof, professor, sir, dame, rev, fr, hon'),
);
/** Dropped from the end of a name; dotted forms fold to several tokens ("Ph.D." → "ph d"). */
const SUFFIXES: readonly (readonly string[])[] = commaList(
  'jr, sr, ii, iii, iv, phd, ph d, md, m d, mba, m b a, esq, cpa, pe, dds, dvm, rn',
)
  .map((s) => s.split(' '))
  .sort((a, b) => b.length - a.length);
/** Hyphens join the parts of a name: "García-López" → "garcialopez", "Jean-Pierre" → "jeanpierre". */
const HYPHENS = /[-\u2010\u2011]/g;

/** Length of the suffix ending at `end`, leaving at least `keep` tokens after `start` (0 when none). */
function suffixLength(tokens: readonly string[], start: number, end: number, keep: number): number {
  for (const suffix of SUFFIXES) {
    const n = suffix.length;
    if (n > end - start - keep) continue;
    let ok = true;
    for (let j = 0; j < n; j++) {
      if (tokens[end - n + j] !== suffix[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return n;
  }
  return 0;
}

/** "Smith, John" → "John Smith"; a comma before suffixes only ("John Smith, Ph.D.") is not an inversion. */
function reorder(full: string): string {
  const comma = full.indexOf(',');
  if (comma === -1 || full.indexOf(',', comma + 1) !== -1) return full;
  const after = foldText(full.slice(comma + 1));
  if (after.length === 0) return full.slice(0, comma);
  const tokens = after.split(' ');
  let end = tokens.length;
  for (let n = suffixLength(tokens, 0, end, 0); n > 0 && end > 0; n = suffixLength(tokens, 0, end, 0))
    end -= n;
  if (end === 0) return full.replace(',', ' ');
  return `${full.slice(comma + 1)} ${full.slice(0, comma)}`;
}

/**
 * Normalises a person's full name; see {@link PersonName} for the fields.
 * @example normalisePersonName('Dr. Bob García-López Jr.') // key 'robert garcialopez', first 'bob', last 'garcialopez', initials 'bg'
 */
export function normalisePersonName(full: string): PersonName {
  const folded = foldText(reorder(full).replace(HYPHENS, ''));
  const all = folded.length === 0 ? [] : folded.split(' ');
  let start = 0;
  while (all.length - start > 1 && TITLES.has(all[start] as string)) start++;
  let end = all.length;
  for (let n = suffixLength(all, start, end, 1); n > 0; n = suffixLength(all, start, end, 1)) end -= n;
  const tokens = start === 0 && end === all.length ? all : all.slice(start, end);
  const first = tokens[0] ?? '';
  const last = tokens.length > 1 ? (tokens[tokens.length - 1] as string) : '';
  const given = CANONICAL_GIVEN.get(first) ?? first;
  return {
    key: last.length > 0 ? `${given} ${last}` : given,
    first,
    last,
    given,
    initials: first.slice(0, 1) + last.slice(0, 1),
    tokens,
  };
}

/**
 * Every given name in the nickname group(s) of `first` (including itself), sorted; just the folded
 * name when it has no group.
 * @example givenNameVariants('Bob') // ['bob', 'bobby', 'rob', 'robbie', 'robby', 'robert']
 */
export function givenNameVariants(first: string): string[] {
  const name = foldText(first.replace(HYPHENS, ''));
  const variants = GIVEN_VARIANTS.get(name);
  if (variants !== undefined) return variants.slice();
  return name.length === 0 ? [] : [name];
}

/**
 * The words of a person's name as the matcher compares them: "Last, First" put in order, folded, titles
 * and suffixes dropped, hyphenated parts split ("García-López" → "garcia lopez"; the matcher also reads
 * adjacent words joined, so "garcialopez" still meets them), each word spelled as {@link nameSkeleton}.
 * @example personTokens('Müller-Lüdenscheidt, Dr. Hans') // ['hans', 'muler', 'ludenscheidt']
 */
export function personTokens(full: string): string[] {
  const folded = foldText(reorder(full).replace(HYPHENS, ' '));
  const all = folded.length === 0 ? [] : folded.split(' ');
  let start = 0;
  while (all.length - start > 1 && TITLES.has(all[start] as string)) start++;
  let end = all.length;
  for (let n = suffixLength(all, start, end, 1); n > 0; n = suffixLength(all, start, end, 1)) end -= n;
  const out: string[] = [];
  for (let i = start; i < end; i++) out.push(nameSkeleton(all[i] as string));
  return out;
}

/** Transliterations folded to one spelling: German umlauts written out ("mueller") and doubled letters. */
const SPELLING = /ae|oe|ue|([a-z])\1+/g;
const spell = (m: string) => m[0] as string;

/**
 * One spelling for the ways a folded name word is transliterated: "ae"/"oe"/"ue" → "a"/"o"/"u" (Müller,
 * Mueller and Muller meet; ß folds to "ss" and ø to "o" before this), doubled letters once ("Schmitt",
 * "Schmit"). Applied to both sides, so it only ever merges spellings.
 * @example nameSkeleton('mueller') // 'muler'
 */
export function nameSkeleton(word: string): string {
  return word.replace(SPELLING, spell);
}
