/**
 * The best candidate of a row that no decision rule answers, the way a search engine's top hit would
 * be: the name sharing the most weight of rare words with the query, each word read as written or, when
 * no indexed name has it, as a typo of an indexed word, the start of one ("KONINKL" for "Koninklijke"),
 * or indexed words written together ("GISTBROCADES", "HUNTERDOUGLASINDUSTRIESB"); adjacent query words
 * written apart are read joined too ("Day Care" for "Daycare"). It only serves a caller who lowers
 * `min_confidence`: its answers are reported at the calibrated probability that they are right
 * (`company-confidence.ts`, path `guess_retrieved`), never as a default decision.
 *
 * Word weights are ln(n / df) as in `company-words.ts`: agreeing on a word few names have says more.
 */
import type { TokenIndex } from '../../indexes/match/token-index.js';
import { nearVocabulary, wordsWithPrefix } from '../../indexes/match/token-index.js';
import { STOP_WORDS } from './company-score.js';
import type { CompanyContext, QueryName } from './company-search.js';

/** Names holding a word that at most this share of the names have are gathered as candidates … */
const POOL_SHARE = 0.02;
/** … and at least this many (a small snapshot has few names per word). */
const POOL_MIN_DF = 64;
/** At most this many candidates are scored (the rarest words' postings first). */
const MAX_POOL = 4000;
/** A word read as a typo, the start of a longer word or a piece of a joined word counts this share. */
const LOOSE = 0.8;
/** A candidate's word the query lacks costs this share of its weight (the shorter name wins ties). */
const EXTRA = 0.1;
/** Readings of an abbreviated or cut-off word: at most this many indexed words it starts. */
const PREFIX_READINGS = 8;
/**
 * Legal forms written into a joined word ("HUNTERDOUGLASINDUSTRIESBV", "DSMNV"): a piece the split may
 * leave aside (the name keys hold no legal form, so the vocabulary does not have them).
 */
const FORM_PIECES: ReadonlySet<string> = new Set([
  'ab',
  'ag',
  'as',
  'bv',
  'co',
  'corp',
  'gmbh',
  'inc',
  'kg',
  'kk',
  'llc',
  'lp',
  'ltd',
  'nv',
  'oy',
  'plc',
  'pty',
  'sa',
  'sarl',
  'se',
  'spa',
  'srl',
]);

/** One query word and how it may be read: vocabulary ids with the share of their weight they count. */
interface Word {
  ids: number[];
  factors: number[];
  /** What leaving the word unmatched costs the query's coverage (its best reading's weight). */
  weight: number;
}

export interface Retrieved {
  pos: number;
  /**
   * How well the best explains the query, in [0, 1]: the share of the query's word weight it matches,
   * times the square root of the share of its own, times a lead over the runner-up (half when tied).
   */
  raw: number;
}

function df(tokens: TokenIndex, v: number): number {
  return (tokens.postStart[v + 1] as number) - (tokens.postStart[v] as number);
}

// Word weights by vocabulary id, per token index, filled on first use (NaN: not yet).
const WEIGHTS = new WeakMap<TokenIndex, Float64Array>();

/** Per token index: a stamp per name, to gather candidates without a set (one query at a time). */
const STAMPS = new WeakMap<TokenIndex, { stamp: Int32Array; epoch: number }>();

function stampOf(tokens: TokenIndex): { stamp: Int32Array; epoch: number } {
  let s = STAMPS.get(tokens);
  if (s === undefined || s.epoch >= 0x7ffffff0)
    STAMPS.set(tokens, (s = { stamp: new Int32Array(tokens.size), epoch: 0 }));
  return s;
}

function weightOf(tokens: TokenIndex, v: number): number {
  let memo = WEIGHTS.get(tokens);
  if (memo === undefined) WEIGHTS.set(tokens, (memo = new Float64Array(tokens.vocab.length).fill(NaN)));
  let w = memo[v] as number;
  if (Number.isNaN(w)) memo[v] = w = Math.log((tokens.size + 1) / Math.max(1, df(tokens, v)));
  return w;
}

/**
 * The fewest indexed words (of 2+ letters; a legal form may stand among them and is left aside) that
 * write `word` together, or null. A last letter may stay over ("…INDUSTRIESB" before a spaced "V").
 */
export function splitJoined(tokens: TokenIndex, word: string): string[] | null {
  const n = word.length;
  if (n < 5 || n > 60) return null;
  // best[i]: fewest pieces writing word[0, i); from[i]: where the last piece starts (-1 none).
  const best = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    if (best[i] === Infinity) continue;
    for (let j = i + 2; j <= n; j++) {
      if (j - i === n) continue; // the word itself is not a split
      const piece = word.slice(i, j);
      if (!tokens.vocabId.has(piece) && !FORM_PIECES.has(piece)) continue;
      if ((best[i] as number) + 1 < (best[j] as number)) {
        best[j] = (best[i] as number) + 1;
        from[j] = i;
      }
    }
  }
  let end = n;
  if (best[n] === Infinity && best[n - 1] !== Infinity) end = n - 1;
  if (best[end] === Infinity) return null;
  const pieces: string[] = [];
  for (let j = end; j > 0; j = from[j] as number) pieces.unshift(word.slice(from[j] as number, j));
  const words = pieces.filter((p) => tokens.vocabId.has(p));
  return words.length >= 1 && pieces.length >= 2 ? words : null;
}

/** The query's words with their readings (stop words and words no reading finds in the index aside). */
function readWords(tokens: TokenIndex, query: readonly string[]): { words: Word[]; unread: number } {
  const words: Word[] = [];
  let unread = 0;
  const unknown = Math.log(tokens.size + 1);
  const push = (ids: number[], factors: number[]) => {
    let weight = 0;
    ids.forEach((v, k) => (weight = Math.max(weight, (factors[k] as number) * weightOf(tokens, v))));
    words.push({ ids, factors, weight });
  };
  for (let i = 0; i < query.length; i++) {
    const t = query[i] as string;
    if (STOP_WORDS.has(t) || query.indexOf(t) < i) continue;
    const v = tokens.vocabId.get(t);
    if (v !== undefined) {
      push([v], [1]);
    } else {
      const ids: number[] = [];
      const factors: number[] = [];
      const add = (id: number) => {
        if (ids.includes(id)) return;
        ids.push(id);
        factors.push(LOOSE);
      };
      for (const id of nearVocabulary(tokens, t)) add(id);
      if (t.length >= 4)
        for (const w of wordsWithPrefix(tokens, t, PREFIX_READINGS)) add(tokens.vocabId.get(w) as number);
      if (ids.length > 0) push(ids, factors);
      const split = splitJoined(tokens, t);
      if (split !== null)
        for (const w of split) if (query.indexOf(w) < 0) push([tokens.vocabId.get(w) as number], [LOOSE]);
      if (ids.length === 0 && split === null && !(t.length === 1)) {
        words.push({ ids: [], factors: [], weight: unknown });
        unread++;
      }
    }
    // Two or three words written apart that an indexed name writes together.
    let joined = t;
    for (let k = i + 1; k < query.length && k <= i + 2; k++) {
      joined += query[k] as string;
      const j = tokens.vocabId.get(joined);
      if (j !== undefined) push([j], [LOOSE]);
    }
  }
  return { words, unread };
}

/**
 * The name that shares the most weight of (read) words with `q`, among those `accept` allows, with how
 * well it explains the query; null when no name shares a word with any reading of it.
 */
export function retrieveCompany(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
): Retrieved | null {
  const query = q.scored.tokens;
  if (query.length === 0 || query.length > 16) return null;
  const tokens = ctx.tokens();
  const { words } = readWords(tokens, query);
  const total = words.reduce((s, w) => s + w.weight, 0);
  if (total === 0) return null;
  // Candidates: the postings of the rarest readings first; when every word is common, the rarest one's.
  const readings: number[] = [];
  for (const w of words) for (const v of w.ids) if (!readings.includes(v)) readings.push(v);
  if (readings.length === 0) return null;
  readings.sort((a, b) => df(tokens, a) - df(tokens, b) || a - b);
  const cap = Math.max(POOL_MIN_DF, tokens.size * POOL_SHARE);
  const seen = stampOf(tokens);
  const epoch = ++seen.epoch;
  const pool: number[] = [];
  for (let r = 0; r < readings.length; r++) {
    const v = readings[r] as number;
    if (r > 0 && df(tokens, v) > cap) break;
    for (let k = tokens.postStart[v] as number; k < (tokens.postStart[v + 1] as number); k++) {
      if (pool.length >= MAX_POOL) break;
      const doc = tokens.post.at(k); // by entry: the pool may fill before a long list's end
      if (seen.stamp[doc] === epoch) continue;
      seen.stamp[doc] = epoch;
      pool.push(doc);
    }
  }
  // Each reading's word and the weight it counts, by vocabulary id (a candidate's words are read once).
  const reads = new Map<number, [number, number][]>();
  words.forEach((w, i) =>
    w.ids.forEach((v, k) => {
      const list = reads.get(v) ?? [];
      list.push([i, (w.factors[k] as number) * weightOf(tokens, v)]);
      reads.set(v, list);
    }),
  );
  const got = new Float64Array(words.length);
  const stop = [...STOP_WORDS].map((w) => tokens.vocabId.get(w) ?? -1);
  let best = -1;
  let bestScore = -Infinity;
  let bestRaw = 0;
  let second = -Infinity;
  for (const pos of pool) {
    if (accept !== undefined && !accept(pos)) continue;
    got.fill(0);
    // The candidate's own words: those no reading of the query has cost a share of their weight.
    let own = 0;
    let ownMatched = 0;
    for (let j = tokens.docStart[pos] as number; j < (tokens.docStart[pos + 1] as number); j++) {
      const v = tokens.docTok[j] as number;
      if (stop.includes(v)) continue;
      const w = weightOf(tokens, v);
      own += w;
      const hits = reads.get(v);
      if (hits === undefined) continue;
      ownMatched += w;
      for (const [i, x] of hits) if (x > (got[i] as number)) got[i] = x;
    }
    let matched = 0;
    for (let i = 0; i < got.length; i++) matched += got[i] as number;
    if (matched === 0) continue;
    const score = matched - EXTRA * (own - ownMatched);
    if (score > bestScore || (score === bestScore && pos < best)) {
      second = bestScore;
      best = pos;
      bestScore = score;
      bestRaw = (matched / total) * Math.sqrt(own === 0 ? 0 : ownMatched / own);
    } else if (score > second) second = score;
  }
  if (best < 0) return null;
  const lead = second === -Infinity ? 1 : Math.min(1, (bestScore - second) / 2);
  return { pos: best, raw: bestRaw * (0.5 + 0.5 * lead) };
}
