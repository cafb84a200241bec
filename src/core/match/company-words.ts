/**
 * Names written with a word more or less ("Brightwell Electronics" or "Koninklijke Brightwell" for
 * "Brightwell", "Hilton Worldwide Inc." for "Hilton Worldwide Holdings Inc."), decided on evidence
 * weighted by how often each word occurs among the snapshot's names (Fellegi–Sunter with
 * term-frequency adjusted agreement weights, as Splink does): agreeing on a word few names have is
 * strong evidence, agreeing on "group" or "chicago" is weak; a word only one name has costs more when
 * it is rare ("Koninklijke") than when it is a common word of names ("Holdings", "Electronics").
 *
 * A qualifier that one name has after the shared words makes the two names two companies, whatever the
 * weights: a place or country ("Acme Europe", "Philips North America", "Acme UK"), a scope ("Global",
 * "Worldwide") or a number in a series ("Acquisition Corp. II", "Pinnacle 14").
 */
import type { TokenIndex } from '../../indexes/match/token-index.js';
import { CANONICAL_COUNTRIES, PLACES } from '../../normalise/company-places.js';
import { STOP_WORDS, WEAK_WORDS } from './company-score.js';
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
  /** Evidence for the candidate in log units, less what a close runner-up takes off (the calibrated raw score). */
  strength: number;
}

/**
 * The candidate whose words best explain the query's, when the names differ by words only one of them
 * has (none of them a qualifier after the shared words), or null. Only candidates sharing a word that
 * few names have are weighed, so common-word queries cost nothing.
 */
export function wordEvidence(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
): WordEvidence | null {
  const words = q.scored.tokens;
  if (words.length === 0 || words.length > 12) return null;
  const tokens: TokenIndex = ctx.tokens();
  const n = tokens.size;
  // Distinct query words, with their vocabulary ids (-1 when no indexed name has them) and weights.
  const qIds: number[] = [];
  const qWords: string[] = [];
  for (const w of words) {
    if (STOP_WORDS.has(w) || qWords.includes(w)) continue;
    qWords.push(w);
    qIds.push(tokens.vocabId.get(w) ?? -1);
  }
  const df = (v: number) =>
    v < 0 ? 0 : (tokens.postStart[v + 1] as number) - (tokens.postStart[v] as number);
  const rare = qIds
    .map((v, i) => ({ v, i, df: df(v) }))
    .filter((x) => x.v >= 0 && x.df <= CANDIDATE_DF)
    .sort((a, b) => a.df - b.df);
  if (rare.length === 0) return null;
  const pool = new Set<number>();
  for (const { v } of rare) {
    if (pool.size >= MAX_CANDIDATES) break;
    for (let k = tokens.postStart[v] as number; k < (tokens.postStart[v + 1] as number); k++)
      pool.add(tokens.post[k] as number);
  }
  const qPos = qWords.map((w) => words.indexOf(w));
  const distinctive = Math.max(2, n * DISTINCTIVE_SHARE);
  let best: { pos: number; score: number } | null = null;
  let second = -Infinity;
  for (const pos of pool) {
    if (accept !== undefined && !accept(pos)) continue;
    const s = candidateScore(ctx, tokens, q, { qWords, qIds, qPos, n, df, distinctive }, pos);
    if (s === null) continue;
    if (best === null || s > best.score || (s === best.score && pos < best.pos)) {
      if (best !== null) second = Math.max(second, best.score);
      best = { pos, score: s };
    } else second = Math.max(second, s);
  }
  if (best === null) return null;
  const gap = best.score - second;
  let strength = gap >= COMPETITION ? best.score : best.score - (COMPETITION - gap);
  const family = familySize(tokens, pool, qIds, best.pos);
  if (family > 1) strength -= FAMILY_COST * Math.log2(family);
  return { pos: best.pos, strength };
}

function has(tokens: TokenIndex, doc: number, v: number): boolean {
  if (v < 0) return false;
  for (let j = tokens.docStart[doc] as number; j < (tokens.docStart[doc + 1] as number); j++)
    if (tokens.docTok[j] === v) return true;
  return false;
}

/** How many names of the pool hold every query word that `pos` holds. */
function familySize(
  tokens: TokenIndex,
  pool: ReadonlySet<number>,
  qIds: readonly number[],
  pos: number,
): number {
  const shared = qIds.filter((v) => has(tokens, pos, v));
  let count = 0;
  for (const doc of pool) if (shared.every((v) => has(tokens, doc, v))) count++;
  return count;
}

interface QueryWords {
  qWords: readonly string[];
  qIds: readonly number[];
  qPos: readonly number[];
  n: number;
  df: (v: number) => number;
  distinctive: number;
}

/**
 * The evidence for one candidate, or null when it shares no word, a qualifier tells them apart, or both
 * names have a distinctive word the other lacks (two siblings: "Henry Booth House Granny's Day Care" and
 * "Henry Booth House Little Folks Day Care").
 */
function candidateScore(
  ctx: CompanyContext,
  tokens: TokenIndex,
  q: QueryName,
  w: QueryWords,
  pos: number,
): number | null {
  const { qWords, qIds, qPos, n, df } = w;
  let agree = 0;
  let extra = 0;
  let firstShared = Infinity;
  let shared = 0;
  for (let i = 0; i < qWords.length; i++) {
    const v = qIds[i] as number;
    if (!has(tokens, pos, v)) continue;
    agree += weight(n, df(v));
    shared++;
    firstShared = Math.min(firstShared, qPos[i] as number);
  }
  if (shared === 0) return null;
  // The query's words the candidate lacks.
  let queryDistinct = false;
  let queryWeak = 0;
  for (let i = 0; i < qWords.length; i++) {
    const v = qIds[i] as number;
    if (has(tokens, pos, v)) continue;
    if (WEAK_WORDS.has(qWords[i] as string)) queryWeak++;
    if ((qPos[i] as number) > firstShared && isQualifier(qWords[i] as string)) return null;
    extra += EXTRA_BASE + EXTRA_PER_WEIGHT * weight(n, df(v));
    if (df(v) <= w.distinctive) queryDistinct = true;
  }
  // The candidate's words the query lacks.
  let seenShared = false;
  let extras = 0;
  let candidateDistinct = false;
  let weakExtras = 0;
  for (let j = tokens.docStart[pos] as number; j < (tokens.docStart[pos + 1] as number); j++) {
    const v = tokens.docTok[j] as number;
    if (qIds.includes(v)) {
      seenShared = true;
      continue;
    }
    const word = tokens.vocab[v] as string;
    if (STOP_WORDS.has(word)) continue;
    if (seenShared && isQualifier(word)) return null;
    extra += EXTRA_BASE + EXTRA_PER_WEIGHT * weight(n, df(v));
    if (df(v) <= w.distinctive) candidateDistinct = true;
    if (WEAK_WORDS.has(word)) weakExtras++;
    extras++;
  }
  if (extras === 0 && shared === qWords.length) return null; // the same words: not this rule's business
  if (queryDistinct && candidateDistinct) return null;
  // A word more or less on one side; on both sides only when one side's are weak words ("Group").
  if (extras > weakExtras && shared + queryWeak < qWords.length) return null;
  return agree - extra - (formConflict(ctx, q, pos) ? FORM_COST : 0);
}
