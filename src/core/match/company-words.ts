/**
 * Names written with a word more or less ("Brightwell Electronics" or "Koninklijke Brightwell" for
 * "Brightwell", "Hilton Worldwide Inc." for "Hilton Worldwide Holdings Inc."), decided on evidence
 * weighted by how often each word occurs among the snapshot's names (Fellegi–Sunter with
 * term-frequency adjusted agreement weights, as Splink does): agreeing on a word few names have is
 * strong evidence, agreeing on "group" or "chicago" is weak; a word only one name has costs more when
 * it is rare ("Koninklijke") than when it is a common word of names ("Holdings", "Electronics").
 *
 * Words the names write differently still agree, at a discount: a typo or a plural ("Machine" /
 * "Machines"), and initials for the words they stand for ("IBM" / "International Business Machines").
 *
 * A qualifier that one name has after the shared words makes the two names two companies, whatever the
 * weights: a place or country ("Acme Europe", "Philips North America", "Acme UK"), a scope ("Global",
 * "Worldwide") or a number in a series ("Acquisition Corp. II", "Pinnacle 14").
 */
import { keyInitials } from '../../indexes/match/businesses.js';
import type { TokenIndex } from '../../indexes/match/token-index.js';
import { CANONICAL_COUNTRIES, PLACES } from '../../normalise/company-places.js';
import { STOP_WORDS, WEAK_WORDS } from './company-score.js';
import { nearTokens } from './similarity.js';
import { formConflict, type CompanyContext, type QueryName } from './company-search.js';

/** Candidates come from the postings of the query's words that at most this many names have. */
const CANDIDATE_DF = 64;
/** At most this many candidates are weighed (the rarest words' postings first). */
const MAX_CANDIDATES = 512;
/** A word only one name has costs this much, plus {@link EXTRA_PER_WEIGHT} of its own weight. */
const EXTRA_BASE = 1;
const EXTRA_PER_WEIGHT = 0.35;
/** A legal form that says "another legal entity" costs this much. */
const FORM_COST = 2;
/** A runner-up within this much of the best takes that difference off the best's strength. */
const COMPETITION = 4;
/**
 * Each doubling of the names that hold all the shared words costs this much: "Siemens Mobility" is not
 * "Siemens AG" when "Siemens Healthineers" and "Siemens Energy" show a family of Siemens names.
 */
const FAMILY_COST = 3;
/** A word at most this share of the names have (or none) is distinctive. */
const DISTINCTIVE_SHARE = 0.004;

/** Scope and direction words used as qualifiers of a name, beside places and countries. */
const SCOPE_WORDS: ReadonlySet<string> = new Set([
  'global',
  'worldwide',
  'europe',
  'north',
  'south',
  'east',
  'west',
  'asia',
  'pacific',
  'americas',
  'latam',
  'emea',
  'apac',
  'nordic',
  'nordics',
  'benelux',
  'eu',
  'uk',
  'us',
  'usa',
]);

/** Whether a word names a place, a country, a scope or a number in a series: a qualifier of a name. */
export function isQualifier(word: string): boolean {
  if (SCOPE_WORDS.has(word) || CANONICAL_COUNTRIES.has(word)) return true;
  if (/^[0-9]/.test(word) || /^(?:i{1,3}|iv|v|vi{1,3}|ix|x|xi{1,3})$/.test(word)) return true;
  return word.length >= 4 && PLACES.has(word);
}

/** The weight of agreeing on a word that `df` of `n` names have: ln(n / df), the unknown word's at most. */
function weight(n: number, df: number): number {
  return Math.log((n + 1) / Math.max(1, df));
}

export interface WordEvidence {
  pos: number;
  /** Evidence for the candidate in log units, less what close rivals take off (the calibrated raw score). */
  strength: number;
}

/** Agreement through a typo, a plural or initials counts this share of the word's weight. */
const LOOSE = 0.8;
/** A run of words initials can stand for: 3 to this many (two letters stand for too many names). */
const MAX_INITIALS = 6;

/** The query's distinct words as the rule weighs them. */
interface QueryWords {
  words: readonly string[];
  ids: readonly number[];
  /** Position in the name (qualifiers count only after the first shared word). */
  at: readonly number[];
  n: number;
  df: (v: number) => number;
  distinctive: number;
}

/**
 * The candidate whose words best explain the query's, when the names differ by words only one of them
 * has (none of them a qualifier after the shared words), or null. Only candidates sharing a word that
 * few names have (or standing for the query's initials, or the other way round) are weighed, so
 * common-word queries cost little.
 */
export function wordEvidence(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
): WordEvidence | null {
  const all = q.scored.tokens;
  if (all.length === 0 || all.length > 12) return null;
  const tokens: TokenIndex = ctx.tokens();
  const n = tokens.size;
  const words: string[] = [];
  const ids: number[] = [];
  const at: number[] = [];
  all.forEach((w, i) => {
    if (STOP_WORDS.has(w) || words.includes(w)) return;
    words.push(w);
    ids.push(tokens.vocabId.get(w) ?? -1);
    at.push(i);
  });
  if (words.length === 0) return null;
  const df = (v: number) =>
    v < 0 ? 0 : (tokens.postStart[v + 1] as number) - (tokens.postStart[v] as number);
  const pool = new Set<number>();
  const addPostings = (v: number) => {
    for (let k = tokens.postStart[v] as number; k < (tokens.postStart[v + 1] as number); k++)
      pool.add(tokens.post[k] as number);
  };
  const rare = ids.filter((v) => v >= 0 && df(v) <= CANDIDATE_DF).sort((a, b) => df(a) - df(b));
  for (const v of rare) {
    if (pool.size >= MAX_CANDIDATES) break;
    addPostings(v);
  }
  // Initials: a short query word may stand for a name's words, a run of query words for a name's word.
  for (const w of words) {
    if (w.length < 3 || w.length > MAX_INITIALS || !/^[a-z]+$/.test(w) || df(tokens.vocabId.get(w) ?? -1) > 0)
      continue;
    for (const pos of ctx.initials().get(w)) if (pool.size < MAX_CANDIDATES * 2) pool.add(pos);
  }
  for (let i = 0; i < words.length; i++)
    for (let k = 3; k <= MAX_INITIALS && i + k <= words.length; k++) {
      const v = tokens.vocabId.get(keyInitials(words.slice(i, i + k)));
      if (v !== undefined && df(v) <= CANDIDATE_DF) addPostings(v);
    }
  if (pool.size === 0) return null;
  const qw: QueryWords = { words, ids, at, n, df, distinctive: Math.max(2, n * DISTINCTIVE_SHARE) };
  let best: { pos: number; score: number; shared: number[] } | null = null;
  let second = -Infinity;
  for (const pos of pool) {
    if (accept !== undefined && !accept(pos)) continue;
    const c = candidateScore(ctx, tokens, q, qw, pos);
    if (c === null) continue;
    if (best === null || c.score > best.score || (c.score === best.score && pos < best.pos)) {
      if (best !== null) second = Math.max(second, best.score);
      best = { pos, ...c };
    } else second = Math.max(second, c.score);
  }
  if (best === null) return null;
  const gap = best.score - second;
  let strength = gap >= COMPETITION ? best.score : best.score - (COMPETITION - gap);
  const family = familySize(tokens, pool, best.shared);
  if (family > 1) strength -= FAMILY_COST * Math.log2(family);
  return { pos: best.pos, strength };
}

function has(tokens: TokenIndex, doc: number, v: number): boolean {
  if (v < 0) return false;
  for (let j = tokens.docStart[doc] as number; j < (tokens.docStart[doc + 1] as number); j++)
    if (tokens.docTok[j] === v) return true;
  return false;
}

/** How many names of the pool hold every one of the (vocabulary) words `shared`. */
function familySize(tokens: TokenIndex, pool: ReadonlySet<number>, shared: readonly number[]): number {
  if (shared.length === 0) return 1;
  let count = 0;
  for (const doc of pool) if (shared.every((v) => has(tokens, doc, v))) count++;
  return count;
}

/** The weight of agreeing on a word that `df` of `n` names have. */
function weightOf(w: QueryWords, v: number): number {
  return weight(w.n, w.df(v));
}

/** Same word up to a typo or a plural ("machine" / "machines", "electronic" / "electronics"). */
function looselySame(a: string, b: string): boolean {
  if (a.length < 4 || b.length < 4) return false;
  if (a + 's' === b || b + 's' === a) return true;
  return Math.min(a.length, b.length) >= 5 && nearTokens(a, b);
}

/**
 * The evidence for one candidate (and the vocabulary words it shares exactly with the query), or null
 * when it shares no word, a qualifier tells them apart, or both names have a word the other lacks (two
 * siblings: "Henry Booth House Granny's Day Care" and "Henry Booth House Little Folks Day Care"),
 * unless one side's are weak words ("Group", "Holdings").
 */
function candidateScore(
  ctx: CompanyContext,
  tokens: TokenIndex,
  q: QueryName,
  w: QueryWords,
  pos: number,
): { score: number; shared: number[] } | null {
  const { words, ids } = w;
  const cIds: number[] = [];
  for (let j = tokens.docStart[pos] as number; j < (tokens.docStart[pos + 1] as number); j++) {
    const v = tokens.docTok[j] as number;
    if (!STOP_WORDS.has(tokens.vocab[v] as string)) cIds.push(v);
  }
  const cWord = (j: number) => tokens.vocab[cIds[j] as number] as string;
  const qPair = new Int8Array(words.length); // 1 exact, 2 loose
  const cPair = new Int8Array(cIds.length);
  let agree = 0;
  const shared: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const j = cIds.indexOf(ids[i] as number);
    if (ids[i] === -1 || j < 0) continue;
    qPair[i] = 1;
    cPair[j] = 1;
    agree += weightOf(w, ids[i] as number);
    shared.push(ids[i] as number);
  }
  // Words written differently: typos and plurals, then initials either way.
  for (let i = 0; i < words.length; i++) {
    if (qPair[i] !== 0) continue;
    for (let j = 0; j < cIds.length; j++) {
      if (cPair[j] !== 0 || !looselySame(words[i] as string, cWord(j))) continue;
      qPair[i] = 2;
      cPair[j] = 2;
      agree += LOOSE * weightOf(w, cIds[j] as number);
      break;
    }
  }
  // Initials weigh at most what an unknown word does: three letters are not three words.
  const most = weight(w.n, 0);
  agree += initials(words, qPair, cIds.length, cWord, cPair, (j) => weightOf(w, cIds[j] as number), most);
  agree += initials(
    Array.from(cIds, (_, j) => cWord(j)),
    cPair,
    words.length,
    (i) => words[i] as string,
    qPair,
    (i) => weightOf(w, ids[i] as number),
    most,
  );
  if (agree === 0) return null;
  let firstShared = Infinity;
  for (let i = 0; i < words.length; i++)
    if (qPair[i] !== 0) firstShared = Math.min(firstShared, w.at[i] as number);
  // The words only one name has.
  let extra = 0;
  let queryExtras = 0;
  let queryWeak = 0;
  let queryDistinct = false;
  for (let i = 0; i < words.length; i++) {
    if (qPair[i] !== 0) continue;
    const word = words[i] as string;
    if ((w.at[i] as number) > firstShared && isQualifier(word)) return null;
    extra += EXTRA_BASE + EXTRA_PER_WEIGHT * weightOf(w, ids[i] as number);
    queryExtras++;
    if (WEAK_WORDS.has(word)) queryWeak++;
    if (w.df(ids[i] as number) <= w.distinctive) queryDistinct = true;
  }
  let seenShared = false;
  let extras = 0;
  let weakExtras = 0;
  let candidateDistinct = false;
  for (let j = 0; j < cIds.length; j++) {
    if (cPair[j] !== 0) {
      seenShared = true;
      continue;
    }
    const word = cWord(j);
    if (seenShared && isQualifier(word)) return null;
    extra += EXTRA_BASE + EXTRA_PER_WEIGHT * weightOf(w, cIds[j] as number);
    extras++;
    if (WEAK_WORDS.has(word)) weakExtras++;
    if (w.df(cIds[j] as number) <= w.distinctive) candidateDistinct = true;
  }
  if (extras === 0 && queryExtras === 0 && shared.length === words.length) return null; // the same words
  if (queryDistinct && candidateDistinct) return null;
  if (extras > weakExtras && queryExtras > queryWeak) return null;
  return { score: agree - extra - (formConflict(ctx, q, pos) ? FORM_COST : 0), shared };
}

/**
 * Pairs a short unpaired word of `a` with a run of unpaired words of `b` whose initials it is ("ibm" /
 * "international business machines"), marking both; returns the agreement weight added.
 */
function initials(
  a: readonly string[],
  aPair: Int8Array,
  bLength: number,
  bWord: (j: number) => string,
  bPair: Int8Array,
  bWeight: (j: number) => number,
  most: number,
): number {
  let added = 0;
  for (let i = 0; i < a.length; i++) {
    const word = a[i] as string;
    if (aPair[i] !== 0 || word.length < 3 || word.length > MAX_INITIALS || !/^[a-z]+$/.test(word)) continue;
    const k = word.length;
    for (let j = 0; j + k <= bLength; j++) {
      let ok = true;
      for (let m = 0; m < k && ok; m++) ok = bPair[j + m] === 0 && bWord(j + m)[0] === word[m];
      if (!ok) continue;
      let weightSum = 0;
      for (let m = 0; m < k; m++) {
        bPair[j + m] = 2;
        weightSum += bWeight(j + m);
      }
      aPair[i] = 2;
      added += LOOSE * Math.min(most, weightSum);
      break;
    }
  }
  return added;
}
