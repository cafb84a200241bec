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
 * "Worldwide"), an affiliate ("Ventures", "Labs", "Foundation") or a number in a series ("Acquisition
 * Corp. II", "Pinnacle 14"); so are another legal form on top of the other word, and a list of names
 * ("Parker, Miller & Stone" is not "Parker & Miller").
 *
 * Over 400 lines on purpose: the evidence model, its per-index weights and its blocking rules are one
 * decision; apart, each rule would need the others' weights.
 */
import { keyInitials } from '../../indexes/match/businesses.js';
import { docFrequency, postings, type TokenIndex } from '../../indexes/match/token-index.js';
import { placeTables } from '../../normalise/company-places.js';
import { STOP_WORDS, WEAK_WORDS } from './company-score.js';
import { nearTokens } from '../../normalise/similarity.js';
import { formConflict, type CompanyContext, type QueryName } from './company-search.js';

/** Candidates come from the postings of the query's words that at most this many names have. */
const CANDIDATE_DF = 64;
/** At most this many candidates are weighed (the rarest words' postings first). */
const MAX_CANDIDATES = 512;
/** A word only one name has costs this much, plus {@link EXTRA_PER_WEIGHT} of its own weight. */
const EXTRA_BASE = 1;
const EXTRA_PER_WEIGHT = 0.35;
/** A runner-up within this much of the best takes that difference off the best's strength. */
const COMPETITION = 4;
/**
 * Each doubling of the names that hold all the shared words costs this much: "Siemens Mobility" is not
 * "Siemens AG" when "Siemens Healthineers" and "Siemens Energy" show a family of Siemens names.
 */
const FAMILY_COST = 3;
/** A word at most this share of the names have (or none) is distinctive. */
const DISTINCTIVE_SHARE = 0.004;

/**
 * Scope and direction words used as qualifiers of a name, beside places and countries, and words that
 * name an affiliate rather than the company ("Acme Ventures", "Acme Labs", "Acme Foundation").
 */
const SCOPE_WORDS: ReadonlySet<string> = new Set([
  'ventures',
  'labs',
  'lab',
  'foundation',
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
  const { canonicalCountries, places } = placeTables();
  if (SCOPE_WORDS.has(word) || canonicalCountries.has(word)) return true;
  if (/^[0-9]/.test(word) || /^(?:i{1,3}|iv|v|vi{1,3}|ix|x|xi{1,3})$/.test(word)) return true;
  return word.length >= 4 && places.has(word);
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
  weights: Float64Array;
  /** Position in the name (qualifiers count only after the first shared word). */
  at: readonly number[];
  n: number;
  distinctive: number;
}

/**
 * Per token index, filled as words are met: each vocabulary word's weight and whether it is a
 * qualifier, and a stamp per name to gather candidates without a set.
 */
interface Memo {
  weight: Float64Array;
  qualifier: Int8Array;
  stamp: Int32Array;
  epoch: number;
}
const memos = new WeakMap<TokenIndex, Memo>();

function memoOf(tokens: TokenIndex): Memo {
  let m = memos.get(tokens);
  if (m === undefined) {
    m = {
      weight: new Float64Array(tokens.vocab.length).fill(NaN),
      qualifier: new Int8Array(tokens.vocab.length),
      stamp: new Int32Array(tokens.size),
      epoch: 0,
    };
    memos.set(tokens, m);
  }
  return m;
}

/** The weight of vocabulary word `v` (-1: a word no name has). */
function vocabWeight(tokens: TokenIndex, memo: Memo, v: number): number {
  if (v < 0) return weight(tokens.size, 0);
  let x = memo.weight[v] as number;
  if (Number.isNaN(x)) memo.weight[v] = x = weight(tokens.size, docFrequency(tokens, v));
  return x;
}

function vocabQualifier(tokens: TokenIndex, memo: Memo, v: number): boolean {
  let x = memo.qualifier[v] as number;
  if (x === 0) memo.qualifier[v] = x = isQualifier(tokens.vocab.at(v) as string) ? 1 : 2;
  return x === 1;
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
  // A list of names ("Parker, Miller & Stone"): one more or less is another firm.
  if (all.length === 0 || all.length > 12 || all.includes('and')) return null;
  const tokens: TokenIndex = ctx.tokens();
  const memo = memoOf(tokens);
  const words: string[] = [];
  const ids: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const w = all[i] as string;
    if (STOP_WORDS.has(w) || words.includes(w)) continue;
    words.push(w);
    ids.push(tokens.vocabId.get(w) ?? -1);
    at.push(i);
  }
  if (words.length === 0) return null;
  // Candidates: the names holding the query's rare words, rarest first, then by initials.
  const epoch = ++memo.epoch;
  if (epoch === 0x7fffffff) {
    memo.stamp.fill(0);
    memo.epoch = 1;
  }
  const pool: number[] = [];
  const add = (pos: number) => {
    if (memo.stamp[pos] === memo.epoch) return;
    memo.stamp[pos] = memo.epoch;
    pool.push(pos);
  };
  const addPostings = (v: number) => {
    const list = postings(tokens, v);
    for (let k = 0; k < list.length; k++) add(list[k] as number);
  };
  const rare = ids.filter((v) => v >= 0 && docFrequency(tokens, v) <= CANDIDATE_DF);
  rare.sort((a, b) => docFrequency(tokens, a) - docFrequency(tokens, b));
  for (const v of rare) {
    if (pool.length >= MAX_CANDIDATES) break;
    addPostings(v);
  }
  // Initials: a short query word may stand for a name's words, a run of query words for a name's word.
  for (let i = 0; i < words.length; i++) {
    if (ids[i] !== -1 || !initialsLike(words[i] as string)) continue;
    for (const pos of ctx.initials().get(words[i] as string)) if (pool.length < MAX_CANDIDATES * 2) add(pos);
  }
  for (let i = 0; i + 3 <= words.length; i++)
    for (let k = 3; k <= MAX_INITIALS && i + k <= words.length; k++) {
      const v = tokens.vocabId.get(keyInitials(words.slice(i, i + k)));
      if (v !== undefined && docFrequency(tokens, v) <= CANDIDATE_DF) addPostings(v);
    }
  if (pool.length === 0) return null;
  const weights = new Float64Array(words.length);
  for (let i = 0; i < words.length; i++) weights[i] = vocabWeight(tokens, memo, ids[i] as number);
  const qw: QueryWords = {
    words,
    ids,
    weights,
    at,
    n: tokens.size,
    distinctive: Math.max(2, tokens.size * DISTINCTIVE_SHARE),
  };
  let best = -1;
  let bestScore = -Infinity;
  let second = -Infinity;
  for (const pos of pool) {
    if (accept !== undefined && !accept(pos)) continue;
    const score = candidateScore(ctx, tokens, memo, q, qw, pos);
    if (Number.isNaN(score)) continue;
    if (best < 0 || score > bestScore || (score === bestScore && pos < best)) {
      if (best >= 0) second = Math.max(second, bestScore);
      best = pos;
      bestScore = score;
    } else second = Math.max(second, score);
  }
  if (best < 0) return null;
  const gap = bestScore - second;
  let strength = gap >= COMPETITION ? bestScore : bestScore - (COMPETITION - gap);
  const shared = ids.filter((v) => has(tokens, best, v));
  const family = familySize(tokens, pool, shared);
  // Every query word is in the candidate and in another name too: the query is the stem of a family
  // ("Mary Crane League" when the snapshot holds "Mary Crane League - Morse" and "Mary Crane League -
  // East"), a parent or any of its sites; no one of them by default.
  if (family > 1 && shared.length === words.length) return null;
  if (family > 1) strength -= FAMILY_COST * Math.log2(family);
  return { pos: best, strength };
}

/**
 * Whether the query has a word after its first shared word that the candidate lacks and that can name a
 * site or a branch: not a weak word ("Group", "Holdings") and not a lone letter.
 */
function sitesAfter(w: QueryWords, qPair: Int8Array, firstShared: number): boolean {
  for (let i = 0; i < w.words.length; i++) {
    if (qPair[i] !== 0 || (w.at[i] as number) < firstShared) continue;
    const word = w.words[i] as string;
    if (word.length > 1 && !WEAK_WORDS.has(word)) return true;
  }
  return false;
}

/** Whether a name other than `pos` holds every one of the `n` vocabulary words `ids`. */
function heldElsewhere(tokens: TokenIndex, pos: number, ids: Int32Array, n: number): boolean {
  if (n === 0) return false;
  let rarest = ids[0] as number;
  for (let j = 1; j < n; j++)
    if (docFrequency(tokens, ids[j] as number) < docFrequency(tokens, rarest)) rarest = ids[j] as number;
  const list = postings(tokens, rarest);
  for (let k = 0; k < list.length; k++) {
    const doc = list[k] as number;
    if (doc === pos) continue;
    let all = true;
    for (let j = 0; j < n && all; j++) all = has(tokens, doc, ids[j] as number);
    if (all) return true;
  }
  return false;
}

function has(tokens: TokenIndex, doc: number, v: number): boolean {
  if (v < 0) return false;
  for (let j = tokens.docStart[doc] as number; j < (tokens.docStart[doc + 1] as number); j++)
    if (tokens.docTok[j] === v) return true;
  return false;
}

/** How many names of the pool hold every one of the (vocabulary) words `shared`. */
function familySize(tokens: TokenIndex, pool: readonly number[], shared: readonly number[]): number {
  if (shared.length === 0) return 1;
  let count = 0;
  for (const doc of pool) if (shared.every((v) => has(tokens, doc, v))) count++;
  return count;
}

/** Same word up to a typo or a plural ("machine" / "machines", "electronic" / "electronics"). */
function looselySame(a: string, b: string): boolean {
  if (a.length < 4 || b.length < 4) return false;
  if (
    a.length === b.length + 1
      ? a.endsWith('s') && a.startsWith(b)
      : b.length === a.length + 1 && b.endsWith('s') && b.startsWith(a)
  )
    return true;
  return Math.min(a.length, b.length) >= 5 && nearTokens(a, b);
}

/** Scratch for {@link candidateScore} (one candidate at a time; JS is single-threaded). */
const MAX_CANDIDATE_WORDS = 64;
const scratch = {
  cIds: new Int32Array(MAX_CANDIDATE_WORDS),
  cWords: new Array<string>(MAX_CANDIDATE_WORDS).fill(''),
  cWeights: new Float64Array(MAX_CANDIDATE_WORDS),
  qPair: new Int8Array(16),
  cPair: new Int8Array(MAX_CANDIDATE_WORDS),
};

/** Whether a word is plain letters of a length initials can have. */
function initialsLike(word: string): boolean {
  if (word.length < 3 || word.length > MAX_INITIALS) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/**
 * The evidence for one candidate, or NaN when it shares no word, a qualifier tells them apart, both
 * names have a word the other lacks (two siblings: "Henry Booth House Granny's Day Care" and "Henry
 * Booth House Little Folks Day Care") unless one side's are weak words ("Group", "Holdings"), or the
 * legal forms say another entity.
 */
function candidateScore(
  ctx: CompanyContext,
  tokens: TokenIndex,
  memo: Memo,
  q: QueryName,
  w: QueryWords,
  pos: number,
): number {
  const { words, ids, weights } = w;
  const start = tokens.docStart[pos] as number;
  const end = tokens.docStart[pos + 1] as number;
  if (end - start > MAX_CANDIDATE_WORDS || words.length > scratch.qPair.length) return NaN;
  const { cIds, cWords, cWeights, qPair, cPair } = scratch;
  let cn = 0;
  for (let j = start; j < end; j++) {
    const v = tokens.docTok[j] as number;
    const word = tokens.vocab.at(v) as string;
    if (word === 'and') return NaN; // a list of names
    if (STOP_WORDS.has(word)) continue;
    cIds[cn] = v;
    cWords[cn] = word;
    cWeights[cn] = vocabWeight(tokens, memo, v);
    cn++;
  }
  qPair.fill(0, 0, words.length);
  cPair.fill(0, 0, cn);
  let agree = 0;
  let same = 0;
  for (let i = 0; i < words.length; i++) {
    const v = ids[i] as number;
    if (v < 0) continue;
    for (let j = 0; j < cn; j++) {
      if (cIds[j] !== v) continue;
      qPair[i] = 1;
      cPair[j] = 1;
      agree += weights[i] as number;
      same++;
      break;
    }
  }
  // Words written differently: typos and plurals, then initials either way.
  for (let i = 0; i < words.length; i++) {
    if (qPair[i] !== 0) continue;
    for (let j = 0; j < cn; j++) {
      if (cPair[j] !== 0 || !looselySame(words[i] as string, cWords[j] as string)) continue;
      qPair[i] = 2;
      cPair[j] = 2;
      agree += LOOSE * (cWeights[j] as number);
      break;
    }
  }
  // Initials weigh at most what an unknown word does: three letters are not three words.
  const most = weight(w.n, 0);
  agree += initials(words, words.length, qPair, cWords, cn, cPair, cWeights, most);
  agree += initials(cWords, cn, cPair, words, words.length, qPair, weights, most);
  if (agree === 0) return NaN;
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
    const v = ids[i] as number;
    if ((w.at[i] as number) > firstShared && (v >= 0 ? vocabQualifier(tokens, memo, v) : isQualifier(word)))
      return NaN;
    extra += EXTRA_BASE + EXTRA_PER_WEIGHT * (weights[i] as number);
    queryExtras++;
    if (WEAK_WORDS.has(word)) queryWeak++;
    if (docFrequency(tokens, v) <= w.distinctive) queryDistinct = true;
  }
  let seenShared = false;
  let extras = 0;
  let weakExtras = 0;
  let candidateDistinct = false;
  for (let j = 0; j < cn; j++) {
    if (cPair[j] !== 0) {
      seenShared = true;
      continue;
    }
    const v = cIds[j] as number;
    if (seenShared && vocabQualifier(tokens, memo, v)) return NaN;
    extra += EXTRA_BASE + EXTRA_PER_WEIGHT * (cWeights[j] as number);
    extras++;
    if (WEAK_WORDS.has(cWords[j] as string)) weakExtras++;
    if (docFrequency(tokens, v) <= w.distinctive) candidateDistinct = true;
  }
  if (extras === 0 && queryExtras === 0 && same === words.length) return NaN; // the same words
  // The query is the candidate's name and more, and another name holds the candidate's words too: the
  // candidate heads a family of names (an organisation and its sites), and the words after its name
  // pick a member that is not this one ("Albany Park Community Center - Kimball" is not "Albany Park
  // Community Center" when "Albany Park Community Center - Ainslie" is another record).
  if (extras === 0 && sitesAfter(w, qPair, firstShared) && heldElsewhere(tokens, pos, cIds, cn)) return NaN;
  if (queryDistinct && candidateDistinct) return NaN;
  if (extras > weakExtras && queryExtras > queryWeak) return NaN;
  // A word more or less and another legal form are two differences: another company.
  if (formConflict(ctx, q, pos)) return NaN;
  return agree - extra;
}

/**
 * Pairs a short unpaired word of `a` with a run of unpaired words of `b` whose initials it is ("ibm" /
 * "international business machines"), marking both; returns the agreement weight added.
 */
function initials(
  a: readonly string[],
  aLength: number,
  aPair: Int8Array,
  b: readonly string[],
  bLength: number,
  bPair: Int8Array,
  bWeights: Float64Array,
  most: number,
): number {
  let added = 0;
  for (let i = 0; i < aLength; i++) {
    if (aPair[i] !== 0) continue;
    const word = a[i] as string;
    if (word.length > bLength || !initialsLike(word)) continue;
    const k = word.length;
    for (let j = 0; j + k <= bLength; j++) {
      let ok = true;
      for (let m = 0; m < k && ok; m++)
        ok = bPair[j + m] === 0 && (b[j + m] as string).charCodeAt(0) === word.charCodeAt(m);
      if (!ok) continue;
      let weightSum = 0;
      for (let m = 0; m < k; m++) {
        bPair[j + m] = 2;
        weightSum += bWeights[j + m] as number;
      }
      aPair[i] = 2;
      added += LOOSE * Math.min(most, weightSum);
      break;
    }
  }
  return added;
}
