/**
 * Token blocking for fuzzy name matching: an inverted index from name tokens to dense positions, plus
 * deletion neighbourhoods (SymSpell style) over the vocabulary so a query token finds every vocabulary
 * token within its typo budget (`nearTokens`: one edit in 4 characters, two from 5) without scanning
 * the vocabulary. Candidate generation is exact:
 * every position sharing a near token with the query comes back, unless the query's tokens are so
 * common that their postings exceed the budget (then only positions hit by two query tokens do).
 *
 * Over 400 lines on purpose: the index layout (typed arrays), its build and its query share offsets and
 * scratch arrays; the saved form reads the same layout.
 */
import { nearTokens } from '../../normalise/similarity.js';
import { Ints, type IntColumn } from '../format/ints.js';
import { Ids, NearTable } from '../format/tables.js';
import type { StringColumn } from '../format/strings.js';
import { splitForm } from '../parted-form.js';
import type { SavedForm } from '../persist.js';
import { buildPairIndex, pairPostings, type PairIndex } from './pair-index.js';
import { buildSpacingIndex, joinedEnds, spacingCandidates, type SpacingIndex } from './spacing-index.js';

/** Key → one id or several (a `Map` or a {@link NearTable}). */
interface NearMap {
  get(key: string): number | readonly number[] | undefined;
}

export interface TokenIndex {
  /** Number of indexed documents (names). */
  readonly size: number;
  /** Vocabulary id → token; `vocabId` is the same table read the other way. */
  readonly vocab: StringColumn;
  readonly vocabId: Pick<ReadonlyMap<string, number>, 'get' | 'has'>;
  /** Vocabulary ids in the order of their tokens (prefix lookups). */
  readonly sortedVocab: Int32Array;
  /**
   * Postings of vocabulary id `v`: `post.range(postStart[v], postStart[v + 1])`, ascending positions
   * (in pages once saved: a first query reads the pages of its words' postings).
   */
  readonly postStart: Int32Array;
  readonly post: IntColumn;
  /**
   * Tokens of document `i`: vocabulary ids `docTok[docStart[i] .. docStart[i + 1])`; two bytes each
   * when the vocabulary has at most 65,536 words (a first fuzzy query reads them whole).
   */
  readonly docStart: Int32Array;
  readonly docTok: Int32Array | Uint16Array;
  /**
   * Words of document `i` counting repeats (up to 255). Their length written without spaces, which the
   * spacing index is keyed by, is not kept: a query asks it of a few candidates ({@link joinedLength}),
   * and a column of it was 2 MB for a first fuzzy match to read at 1M names.
   */
  readonly docWords: Uint8Array;
  /**
   * The words of the documents that `docTok` does not hold whole (a word repeated, or 255 words or
   * more), in their order, repeats kept: document `docs[k]` (ascending) has vocabulary ids
   * `tok[start[k] .. start[k + 1])`. With `docTok`, every document's words ({@link documentWords}).
   */
  readonly repeats: { docs: Int32Array; start: Int32Array; tok: Int32Array };
  /** Hashes of the first and last three letters of each document's joined form ({@link SpacingIndex}). */
  readonly docHead: Int32Array;
  readonly docTail: Int32Array;
  /** Documents by pairs of their tokens (candidates sharing two query words without long postings). */
  readonly pairs: PairIndex;
  /** One-deletion variant → vocabulary ids (tokens of 4+ characters). */
  readonly deletes: NearMap;
  /** Two-deletion variant → vocabulary ids (tokens of 5+ characters, which allow two typos). */
  readonly deletes2: NearMap;
  /** Documents by the ends of their joined form (names written with other spacing). */
  readonly spacing: SpacingIndex;
  /** Query word → its near vocabulary ids, for words seen before ({@link nearVocabulary}). */
  readonly nearMemo: Map<string, readonly number[]>;
  /**
   * Vocabulary id → token, decoded on first use ({@link documentWords}): the names of a query's
   * candidates share their words, so each is one string, not one per name.
   */
  readonly words: (string | undefined)[];
  /** Scratch space for candidate generation (one query at a time; JS is single-threaded). */
  readonly scratch: {
    /** Vocabulary id → bit mask of the query tokens it is near (cleared after each query). */
    mask: Int32Array;
    stamp: Int32Array;
    tokenStamp: Int32Array;
    count: Uint8Array;
    epoch: number;
    tokenEpoch: number;
  };
}

/** Each distinct string obtained by deleting one character (only for tokens of 4+ characters). */
export function deletionVariants(token: string): string[] {
  if (token.length < 4) return [];
  const out: string[] = [];
  for (let i = 0; i < token.length; i++) {
    if (i > 0 && token.charCodeAt(i) === token.charCodeAt(i - 1)) continue; // same variant as i - 1
    out.push(token.slice(0, i) + token.slice(i + 1));
  }
  return out;
}

/** Each distinct string obtained by deleting two characters (only for tokens of 5+ characters). */
export function deletionVariants2(token: string): string[] {
  if (token.length < 5) return [];
  const out = new Set<string>();
  for (let i = 0; i < token.length; i++) {
    const once = token.slice(0, i) + token.slice(i + 1);
    for (let j = i; j < once.length; j++) out.add(once.slice(0, j) + once.slice(j + 1));
  }
  return [...out];
}

/**
 * Builds the index over `count` documents whose tokens `tokensOf(i)` returns.
 * @example const index = buildTokenIndex(2, (i) => [['acme', 'robotics'], ['zenith']][i]!);
 */
export function buildTokenIndex(count: number, tokensOf: (i: number) => readonly string[]): TokenIndex {
  const vocabId = new Map<string, number>();
  const vocab: string[] = [];
  const df: number[] = [];
  const docStart = new Int32Array(count + 1);
  const docWords = new Uint8Array(count);
  const docJoined = new Uint16Array(count);
  const docHead = new Int32Array(count);
  const docTail = new Int32Array(count);
  const docTokList: number[] = [];
  const repeatDocs: number[] = [];
  const repeatStart: number[] = [0];
  const repeatTok: number[] = [];
  for (let i = 0; i < count; i++) {
    docStart[i] = docTokList.length;
    const tokens = tokensOf(i);
    docWords[i] = Math.min(tokens.length, 255);
    let joined = 0;
    for (const t of tokens) joined += t.length;
    docJoined[i] = Math.min(joined, 0xffff);
    joinedEnds(tokens, i, docHead, docTail);
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k] as string;
      let id = vocabId.get(t);
      if (id === undefined) {
        id = vocab.length;
        vocabId.set(t, id);
        vocab.push(t);
        df.push(0);
      }
      // A token repeated inside one name counts once.
      let dup = false;
      for (let j = docStart[i] as number; j < docTokList.length; j++) if (docTokList[j] === id) dup = true;
      if (dup) continue;
      docTokList.push(id);
      df[id] = (df[id] as number) + 1;
    }
    if (docTokList.length - (docStart[i] as number) !== tokens.length || tokens.length >= 255) {
      repeatDocs.push(i);
      for (const t of tokens) repeatTok.push(vocabId.get(t) as number);
      repeatStart.push(repeatTok.length);
    }
  }
  docStart[count] = docTokList.length;
  const docTok = Int32Array.from(docTokList);

  const postStart = new Int32Array(vocab.length + 1);
  for (let v = 0; v < vocab.length; v++) postStart[v + 1] = (postStart[v] as number) + (df[v] as number);
  const fill = postStart.slice(0, vocab.length);
  const post = new Int32Array(docTok.length);
  for (let i = 0; i < count; i++) {
    for (let j = docStart[i] as number; j < (docStart[i + 1] as number); j++) {
      const v = docTok[j] as number;
      post[fill[v] as number] = i;
      fill[v] = (fill[v] as number) + 1;
    }
  }

  const deletes = NearTable.builder();
  const deletes2 = NearTable.builder();
  for (let v = 0; v < vocab.length; v++) {
    for (const d of deletionVariants(vocab[v] as string)) deletes.add(d, v);
    for (const d of deletionVariants2(vocab[v] as string)) deletes2.add(d, v);
  }
  const sortedVocab = Int32Array.from(vocab.keys()).sort((a, b) =>
    (vocab[a] as string) < (vocab[b] as string) ? -1 : 1,
  );
  const ids = Ids.of(vocab);

  return withScratch({
    size: count,
    vocab: ids,
    sortedVocab,
    postStart,
    post: new Ints(post),
    docStart,
    docTok: vocab.length <= 0x10000 ? Uint16Array.from(docTok) : docTok,
    docWords,
    docHead,
    docTail,
    pairs: buildPairIndex(vocab.length, count, docStart, docTok),
    deletes: deletes.finish(),
    deletes2: deletes2.finish(),
    spacing: buildSpacingIndex(docJoined, docHead, docTail),
    repeats: {
      docs: Int32Array.from(repeatDocs),
      start: Int32Array.from(repeatStart),
      tok: Int32Array.from(repeatTok),
    },
  });
}

type Saved = Omit<TokenIndex, 'vocabId' | 'nearMemo' | 'words' | 'scratch'>;

/**
 * The saved tree: the pair and spacing indexes' arrays are top-level fields, so their long columns go
 * in pages.
 */
type SavedTree = Omit<Saved, 'pairs' | 'spacing' | 'docStart'> & {
  pairStart: Int32Array;
  pairSecond: IntColumn;
  pairPostStart: IntColumn;
  pairPost: IntColumn;
  spacingHeadKeys: Float64Array;
  spacingHeadStart: Int32Array;
  spacingHeadDocs: IntColumn;
  spacingTailKeys: Float64Array;
  spacingTailStart: Int32Array;
  spacingTailDocs: IntColumn;
};

/**
 * A token index from its saved part, with an empty memo and fresh scratch space. The saved part is
 * extended in place, not spread: its fields stored apart are read when first used, not here.
 */
function withScratch(index: Saved): TokenIndex {
  return Object.defineProperties(index, {
    vocabId: { value: index.vocab as Ids, enumerable: true },
    nearMemo: { value: new Map(), enumerable: true },
    words: { value: new Array<string | undefined>(index.vocab.length), enumerable: true },
    scratch: {
      enumerable: true,
      value: {
        mask: new Int32Array(index.vocab.length),
        stamp: new Int32Array(index.size),
        tokenStamp: new Int32Array(index.size),
        count: new Uint8Array(index.size),
        epoch: 0,
        tokenEpoch: 0,
      },
    },
  }) as TokenIndex;
}

const isInts = (v: unknown) => v instanceof Int32Array;

/**
 * Entries per page of the postings and of the pair columns, as a power of two: 4,096 (16 KB). A first
 * 50-row match looks up a few hundred words and pairs, each list in a page or two: small pages keep
 * the bytes read near the bytes used (at 1M names the postings are 11 MB, the pairs 15 MB).
 */
const TOKEN_PAGE_BITS = 12;

/**
 * Where each document's distinct words start in `docTok`: the running sum of their counts, which are the
 * word counts `docWords` except for the documents of `repeats` (their distinct words counted there).
 */
function docStartOf(size: number, docWords: Uint8Array, repeats: TokenIndex['repeats']): Int32Array {
  const out = new Int32Array(size + 1);
  const { docs, start, tok } = repeats;
  let k = 0;
  let next = docs.length > 0 ? (docs[0] as number) : -1;
  let at = 0;
  for (let i = 0; i < size; i++) {
    let n = docWords[i] as number;
    if (i === next) {
      n = distinctCount(tok, start[k] as number, start[k + 1] as number);
      k++;
      next = k < docs.length ? (docs[k] as number) : -1;
    }
    at += n;
    out[i + 1] = at;
  }
  return out;
}

/** How many distinct values `list[from .. to)` holds (a name's words: a handful, so no set below 64). */
function distinctCount(list: Int32Array, from: number, to: number): number {
  if (to - from > 64) return new Set(list.subarray(from, to)).size;
  let n = 0;
  for (let j = from; j < to; j++) {
    let seen = false;
    for (let m = from; m < j && !seen; m++) seen = list[m] === list[j];
    if (!seen) n++;
  }
  return n;
}

/**
 * The saved form of a token index whose paged columns hold 2^`pageBits` entries a page (the default
 * form, {@link TOKEN_INDEX_FORM}, 2^{@link TOKEN_PAGE_BITS}; tests cut smaller pages).
 */
export function tokenIndexForm(pageBits: number): SavedForm<TokenIndex> {
  return splitForm(
    {
      save: ({
        vocabId: _v,
        nearMemo: _m,
        words: _w,
        scratch: _s,
        pairs,
        spacing,
        docStart: _d,
        ...saved
      }): SavedTree => ({
        ...saved,
        pairStart: pairs.start,
        pairSecond: pairs.second,
        pairPostStart: pairs.postStart,
        pairPost: pairs.post,
        spacingHeadKeys: spacing.headKeys,
        spacingHeadStart: spacing.headStart,
        spacingHeadDocs: spacing.headDocs,
        spacingTailKeys: spacing.tailKeys,
        spacingTailStart: spacing.tailStart,
        spacingTailDocs: spacing.tailDocs,
      }),
      open: (tree) => {
        const t = tree as SavedTree;
        if (
          typeof t.size !== 'number' ||
          !(t.vocab instanceof Ids) ||
          !(t.deletes instanceof NearTable) ||
          !(t.postStart instanceof Int32Array) ||
          t.postStart.length !== t.vocab.length + 1 ||
          t.sortedVocab.length !== t.vocab.length
        )
          throw new Error('token index: saved form of another shape');
        // The starts and keys are read on first use (getters), the paged columns as they are asked for.
        const pairs: PairIndex = {
          get start() {
            return t.pairStart;
          },
          second: t.pairSecond,
          postStart: t.pairPostStart,
          post: t.pairPost,
        };
        const spacing: SpacingIndex = {
          get headKeys() {
            return t.spacingHeadKeys;
          },
          get headStart() {
            return t.spacingHeadStart;
          },
          headDocs: t.spacingHeadDocs,
          get tailKeys() {
            return t.spacingTailKeys;
          },
          get tailStart() {
            return t.spacingTailStart;
          },
          tailDocs: t.spacingTailDocs,
        };
        // Not saved: derived from the word counts on first use (4 MB less to read at 1M names).
        Object.defineProperty(t, 'docStart', {
          enumerable: true,
          configurable: true,
          get() {
            const value = docStartOf(t.size, t.docWords, t.repeats);
            Object.defineProperty(t, 'docStart', { value, enumerable: true });
            return value;
          },
        });
        Object.defineProperty(t, 'pairs', { value: pairs, enumerable: true });
        Object.defineProperty(t, 'spacing', { value: spacing, enumerable: true });
        return withScratch(t as unknown as Saved);
      },
      lazy: {
        pairStart: isInts,
        docTok: (v) => v instanceof Int32Array || v instanceof Uint16Array,
        docWords: (v) => v instanceof Uint8Array,
        repeats: (v) => {
          const r = v as TokenIndex['repeats'];
          return (
            r.docs instanceof Int32Array &&
            r.start instanceof Int32Array &&
            r.tok instanceof Int32Array &&
            r.start.length === r.docs.length + 1
          );
        },
        docHead: isInts,
        docTail: isInts,
        deletes2: (v) => v instanceof NearTable,
        spacingHeadKeys: (v) => v instanceof Float64Array,
        spacingHeadStart: isInts,
        spacingTailKeys: (v) => v instanceof Float64Array,
        spacingTailStart: isInts,
      },
    },
    {
      ints: ['post', 'pairSecond', 'pairPostStart', 'pairPost', 'spacingHeadDocs', 'spacingTailDocs'],
      intBits: pageBits,
    },
  );
}

/**
 * The saved form of a token index: everything but the query-time memo, the scratch space and `vocabId`
 * (the vocabulary table read the other way). The postings, the pair index's per-pair columns and the
 * spacing index's documents are saved in pages read by range (`parted-form.ts`); the per-document
 * arrays, the pair starts, the spacing keys and the two-deletion table are stored apart and read on
 * first use: a name query found by exact tokens never reads the typo or spacing tables.
 */
export const TOKEN_INDEX_FORM: SavedForm<TokenIndex> = tokenIndexForm(TOKEN_PAGE_BITS);

/** The documents holding vocabulary word `v`, ascending (a view; in pages once saved, read on first use). */
export function postings(index: TokenIndex, v: number): Int32Array {
  return index.post.range(index.postStart[v] as number, index.postStart[v + 1] as number);
}

/**
 * How many documents hold vocabulary word `v` (its document frequency): the length of its postings;
 * 0 for a word no document has (`v` undefined, as `vocabId.get` gives, or -1).
 */
export function docFrequency(index: TokenIndex, v: number | undefined): number {
  return v === undefined || v < 0 ? 0 : (index.postStart[v + 1] as number) - (index.postStart[v] as number);
}

/**
 * Vocabulary ids of every token near `token` (`nearTokens`: equal, one OSA edit apart from 4 characters,
 * two from 5). Two strings within k edits share a string reachable by at most k deletions from each, so
 * the query's deletions are looked up among the vocabulary's (and the vocabulary itself); every hit is
 * then checked with `nearTokens`.
 */
export function nearVocabulary(index: TokenIndex, token: string): readonly number[] {
  // Query words repeat across rows ("ventures", "digital"): remember the answer per word.
  const memo = index.nearMemo;
  const known = memo.get(token);
  if (known !== undefined) return known;
  const out = findNear(index, token);
  if (memo.size >= NEAR_MEMO_SIZE) memo.clear();
  memo.set(token, out);
  return out;
}

/** How many query words {@link nearVocabulary} remembers (then it starts over). */
const NEAR_MEMO_SIZE = 100_000;

function findNear(index: TokenIndex, token: string): number[] {
  const out: number[] = [];
  const exact = index.vocabId.get(token);
  if (exact !== undefined) out.push(exact);
  if (token.length < 4) return out;
  const consider = (v: number) => {
    if (out.includes(v)) return;
    if (nearTokens(token, index.vocab.at(v) as string)) out.push(v);
  };
  const probe = (map: NearMap, key: string) => {
    const hit = map.get(key);
    if (hit === undefined) return;
    if (typeof hit === 'number') consider(hit);
    else for (const v of hit) consider(v);
  };
  const vocabulary = (key: string) => {
    const v = index.vocabId.get(key);
    if (v !== undefined) consider(v);
  };
  const two = token.length >= 5;
  probe(index.deletes, token);
  if (two) probe(index.deletes2, token);
  for (const d of deletionVariants(token)) {
    vocabulary(d);
    probe(index.deletes, d);
    if (two) probe(index.deletes2, d);
  }
  if (two) {
    for (const d of deletionVariants2(token)) {
      if (d.length >= 5) vocabulary(d);
      probe(index.deletes, d);
      probe(index.deletes2, d);
    }
  }
  return out;
}

/** The tokens of document `i`. */
export function documentTokens(index: TokenIndex, i: number): string[] {
  const out: string[] = [];
  for (let j = index.docStart[i] as number; j < (index.docStart[i + 1] as number); j++) {
    out.push(index.vocab.at(index.docTok[j] as number) as string);
  }
  return out;
}

/**
 * The words of document `i` as it was indexed, in their order, repeats kept: from `docTok` when it holds
 * them all (no word repeats), else from {@link TokenIndex.repeats}. A matcher reads a candidate's words
 * here rather than from a column of names, which a first query would otherwise read whole for its few
 * thousand candidates.
 */
export function documentWords(index: TokenIndex, i: number): string[] {
  const ids = wordIds(index, i);
  const out = new Array<string>(ids.length);
  for (let j = 0; j < ids.length; j++) out[j] = word(index, ids[j] as number);
  return out;
}

/** The vocabulary ids of document `i`'s words, in their order, repeats kept (a view). */
function wordIds(index: TokenIndex, i: number): Int32Array | Uint16Array {
  const count = index.docWords[i] as number;
  const start = index.docStart[i] as number;
  const end = index.docStart[i + 1] as number;
  if (count === end - start && count < 255) return index.docTok.subarray(start, end);
  const r = index.repeats;
  let lo = 0;
  let hi = r.docs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((r.docs[mid] as number) < i) lo = mid + 1;
    else hi = mid;
  }
  return r.tok.subarray(r.start[lo] as number, r.start[lo + 1] as number);
}

/** Vocabulary word `v`, decoded once per index ({@link TokenIndex.words}). */
function word(index: TokenIndex, v: number): string {
  return (index.words[v] ??= index.vocab.at(v) as string);
}

/** Above this many postings, only the documents sharing the most query tokens are scored. */
const PRUNE_ABOVE = 256;

export interface Candidates {
  positions: number[];
  /** False when pruning applied (the answer may then differ from a full scan). */
  complete: boolean;
  /**
   * The most query tokens any returned document near-matches (0 when none is returned); with only names
   * spaced otherwise wanted from the start, the number of query tokens with near words (a bound).
   */
  shared: number;
}

/**
 * Positions of every document sharing a near token with `queryTokens`. When their postings add up to
 * more than {@link PRUNE_ABOVE}, only the documents near-matching the most query tokens are kept; when
 * they add up to more than `budget`, only documents hit by at least two distinct query tokens are kept.
 */
export function candidates(
  index: TokenIndex,
  queryTokens: readonly string[],
  budget = 50_000,
  respaced?: Respaced,
): Candidates {
  const found = blocked(index, queryTokens, budget, respaced);
  if (respaced === undefined || found.shared >= respaced.need) return found;
  const positions = found.positions.filter((doc) => spacedOtherwise(index, doc, respaced));
  return { ...found, positions };
}

/**
 * Documents near-matching fewer than `need` query tokens are wanted only when they could be the query
 * written with other spacing: another word count than `words`, a joined length within one of `joined`.
 */
export interface Respaced {
  need: number;
  words: number;
  joined: number;
  /** The query written without spaces. */
  text: string;
}

function spacedOtherwise(index: TokenIndex, doc: number, r: Respaced): boolean {
  return index.docWords[doc] !== r.words && Math.abs(joinedLength(index, doc) - r.joined) <= 1;
}

/** The length of document `doc`'s words written without spaces, repeats counted (as the build keyed it). */
function joinedLength(index: TokenIndex, doc: number): number {
  const ids = wordIds(index, doc);
  let n = 0;
  for (let j = 0; j < ids.length; j++) n += word(index, ids[j] as number).length;
  return Math.min(n, 0xffff);
}

/**
 * Each document that can be the query written with other spacing and near-matches a query token (`hits`:
 * their near vocabulary ids), once, passed to `visit`: looked up by the ends of its joined form, not by
 * reading the postings of the query's words.
 */
function spacedVariants(
  index: TokenIndex,
  hits: readonly (readonly number[])[],
  r: Respaced,
  visit: (doc: number) => void,
): void {
  const spacing = index.spacing;
  const s = index.scratch;
  for (const near of hits) for (const v of near) s.mask[v] = 1;
  const epoch = ++s.epoch;
  spacingCandidates(spacing, r.text, (doc) => {
    if (s.stamp[doc] === epoch || !spacedOtherwise(index, doc, r)) return;
    s.stamp[doc] = epoch;
    for (let j = index.docStart[doc] as number; j < (index.docStart[doc + 1] as number); j++) {
      if (s.mask[index.docTok[j] as number] !== 0) {
        visit(doc);
        return;
      }
    }
  });
  for (const near of hits) for (const v of near) s.mask[v] = 0;
}

/**
 * The documents whose words, written without spaces, are exactly `text` but whose word count is not
 * `words` ("Day Care" / "Daycare"), ascending.
 */
export function sameJoined(index: TokenIndex, text: string, words: number): number[] {
  const out = new Set<number>();
  spacingCandidates(index.spacing, text, (doc) => {
    if (index.docWords[doc] === words || out.has(doc) || joinedLength(index, doc) !== text.length) return;
    // Its words as indexed, repeats kept: `docTok` holds a repeated word once ("Walla Walla").
    if (documentWords(index, doc).join('') === text) out.add(doc);
  });
  return [...out].sort((a, b) => a - b);
}

function blocked(
  index: TokenIndex,
  queryTokens: readonly string[],
  budget: number,
  respaced: Respaced | undefined,
): Candidates {
  const hits: (readonly number[])[] = [];
  let total = 0;
  for (const t of new Set(queryTokens)) {
    const near = nearVocabulary(index, t);
    if (near.length === 0) continue;
    hits.push(near);
    total += postingCount(index, near);
  }
  const complete = total <= budget || hits.length < 2;
  const s = index.scratch;
  if (s.tokenEpoch > 0x3fffffff || s.epoch > 0x3fffffff) {
    s.stamp.fill(0);
    s.tokenStamp.fill(0);
    s.epoch = 0;
    s.tokenEpoch = 0;
  }
  if (respaced !== undefined && complete && hits.length < respaced.need) {
    // No name can near-match `need` query words: only names spaced otherwise are wanted, whatever they
    // share.
    const positions: number[] = [];
    spacedVariants(index, hits, respaced, (doc) => positions.push(doc));
    return { positions, complete, shared: hits.length };
  }
  if (total > PRUNE_ABOVE && index.size > PRUNE_ABOVE && hits.length >= 2 && hits.length <= 30) {
    return mostShared(index, hits, complete, respaced);
  }
  const epoch = ++s.epoch;
  const touched: number[] = [];
  for (let q = 0; q < hits.length; q++) {
    const tokenEpoch = ++s.tokenEpoch;
    for (const v of hits[q] as readonly number[]) {
      const list = postings(index, v);
      for (let p = 0; p < list.length; p++) {
        const doc = list[p] as number;
        if (s.stamp[doc] !== epoch) {
          s.stamp[doc] = epoch;
          s.count[doc] = 0;
          touched.push(doc);
        }
        if (s.tokenStamp[doc] !== tokenEpoch) {
          s.tokenStamp[doc] = tokenEpoch;
          s.count[doc] = (s.count[doc] as number) + 1;
        }
      }
    }
  }
  // Many candidates: keep those near-matching as many query tokens as the best of them (and at least
  // two when the budget ran out). Small candidate sets are returned whole, exactly.
  let most = 0;
  for (const doc of touched) if ((s.count[doc] as number) > most) most = s.count[doc] as number;
  if (complete && touched.length <= PRUNE_ABOVE) return { positions: touched, complete, shared: most };
  const need = Math.max(most, complete ? 1 : 2);
  const kept: number[] = [];
  for (const doc of touched) if ((s.count[doc] as number) >= need) kept.push(doc);
  return { positions: kept, complete: complete && need <= 1, shared: kept.length > 0 ? need : 0 };
}

/**
 * Lists of the documents having a word of `a` and a word of `b` (two near lists): the pair postings of
 * every two distinct words, and the postings of a word in both lists (each list ascending).
 */
function bothLists(index: TokenIndex, a: readonly number[], b: readonly number[]): Int32Array[] {
  const lists: Int32Array[] = [];
  for (const x of a) {
    for (const y of b) {
      const list = x === y ? postings(index, x) : pairPostings(index.pairs, x, y);
      if (list.length > 0) lists.push(list);
    }
  }
  return lists;
}

/** The documents of {@link bothLists} merged: ascending, each once. */
function bothOf(index: TokenIndex, a: readonly number[], b: readonly number[]): Int32Array {
  const lists = bothLists(index, a, b);
  if (lists.length === 1) return lists[0] as Int32Array;
  let n = 0;
  for (const l of lists) n += l.length;
  const out = new Int32Array(n);
  n = 0;
  for (const l of lists) {
    out.set(l, n);
    n += l.length;
  }
  out.sort();
  let w = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[w++] = out[i] as number;
  return out.subarray(0, w);
}

/** The values in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/** How many postings the near words of one query word have in all. */
function postingCount(index: TokenIndex, near: readonly number[]): number {
  let n = 0;
  for (const v of near) n += docFrequency(index, v);
  return n;
}

/**
 * The documents near-matching the most query tokens (at least two when the budget ran out), without
 * walking the query words' postings. A document near-matching two query tokens has a pair of tokens near
 * them, so it is in the pair postings of their near tokens (or, for one document token near both, in that
 * token's postings). A document near-matching m of k query tokens matches two of any k - m + 2 of them,
 * so the pairs of the rarest two are read first, then the pairs each next rarest token adds, while no
 * document reaches the count tried; each document's count is taken from its own tokens. Only when no
 * document shares two query tokens and one is enough are the single postings read.
 */
function mostShared(
  index: TokenIndex,
  hits: readonly (readonly number[])[],
  complete: boolean,
  respaced: Respaced | undefined,
): Candidates {
  const s = index.scratch;
  const k = hits.length;
  const sizes = hits.map((near) => postingCount(index, near));
  const order = hits.map((_, q) => q).sort((a, b) => (sizes[a] as number) - (sizes[b] as number) || a - b);
  // The names near-matching every query token, if any: a name near-matching the rarest token A and
  // token X is in the pair postings of their near words (or in the postings of a word near both), so
  // those names are the intersection of these lists over every X, merged in order without reading any
  // name's own words.
  const rarest = hits[order[0] as number] as readonly number[];
  let all = bothOf(index, rarest, hits[order[1] as number] as readonly number[]);
  for (let r = 2; r < k && all.length > 0; r++)
    all = intersect(all, bothOf(index, rarest, hits[order[r] as number] as readonly number[]));
  // Pruned to the names with all k ≥ 2 tokens: not complete.
  if (all.length > 0) return { positions: Array.from(all), complete: false, shared: k };
  for (let q = 0; q < k; q++)
    for (const v of hits[q] as readonly number[]) s.mask[v] = (s.mask[v] as number) | (1 << q);
  const epoch = ++s.epoch;
  const seen: number[] = [];
  let best = 0;
  const visit = (post: Int32Array, from: number, to: number) => {
    for (let p = from; p < to; p++) {
      const doc = post[p] as number;
      if (s.stamp[doc] === epoch) continue;
      s.stamp[doc] = epoch;
      let bits = 0;
      for (let j = index.docStart[doc] as number; j < (index.docStart[doc + 1] as number); j++) {
        bits |= s.mask[index.docTok[j] as number] as number;
      }
      let n = 0;
      for (; bits !== 0; bits &= bits - 1) n++;
      s.count[doc] = n;
      if (n > best) best = n;
      seen.push(doc);
    }
  };
  const floor = complete ? 1 : 2;
  let need = floor;
  for (let m = k, added = 1; m >= 2; m--, added++) {
    // The slot `added` (in rarity order) joins: read its pairs with every rarer slot.
    const qb = order[added] as number;
    for (let r = 0; r < added; r++) {
      const lists = bothLists(
        index,
        hits[order[r] as number] as readonly number[],
        hits[qb] as readonly number[],
      );
      for (const list of lists) visit(list, 0, list.length);
    }
    // Every document near-matching m query tokens has now been seen.
    if (best >= m) {
      need = m;
      break;
    }
  }
  // Only names spaced otherwise are wanted from here when a decision needs two words lined up.
  const respacedOnly = best < 2 && floor === 1 && respaced !== undefined && respaced.need >= 2;
  if (best < 2 && floor === 1 && !respacedOnly) {
    for (const near of hits)
      for (const v of near) {
        const list = postings(index, v);
        visit(list, 0, list.length);
      }
  }
  for (let q = 0; q < k; q++) for (const v of hits[q] as readonly number[]) s.mask[v] = 0;
  const kept: number[] = [];
  if (best >= need) for (const doc of seen) if ((s.count[doc] as number) >= need) kept.push(doc);
  // Every name seen so far shares two query tokens, so with best < 2 none was: `kept` is empty.
  if (respacedOnly) spacedVariants(index, hits, respaced, (doc) => kept.push(doc));
  return { positions: kept, complete: complete && need <= 1, shared: kept.length > 0 ? need : 0 };
}

/**
 * Indexed words that start with `prefix` and are longer ("electr" → "electric", "electronics"), at most
 * `limit` of them, most frequent first (an abbreviation stands for a common word more often than not).
 */
export function wordsWithPrefix(index: TokenIndex, prefix: string, limit: number): string[] {
  const sorted = index.sortedVocab;
  const word = (i: number) => index.vocab.at(sorted[i] as number) as string;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (word(mid) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length; i++) {
    const w = word(i);
    if (!w.startsWith(prefix)) break;
    if (w.length > prefix.length) out.push(w);
  }
  const df = (w: string) => docFrequency(index, index.vocabId.get(w));
  return out.sort((a, b) => df(b) - df(a) || (a < b ? -1 : 1)).slice(0, limit);
}
