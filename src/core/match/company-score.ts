/**
 * The company-name scorer: a weighted, order-free token alignment (weak words such as "group" weigh
 * less) with typo-tolerant token similarity, or, when the token counts differ, the edit similarity of the
 * names written without spaces if that is higher ("acme robotics" vs "acmerobotics"). Gated: a pair that shares no near token
 * (`nearTokens`) scores 0, which is exactly the set the blocking index can find.
 */
import { editSimilarity, nearTokens, tokenSimilarity } from './similarity.js';

/** Mirrors the normaliser's weak words: present in the key, but weak evidence of identity. */
const WEAK_WORDS: ReadonlySet<string> = new Set([
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

export interface ScoredName {
  tokens: readonly string[];
  weights: readonly number[];
  totalWeight: number;
  /** The tokens joined without spaces. */
  joined: string;
  /** Token indexes, heaviest first (the alignment order when this name is the query). */
  order: readonly number[];
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

/** {@link companyScore} for a pair known to pass the gate (blocked candidates share a near token). */
export function alignedScore(q: ScoredName, c: ScoredName): number {
  if (q.tokens.length === 0 || c.tokens.length === 0) return 0;
  // Greedy alignment, heaviest query tokens first; each candidate token is used once.
  // Shared scratch marks the candidate tokens already used (no allocation per candidate).
  if (c.tokens.length > used.length) used = new Uint8Array(c.tokens.length * 2);
  used.fill(0, 0, c.tokens.length);
  let matched = 0;
  for (const i of q.order) {
    const t = q.tokens[i] as string;
    let best = 0;
    let bestJ = -1;
    for (let j = 0; j < c.tokens.length; j++) {
      if (used[j] === 1) continue;
      const sim = tokenSimilarity(t, c.tokens[j] as string);
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
      matched += best * ((q.weights[i] as number) + (c.weights[bestJ] as number));
    }
  }
  const tokenScore = matched / (q.totalWeight + c.totalWeight);
  if (tokenScore >= 0.999) return 1;
  // Spacing differences change the token count; with equal counts the alignment already said it all.
  if (q.tokens.length === c.tokens.length) return tokenScore;
  const joinScore = editSimilarity(q.joined, c.joined);
  return Math.max(tokenScore, joinScore);
}
