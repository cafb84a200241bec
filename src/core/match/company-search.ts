/**
 * Company name → scored business candidates: the exact name key first, then token blocking with the
 * deletion neighbourhood and the calibrated scorer. Shared by the business matcher and by the prospect
 * matcher (to resolve `company_name`).
 *
 * Over 400 lines on purpose: the candidate search and its scorer share one per-query scratch state in
 * the hot loop; the word evidence (`company-words.ts`) and the legal forms (`legal-form.ts`) are already
 * apart.
 */
import { kind, type Context } from '../../runtime/context.js';
import {
  businessIds,
  businessInitialsIndex,
  businessMatchIndex,
  businessNameIndex,
  businessPosition,
  splitKey,
  type BusinessMatchIndex,
} from '../../indexes/match/businesses.js';
import type { KeyLookup } from '../../indexes/hash/index.js';
import type { StringColumn } from '../../indexes/format/strings.js';
import { otherNameIndex, otherNameTokens, type OtherNameIndex } from '../../indexes/match/other-names.js';
import { pairPostings } from '../../indexes/match/pair-index.js';
import {
  candidates,
  docFrequency,
  documentWords,
  nearVocabulary,
  postings,
  sameJoined,
  type TokenIndex,
} from '../../indexes/match/token-index.js';
import { companyFullKey, companyMatchName } from '../../normalise/index.js';
import {
  alignedScore,
  companyScore,
  lastAlignedInOrder,
  lastAlignment,
  leftoverPaired,
  pairLeftovers,
  scoredName,
  simMemo,
  STOP_WORDS,
  type ScoredName,
} from './company-score.js';
import { formOutsideCountry, formsConflict } from './legal-form.js';
import type { Scored } from './types.js';

/** A fuzzy name match needs this score … */
export const NAME_THRESHOLD = 0.86;
/** … and must beat every other candidate by this much, or the tie-breaks must settle it. */
export const NAME_MARGIN = 0.04;
/**
 * Below the threshold, a name whose every word lines up with the candidate's, only with typos (two typos
 * in a short name cost more than 0.14), still matches from this score when no other candidate comes
 * within {@link WIDE_MARGIN}.
 */
export const TYPO_THRESHOLD = 0.75;
export const WIDE_MARGIN = 0.15;
/** Candidates below this score are not worth reporting as alternatives. */
const FLOOR = 0.5;

/** Per-batch view of the business indexes (looked up once per batch, not per row). */
export interface CompanyContext {
  readonly index: BusinessMatchIndex;
  /** Business ids by position, read from the table as answers need them. */
  readonly ids: StringColumn;
  /** The position of the business with id `id` (lower-case), -1 when none. */
  position(id: string): number;
  /** Whether verdicts must carry scored candidates and the full `on` list (explain / alternatives). */
  readonly detail: boolean;
  /** `MatchOptions.minConfidence`: when set, rows the default leaves open get a calibrated best guess. */
  readonly minConfidence?: number;
  tokens(): TokenIndex;
  /** Names by the initials of their words (built on first use). */
  initials(): KeyLookup;
  scored(pos: number): ScoredName;
  /** The canonical legal form business `pos` is written with ('' when none). */
  form(pos: number): string;
  /** The businesses' other names (`core/match/other-names.ts`), looked up on first use. */
  otherNames(): OtherNames;
}

/** The other-name entries, their token index and their scored names (positions are entries). */
export interface OtherNames {
  readonly index: OtherNameIndex;
  tokens(): TokenIndex;
  scored(entry: number): ScoredName;
}

// Scored names by position, filled on first use and kept for the data version.
const SCORED = kind(
  'match.businesses.scored',
  (e) => new Array<ScoredName | undefined>(businessMatchIndex(e).size),
  'entities',
);

const SCORED_OTHER = kind(
  'match.businesses.otherNames.scored',
  (e) => new Array<ScoredName | undefined>(otherNameIndex(e).size),
  'entities',
);

function otherNamesOf(engine: Context): OtherNames {
  const index = otherNameIndex(engine);
  const cache = engine.indexes.get(SCORED_OTHER);
  let tokens: TokenIndex | undefined;
  return {
    index,
    tokens: () => (tokens ??= otherNameTokens(engine)),
    // From the entries' token index once a search opened it, as for current names.
    scored: (entry) =>
      (cache[entry] ??= scoredName(
        tokens !== undefined ? documentWords(tokens, entry) : splitKey(index.nameKeys.at(entry) as string),
      )),
  };
}

export function companyContext(engine: Context, detail = true, minConfidence?: number): CompanyContext {
  const index = businessMatchIndex(engine);
  // Filled on first use, by position (a candidate is scored many times over a batch).
  const cache = engine.indexes.get(SCORED);
  let tokens: TokenIndex | undefined;
  let initials: KeyLookup | undefined;
  let others: OtherNames | undefined;
  return {
    index,
    ids: businessIds(engine.db, index),
    position: (id) => businessPosition(engine.db, index, id),
    // With a threshold every row is searched in full, so plain and explained runs see the same candidates.
    detail: detail || minConfidence !== undefined,
    minConfidence,
    tokens: () => (tokens ??= businessNameIndex(engine)),
    initials: () => (initials ??= businessInitialsIndex(engine)),
    scored(pos) {
      // From the token index once a fuzzy search has opened it: its per-name words are read anyway,
      // while the name keys are a column of their own (read by the page, rarely once these serve).
      return (cache[pos] ??= scoredName(
        tokens !== undefined ? documentWords(tokens, pos) : splitKey(index.nameKeys.at(pos) as string),
      ));
    },
    form(pos) {
      return index.forms.at(pos) as string;
    },
    otherNames: () => (others ??= otherNamesOf(engine)),
  };
}

export interface QueryName {
  /** The name as written, folded, nothing read off (`companyFullKey`). */
  full: string;
  key: string;
  scored: ScoredName;
  /** Legal-form classes the name is written with ("gmbh", "co+ltd"), '' when none. */
  form: string;
  /** The name ended in a lone letter (a legal form cut off). */
  truncated: boolean;
}

export function queryName(name: string): QueryName {
  const m = companyMatchName(name);
  return {
    full: companyFullKey(name),
    key: m.key,
    scored: scoredName(splitKey(m.key)),
    form: m.form,
    truncated: m.truncated,
  };
}

/** Whether business `pos` is written with a legal form other than the query's (a different entity). */
export function formConflict(ctx: CompanyContext, q: QueryName, pos: number): boolean {
  if (q.form.length === 0) return false;
  return (
    formsConflict(q.form, ctx.form(pos)) || formOutsideCountry(q.form, ctx.index.countries.at(pos) ?? null)
  );
}

export interface NameSearch {
  /** True when the hits are exact name-key hits (score 1). */
  exact: boolean;
  /** True when the hits hold the name exactly as written (`byFullName`): no reading of it can override. */
  full?: boolean;
  /** The query as scored (with its known-word flags on the fuzzy path). */
  scored?: ScoredName;
  /** Best first (score, then position); only scores ≥ the floor. */
  hits: Scored[];
}

function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || a.pos - b.pos;
}

/**
 * Businesses whose name matches `q`: the businesses written exactly so when there are any, else exact
 * key hits when there are any (all score 1), otherwise every blocked candidate that `accept` allows,
 * scored. The exact name comes first: a reading of it (legal forms off, places off) may meet another
 * business's reading, never outweigh the name itself.
 */
export function searchCompanyName(
  ctx: CompanyContext,
  q: QueryName,
  accept?: (pos: number) => boolean,
  forDecision = false,
): NameSearch {
  if (q.full.length > 0) {
    const same = ctx.index.byFullName.get(q.full);
    const full = accept === undefined ? same : same.filter(accept);
    if (full.length > 0)
      return { exact: true, full: true, hits: full.sort((a, b) => a - b).map((pos) => ({ pos, score: 1 })) };
  }
  if (q.key.length === 0) return { exact: false, hits: [] };
  const ok = (p: number) => !formConflict(ctx, q, p) && (accept === undefined || accept(p));
  const exact = ctx.index.byNameKey.get(q.key).filter(ok);
  if (exact.length > 0)
    return { exact: true, hits: exact.sort((a, b) => a - b).map((pos) => ({ pos, score: 1 })) };
  const tokens = ctx.tokens();
  const scored = withKnown(q.scored, tokens);
  // Only a decision to make: candidates below what a decision can use are not even sorted.
  const floor = forDecision ? TYPO_THRESHOLD - WIDE_MARGIN : FLOOR;
  if (forDecision && scored.known !== undefined && scored.known.every(Boolean)) {
    // Every query word is an indexed word, taken as written: only a name with the same words can line
    // up word for word ({@link decideFuzzy}), i.e. the same words in another order.
    // … or the same letters spaced otherwise ("Day Care" / "Daycare"), which the explained run finds too.
    const hits = sameWords(tokens, ctx.scored, scored, ok, floor);
    if (scored.joined.length >= 8 && mayBeRespaced(tokens, scored.tokens)) {
      for (const pos of sameJoined(tokens, scored.joined, scored.tokens.length)) {
        if (!ok(pos) || hits.some((h) => h.pos === pos)) continue;
        hits.push({ pos, score: alignedScore(scored, withIds(ctx.scored(pos), tokens)) });
      }
      hits.sort(byScore);
    }
    return { exact: false, hits, scored };
  }
  // A candidate that near-matches fewer query words than the query has (stop words aside) leaves one
  // without a counterpart (a word lines up only with a near word), so it can only be decided on as the
  // name written with other spacing ({@link decideFuzzy}); with at most three query words, every other
  // candidate scores at most 0.8, too low to win over or stand within the margin of such a match (at
  // least 0.875). Only those are scored.
  const respaced =
    forDecision && scored.tokens.length <= 3
      ? {
          // A word near no indexed word is left without a counterpart by every candidate.
          need: scored.tokens.some((t) => unalignable(tokens, t)) ? Infinity : distinctWords(scored.tokens),
          words: scored.tokens.length,
          joined: scored.joined.length,
          text: scored.joined,
        }
      : undefined;
  const found = candidates(tokens, scored.tokens, undefined, respaced);
  return { exact: false, hits: fuzzyHits(tokens, ctx.scored, scored, ok, floor, found), scored };
}

/**
 * Whether an indexed name can hold the query's words spaced otherwise: two or three adjacent query words
 * written together are an indexed word ("day care" → "daycare"), or a query word splits into two indexed
 * words ("daycare" → "day care"). A cheap test before looking names up by their joined form.
 */
function mayBeRespaced(tokens: TokenIndex, words: readonly string[]): boolean {
  for (let i = 0; i + 1 < words.length; i++) {
    const two = (words[i] as string) + (words[i + 1] as string);
    if (tokens.vocabId.has(two)) return true;
    if (i + 2 < words.length && tokens.vocabId.has(two + (words[i + 2] as string))) return true;
  }
  for (const w of words) {
    for (let k = 2; k <= w.length - 2; k++)
      if (tokens.vocabId.has(w.slice(0, k)) && tokens.vocabId.has(w.slice(k))) return true;
  }
  return false;
}

/** Whether a query word is near no indexed word (a stop word may stay unmatched, so it never is). */
function unalignable(tokens: TokenIndex, t: string): boolean {
  return !STOP_WORDS.has(t) && nearVocabulary(tokens, t).length === 0;
}

/** Distinct query words a decision needs lined up (stop words such as "the" may stay unmatched). */
function distinctWords(tokens: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (!STOP_WORDS.has(t) && tokens.indexOf(t) === i) n++;
  }
  return n;
}

/**
 * The names made of exactly the distinct words of `q` (all of them indexed words; stop words such as
 * "the" aside), scored like {@link fuzzyHits}: the names holding the rarest pair of the words (or the one
 * word), each name's words checked against the others.
 */
function sameWords(
  tokens: TokenIndex,
  scoredOf: (pos: number) => ScoredName,
  q: ScoredName,
  accept: (pos: number) => boolean,
  floor: number,
): Scored[] {
  const stop = new Set<number>();
  for (const w of STOP_WORDS) {
    const v = tokens.vocabId.get(w);
    if (v !== undefined) stop.add(v);
  }
  const ids = [...new Set(q.tokens.map((t) => tokens.vocabId.get(t) as number))].filter((v) => !stop.has(v));
  if (ids.length === 0) return fuzzyHits(tokens, scoredOf, q, accept, floor);
  // Names holding the rarest pair of the words (the shortest pair postings), or the one word's postings.
  let docs: Int32Array | undefined;
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const list = pairPostings(tokens.pairs, ids[i] as number, ids[j] as number);
      if (list.length === 0) return []; // no name has both words
      if (docs === undefined || list.length < docs.length) docs = list;
    }
  }
  const one = ids[0] as number;
  docs ??= postings(tokens, one);
  const hits: Scored[] = [];
  for (const doc of docs) {
    const start = tokens.docStart[doc] as number;
    const end = tokens.docStart[doc + 1] as number;
    let words = 0;
    for (let j = start; j < end; j++) if (!stop.has(tokens.docTok[j] as number)) words++;
    if (words !== ids.length) continue;
    let all = true;
    for (const v of ids) {
      let has = false;
      for (let j = start; j < end; j++) if (tokens.docTok[j] === v) has = true;
      if (!has) {
        all = false;
        break;
      }
    }
    if (!all || !accept(doc)) continue;
    const score = alignedScore(q, withIds(scoredOf(doc), tokens));
    if (score >= floor) hits.push({ pos: doc, score });
  }
  hits.sort(byScore);
  return hits;
}

/**
 * The query name with its {@link ScoredName.known} flags: which of its words some indexed name has
 * (those are taken as written, never as a typo of another word).
 */
export function withKnown(q: ScoredName, tokens: TokenIndex): ScoredName {
  let any = false;
  const known = q.tokens.map((t) => {
    const k = tokens.vocabId.has(t);
    any ||= k;
    return k;
  });
  const memo = simMemo(q.tokens.length, tokens.vocab.length) ?? undefined;
  return { ...q, known: any ? known : undefined, memo };
}

/** The vocabulary ids of an indexed name's tokens (every token of an indexed name is in the vocabulary). */
function withIds(c: ScoredName, tokens: TokenIndex): ScoredName {
  if (c.ids === undefined) {
    const ids = new Int32Array(c.tokens.length);
    for (let j = 0; j < ids.length; j++) {
      const id = tokens.vocabId.get(c.tokens[j] as string);
      if (id === undefined) return c;
      ids[j] = id;
    }
    c.ids = ids;
  }
  return c;
}

/**
 * The decision on fuzzy name hits (`hits` scored against `scored`, best first): the best must line up
 * word for word with the query (a word only one of them has makes them two names, unless the names
 * differ only in spacing), candidates with words in another order must have the same words; then the
 * best must either reach the threshold with the usual margin and tie-breaks, or reach
 * {@link TYPO_THRESHOLD} with no other name within {@link WIDE_MARGIN} (namesakes of the best are told
 * apart by the tie-breaks).
 */
export function decideFuzzy(
  ctx: CompanyContext,
  hits: readonly Scored[],
  q: QueryName,
  scored: ScoredName,
  options: { country?: string | null },
): Scored | null {
  // (Below the typo threshold, a candidate may still reach it with its leftover words paired.)
  if (hits[0] === undefined || hits[0].score < TYPO_THRESHOLD - WIDE_MARGIN) return null;
  // Words in another order must be the same words (typos and reordering together are too much): such
  // candidates are out. Only candidates that could win or stand within a margin of the winner matter.
  // When every query word is an indexed word, taken as written, a name spaced otherwise is another
  // name ("Barcelona 9 Tecnologías" is not "Barcelona Tecnologías"): only names with the same words count.
  const allKnown = scored.known !== undefined && scored.known.every(Boolean);
  const kept: Scored[] = [];
  // Candidates that line up word for word once the words left alone are paired as typos.
  const paired = new Set<number>();
  for (const h of hits) {
    if (h.score < TYPO_THRESHOLD - WIDE_MARGIN) break;
    if (h.score < 1) {
      const c = ctx.scored(h.pos);
      alignedScore(scored, c);
      if (!lastAlignedInOrder() || (allKnown && lastAlignment.joined)) continue;
      // (Not for queries of indexed words only, whose plain search looks at names of the same words;
      // nor of three words or fewer, whose plain search leaves out names without their every word.)
      if (lastAlignment.unmatched > 0 && !lastAlignment.joined && !allKnown && scored.tokens.length > 3) {
        const score = pairLeftovers(scored, c);
        if (score > h.score && !pairsRarest(ctx.tokens(), c)) {
          paired.add(h.pos);
          kept.push({ pos: h.pos, score });
          continue;
        }
      }
    }
    kept.push(h);
  }
  if (paired.size > 0) kept.sort(byScore);
  const best = kept[0];
  if (best === undefined || best.score < TYPO_THRESHOLD) return null;
  alignedScore(scored, ctx.scored(best.pos));
  if (lastAlignment.unmatched > 0 && !lastAlignment.joined && !paired.has(best.pos)) return null;
  if (best.score >= NAME_THRESHOLD) {
    return decide(ctx, kept, q, {
      threshold: NAME_THRESHOLD,
      margin: NAME_MARGIN,
      country: options.country,
      scored,
    });
  }
  // A rival with a word the query lacks is a rival only when the words it does line up agree better
  // than the best's ("Lewis Foods Ventures" for "Lewis Fooads" beside "Lewis Goods"); with the same
  // words and a word more ("Hughes, Morris & Smith" beside "Morris & Smith" for "Moris & Smity"), the
  // best reads the query whole.
  alignedScore(scored, ctx.scored(best.pos));
  const agreement = lastAlignment.matched / lastAlignment.aligned;
  const close = kept.filter((h) => {
    if (h.score < best.score - WIDE_MARGIN) return false;
    if (h.pos === best.pos || paired.has(h.pos)) return true;
    alignedScore(scored, ctx.scored(h.pos));
    if (lastAlignment.unmatched === 0 || lastAlignment.joined) return true;
    return lastAlignment.matched / lastAlignment.aligned > agreement;
  });
  if (close.length === 1) return best;
  // Namesakes of the best (the same name, so the same score) are told apart as for an exact name.
  const key = ctx.index.nameKeys.at(best.pos);
  if (!close.every((h) => ctx.index.nameKeys.at(h.pos) === key)) return null;
  return decide(ctx, close, q, { threshold: 0, margin: 0, country: options.country, scored });
}

/**
 * Whether {@link pairLeftovers} paired the candidate's rarest word (the fewest names hold it): a name
 * is told from its neighbours by its rarest word ("ABC Media" from "ABD Media"), which must line up as
 * a word or a typo the index can find, not as a leftover one edit away.
 */
function pairsRarest(tokens: TokenIndex, c: ScoredName): boolean {
  let rarest = -1;
  let least = Infinity;
  for (let j = 0; j < c.tokens.length; j++) {
    const n = docFrequency(tokens, tokens.vocabId.get(c.tokens[j] as string));
    if (n < least) {
      least = n;
      rarest = j;
    }
  }
  return rarest >= 0 && leftoverPaired[rarest] === 1;
}

/**
 * Every blocked candidate of `q` that `accept` allows, scored with {@link companyScore}, best first
 * (score, then position); only scores ≥ `floor` (by default the floor of reported alternatives). With a complete candidate set this is exactly what a
 * scan of every name with the same scorer returns (the property tests hold it to that).
 */
export function fuzzyHits(
  tokens: TokenIndex,
  scoredOf: (pos: number) => ScoredName,
  q: ScoredName,
  accept?: (pos: number) => boolean,
  floor = FLOOR,
  found = candidates(tokens, q.tokens),
): Scored[] {
  const hits: Scored[] = [];
  for (const pos of found.positions) {
    if (accept !== undefined && !accept(pos)) continue;
    const score = alignedScore(q, withIds(scoredOf(pos), tokens));
    if (score >= floor) hits.push({ pos, score });
  }
  hits.sort(byScore);
  return hits;
}

/** The same answer by brute force: every name scored (the oracle of the property tests). */
export function scanHits(count: number, scoredOf: (pos: number) => ScoredName, q: ScoredName): Scored[] {
  const hits: Scored[] = [];
  for (let pos = 0; pos < count; pos++) {
    const score = companyScore(q, scoredOf(pos));
    if (score >= FLOOR) hits.push({ pos, score });
  }
  hits.sort(byScore);
  return hits;
}

/** Scores `positions` (e.g. the businesses sharing a domain) against a query name, best first. */
export function scorePositions(ctx: CompanyContext, q: QueryName, positions: readonly number[]): Scored[] {
  return positions.map((pos) => ({ pos, score: companyScore(q.scored, ctx.scored(pos)) })).sort(byScore);
}

/**
 * The one candidate the evidence supports, or null: the best must reach `threshold`, and every
 * candidate within `margin` of it must be eliminated by the tie-breaks (same legal form as written,
 * country of the domain's TLD, words in the order written); a wrong id is worse than no id.
 */
export function decide(
  ctx: CompanyContext,
  hits: readonly Scored[],
  q: QueryName | null,
  options: { threshold: number; margin: number; country?: string | null; scored?: ScoredName },
): Scored | null {
  const best = hits[0];
  if (best === undefined || best.score < options.threshold) return null;
  const tied = hits.filter((h) => h.score >= best.score - options.margin);
  if (tied.length === 1) return best;
  let pool = tied;
  if (q !== null && q.form.length > 0) {
    const same = pool.filter((h) => ctx.form(h.pos) === q.form);
    if (same.length > 0) pool = same;
  }
  if (pool.length > 1 && options.country) {
    const same = pool.filter((h) => ctx.index.countries.at(h.pos) === options.country);
    if (same.length > 0) pool = same;
  }
  if (pool.length > 1 && q !== null) {
    // Words in the order written beat the same words in another order ("Parker & Millre": Parker &
    // Miller, not Miller & Parker).
    const scored = options.scored ?? q.scored;
    const same = pool.filter((h) => {
      alignedScore(scored, ctx.scored(h.pos));
      return lastAlignedInOrder();
    });
    if (same.length > 0) pool = same;
  }
  if (pool.length !== 1) return null;
  const only = pool[0] as Scored;
  // A tie-break may only pick among the tied; it never lifts a clearly worse candidate over the best.
  return only.score >= best.score - options.margin ? only : null;
}
