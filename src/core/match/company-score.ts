/**
 * The company-name scorer: a weighted, order-free token alignment with typo-tolerant token similarity,
 * or, when the token counts differ and the names written without spaces are at most one edit apart,
 * their edit similarity if that is higher ("acme robotics" vs "acmerobotics"). Weak words such as "group" weigh less when both names have
 * them; a word only one name has counts in full, weak or not: "Redwood Systems" and "Redwood Systems
 * Global" may well be two companies. Only stop words ("the", "and", "of") stay light when unmatched. Gated: a pair that shares no near token (`nearTokens`) scores 0,
 * which is exactly the set the blocking index can find.
 */
import { nearTokens, osaDistance, tokenSimilarity } from '../../normalise/similarity.js';

/** Mirrors the normaliser's weak words: present in the key, but weak evidence of identity. */
export const WEAK_WORDS: ReadonlySet<string> = new Set([
  'group',
  'holdings',
  'holding',
  'international',
  'global',
  'worldwide',
  'enterprises',
  'solutions',
  'services',
  'technologies',
  'systems',
  'partners',
  'industries',
  'and',
  'of',
  'the',
]);
const WEAK_WEIGHT = 0.35;
/** Words that say nothing about identity: one name having them and the other not costs little. */
export const STOP_WORDS: ReadonlySet<string> = new Set(['and', 'of', 'the']);

export interface ScoredName {
  tokens: readonly string[];
  weights: readonly number[];
  totalWeight: number;
  /** The tokens joined without spaces. */
  joined: string;
  /** Token indexes, heaviest first (the alignment order when this name is the query). */
  order: readonly number[];
  /**
   * For a query: which tokens are words some indexed name has. Such a token is taken as written, not as
   * a typo of another word ("Polarscape" does not match "Solarscape" when a Polarscape exists somewhere).
   */
  known?: readonly boolean[];
  /** For an indexed name: the vocabulary id of each token (set by the fuzzy search). */
  ids?: Int32Array;
  /**
   * For a query: token similarities are remembered per query token and vocabulary id in shared
   * scratch, stamped with `epoch` (one per query; {@link simMemo}).
   */
  memo?: { epoch: number; stride: number };
}

/** Shared scratch for remembered token similarities: slot `i * stride + id`, valid when stamped. */
let memoStamp = new Int32Array(0);
let memoValue = new Float64Array(0);
let memoEpoch = 0;

/**
 * A fresh similarity memo for a query of `tokens` words scored against names whose tokens carry ids
 * below `vocabulary` (null when too large to be worth it).
 */
export function simMemo(tokens: number, vocabulary: number): { epoch: number; stride: number } | null {
  const size = tokens * vocabulary;
  if (tokens > 16 || size > 1 << 22) return null; // at most 4M slots (48 MB of scratch)
  if (memoStamp.length < size) {
    memoStamp = new Int32Array(Math.max(size, memoStamp.length * 2));
    memoValue = new Float64Array(memoStamp.length);
    memoEpoch = 0;
  }
  if (memoEpoch >= 0x7ffffff0) {
    memoStamp.fill(0);
    memoEpoch = 0;
  }
  return { epoch: ++memoEpoch, stride: vocabulary };
}

/** Prepares a token list (a company key split on spaces) for {@link companyScore}. */
export function scoredName(tokens: readonly string[]): ScoredName {
  const weights = tokens.map((t) => (WEAK_WORDS.has(t) ? WEAK_WEIGHT : 1));
  let totalWeight = 0;
  for (const w of weights) totalWeight += w;
  const order = tokens
    .map((_, i) => i)
    .sort((a, b) => (weights[b] as number) - (weights[a] as number) || a - b);
  return { tokens, weights, totalWeight, joined: tokens.join(''), order };
}

/** Whether two names share a near token: the gate of {@link companyScore} and of the blocking index. */
export function sharesNearToken(a: readonly string[], b: readonly string[]): boolean {
  for (const x of a) for (const y of b) if (nearTokens(x, y)) return true;
  return false;
}

/**
 * Similarity of two prepared company names in [0, 1]; symmetric, 1 for equal token multisets.
 * @example companyScore(scoredName(['acme', 'robotics']), scoredName(['robotics', 'acme'])) // 1
 */
export function companyScore(q: ScoredName, c: ScoredName): number {
  if (q.tokens.length === 0 || c.tokens.length === 0) return 0;
  if (!sharesNearToken(q.tokens, c.tokens)) return 0;
  return alignedScore(q, c);
}

let used = new Uint8Array(32);
/** Scratch: the candidate token each query token was aligned with (-1 when none), by query position. */
let pairOf = new Int16Array(32);
let pairCount = 0;
/** Scratch: the query tokens of the last alignment. */
let pairTokens: readonly string[] = [];

/** How the last {@link alignedScore} call aligned the names (read right after the call). */
export const lastAlignment = {
  /** Tokens of either name left without a counterpart (stop words such as "the" aside). */
  unmatched: 0,
  /** Whether the score came from the names written without spaces. */
  joined: false,
  /** The weighted agreement of the aligned tokens and their total weight (the score's numerator and base). */
  matched: 0,
  aligned: 0,
};

/** Scratch: the candidate tokens {@link pairLeftovers} paired, by candidate position (1 = paired). */
export let leftoverPaired = new Uint8Array(32);

/**
 * Whether the last {@link alignedScore} call aligned the words in the same order in both names
 * ("Parker & Miller" with "Parker & Miller", not with "Miller & Parker"). Stop words do not count: where
 * the "&" or "and" stands says nothing about which partner comes first ("Parker Miller &", "& Parker
 * Miller" are written for "Parker & Miller").
 */
export function lastAlignedInOrder(): boolean {
  let prev = -1;
  for (let i = 0; i < pairCount; i++) {
    const j = pairOf[i] as number;
    if (j < 0 || STOP_WORDS.has(pairTokens[i] as string)) continue;
    if (j < prev) return false;
    prev = j;
  }
  return true;
}

/** {@link companyScore} for a pair known to pass the gate (blocked candidates share a near token). */
export function alignedScore(q: ScoredName, c: ScoredName): number {
  lastAlignment.unmatched = q.tokens.length + c.tokens.length;
  lastAlignment.joined = false;
  if (q.tokens.length === 0 || c.tokens.length === 0) return 0;
  // Greedy alignment, heaviest query tokens first; each candidate token is used once.
  // Shared scratch marks the candidate tokens already used (no allocation per candidate).
  if (c.tokens.length > used.length) used = new Uint8Array(c.tokens.length * 2);
  if (q.tokens.length > pairOf.length) pairOf = new Int16Array(q.tokens.length * 2);
  used.fill(0, 0, c.tokens.length);
  pairOf.fill(-1, 0, q.tokens.length);
  pairCount = q.tokens.length;
  pairTokens = q.tokens;
  const known = q.known;
  const memo = q.memo !== undefined && c.ids !== undefined ? q.memo : undefined;
  const ids = c.ids;
  let matched = 0;
  let aligned = 0;
  let pairs = 0;
  for (const i of q.order) {
    const t = q.tokens[i] as string;
    const exactOnly = known !== undefined && known[i] === true;
    let best = 0;
    let bestJ = -1;
    for (let j = 0; j < c.tokens.length; j++) {
      if (used[j] === 1) continue;
      const u = c.tokens[j] as string;
      let sim: number;
      if (memo !== undefined) {
        const slot = i * memo.stride + ((ids as Int32Array)[j] as number);
        if (memoStamp[slot] === memo.epoch) sim = memoValue[slot] as number;
        else {
          sim = exactOnly ? (t === u ? 1 : 0) : tokenSimilarity(t, u);
          memoStamp[slot] = memo.epoch;
          memoValue[slot] = sim;
        }
      } else sim = exactOnly ? (t === u ? 1 : 0) : tokenSimilarity(t, u);
      if (
        sim > best ||
        (sim === best && sim > 0 && bestJ >= 0 && (c.weights[j] as number) > (c.weights[bestJ] as number))
      ) {
        best = sim;
        bestJ = j;
        if (sim === 1 && c.weights[j] === q.weights[i]) break;
      }
    }
    if (bestJ >= 0) {
      used[bestJ] = 1;
      pairOf[i] = bestJ;
      const w = (q.weights[i] as number) + (c.weights[bestJ] as number);
      matched += best * w;
      aligned += w;
      pairs++;
    }
  }
  // A word only one name has counts in full (weight 1), weak or not.
  let unmatched = 0;
  let unmatchedWeight = 0;
  if (pairs < q.tokens.length) {
    for (let i = 0; i < q.tokens.length; i++) {
      if (pairOf[i] !== -1) continue;
      const stop = STOP_WORDS.has(q.tokens[i] as string);
      unmatched += stop ? 0 : 1;
      unmatchedWeight += stop ? WEAK_WEIGHT : 1;
    }
  }
  if (pairs < c.tokens.length) {
    for (let j = 0; j < c.tokens.length; j++) {
      if (used[j] === 1) continue;
      const stop = STOP_WORDS.has(c.tokens[j] as string);
      unmatched += stop ? 0 : 1;
      unmatchedWeight += stop ? WEAK_WEIGHT : 1;
    }
  }
  lastAlignment.unmatched = unmatched;
  lastAlignment.matched = matched;
  lastAlignment.aligned = aligned;
  const tokenScore = matched / (aligned + unmatchedWeight);
  if (tokenScore >= 0.999) return 1;
  // Spacing differences change the token count; with equal counts the alignment already said it all.
  // Written without spaces, the names must then be equal up to one typo ("acme robotics" and
  // "acmerobtics"); a word more or less ("Pinnacle 14", "Henderson Search" vs "Henderson Beer Co.") is
  // not a spacing difference.
  if (q.tokens.length === c.tokens.length) return tokenScore;
  const joinScore = joinedSimilarity(q.joined, c.joined);
  if (joinScore > tokenScore) lastAlignment.joined = true;
  return Math.max(tokenScore, joinScore);
}

/**
 * Read right after an {@link alignedScore} call that left words without a counterpart (and did not score
 * the names joined): the score with those words paired in the order written, one query word with one
 * candidate word one edit apart ("saw" / "san", "dta" / "data"), a first word one edit from "the" read
 * as the article, or -1 when a word that is not a stop word stays alone, or a query word so paired is a word of the index (taken as written, as
 * in the alignment). Marks the candidate words so paired in {@link leftoverPaired}. A short word is no
 * typo evidence on its own (too many words are one edit from "san"): the caller reads this only for names
 * whose other words already line up.
 */
export function pairLeftovers(q: ScoredName, c: ScoredName): number {
  if (c.tokens.length > leftoverPaired.length) leftoverPaired = new Uint8Array(c.tokens.length * 2);
  leftoverPaired.fill(0, 0, c.tokens.length);
  let matched = lastAlignment.matched;
  let base = lastAlignment.aligned;
  let next = 0;
  for (let i = 0; i < q.tokens.length; i++) {
    if (pairOf[i] !== -1) continue;
    const t = q.tokens[i] as string;
    let j = next;
    for (; j < c.tokens.length; j++) {
      if (used[j] === 1) continue;
      const u = c.tokens[j] as string;
      if (t.length >= 2 && u.length >= 2 && osaDistance(t, u, 1) <= 1) break;
    }
    if (j === c.tokens.length || q.known?.[i] === true) {
      // A first word one edit from "the" is the article mistyped ("Th", "Teh", "Tye"): keys drop "the".
      if (!STOP_WORDS.has(t) && !(i === 0 && t.length >= 2 && osaDistance(t, 'the', 1) <= 1)) return -1;
      base += WEAK_WEIGHT;
      continue;
    }
    leftoverPaired[j] = 1;
    const w = (q.weights[i] as number) + (c.weights[j] as number);
    matched += (1 - 1 / Math.max(t.length, (c.tokens[j] as string).length)) * w;
    base += w;
    next = j + 1;
  }
  for (let j = 0; j < c.tokens.length; j++) {
    if (used[j] === 1 || leftoverPaired[j] === 1) continue;
    if (!STOP_WORDS.has(c.tokens[j] as string)) return -1;
    base += WEAK_WEIGHT;
  }
  return matched / base;
}

/** Edit similarity of two names written without spaces when they are at most one edit apart, else 0. */
function joinedSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const m = Math.max(a.length, b.length);
  if (m < 8 || osaDistance(a, b, 1) > 1) return 0;
  return 1 - 1 / m;
}
