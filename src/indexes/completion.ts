/**
 * A completion index over one field's values: candidates ranked by weight (how many records hold the
 * value), every word of a candidate searchable by prefix, one-edit typo tolerance, and a similarity scan
 * for semantic search.
 *
 * Candidate ids are ranks (0 = most common), so "the best k of a set" is "the k smallest ids". Prefixes
 * of up to 5 characters keep their best `k` ids precomputed; longer prefixes binary-search a sorted word
 * list. A typo is one deletion, insertion, substitution or transposition in any query word of 3+
 * characters, tried as a prefix, so "softw" → "software", "cloude" → "cloud", "sofware eng" →
 * "Software Engineer". Typo candidates come from a deletion index over word heads (SymSpell-style), and
 * the query is cut to a few words of bounded length, so no query costs more than a small fixed budget.
 * A candidate may also carry tags (company names: their legal-form classes), words that only a query
 * word made with {@link tagWord} matches, whole, never by prefix or typo; {@link searchReadings} tries
 * several readings of one query (literal, legal forms as tags) and merges them by rank.
 */
import { distance } from 'fastest-levenshtein';
import { foldText, words } from '../normalise/index.js';
import {
  CandidateColumns,
  isCandidatePage,
  isNumberPage,
  isPairPage,
  isWordPage,
  NumberPages,
  PairColumns,
  WordPages,
} from './completion-pages.js';
import { StringList } from './format/strings.js';
import { Ids } from './format/tables.js';
import type { PartList, SavedForm } from './persist.js';

export interface CompletionCandidate {
  label: string;
  value: string;
  weight: number;
  /** Extra searchable text (codes, aliases) besides the label. */
  aliases?: readonly string[];
  /** Exact-only words (legal-form classes), matched by {@link tagWord} query words. */
  tags?: readonly string[];
}

export interface CompletionItem {
  label: string;
  value: string;
}

const PREFIX_TABLE_MAX = 5;
const RANGE_SCAN_CAP = 20_000;
/** Query characters read (the schema refuses longer queries; library callers are cut here). */
export const MAX_QUERY_CHARS = 200;
/** Query words used: the rest cannot narrow 20 suggestions further. */
export const MAX_QUERY_WORDS = 8;
/** Characters of a query word used: longer words are cut (no value word is longer in practice). */
export const MAX_WORD_CHARS = 48;
/** Query words shorter than this must match a prefix exactly. */
const FUZZY_MIN = 3;
/** Head length of the deletion index. */
const HEAD = 4;
/** Marks tag words at both ends: folded text never holds it, so no typed word reaches a tag. */
const TAG_MARK = '\u0001';

/** The query word that matches candidates carrying `tag` (and nothing else). */
export function tagWord(tag: string): string {
  return `${TAG_MARK}${tag}${TAG_MARK}`;
}

function isTag(w: string): boolean {
  return w.startsWith(TAG_MARK);
}

/**
 * The index's data: typed arrays and string tables throughout (see `format/`), so the saved form is
 * reopened without decoding (`indexes/persist.ts`). The large columns are read through
 * {@link CandidateColumns} and {@link PairColumns}, one page in memory when built here, saved pages
 * read on first access when reopened (`completion-pages.ts`). Lists per key are CSR arrays: the
 * entries of key `i` are `ids[start[i] .. start[i + 1])`.
 */
interface CompletionTables {
  size: number;
  k: number;
  /** Label, value and folded searchable words of each candidate. */
  candidates: CandidateColumns;
  /** Every (word, candidate) pair, sorted by word then candidate. */
  pairs: PairColumns;
  /** Prefix (up to `PREFIX_TABLE_MAX` characters) → its best `k` candidates. */
  prefixes: Ids;
  prefixStart: Uint32Array;
  prefixIds: Uint32Array;
  /** Distinct words, sorted; `vocabularyStart[v]` is where word `v`'s pairs begin in `pairs`. */
  vocabulary: WordPages;
  vocabularyStart: NumberPages;
  /** Deletion key of a word head → vocabulary words having it (see {@link headKeys}). */
  deletionKeys: Ids;
  deletionStart: Uint32Array;
  deletionWords: NumberPages;
}

/** A `Map<string, number[]>` (in insertion order) as key ids plus CSR arrays. */
function csr(map: Map<string, number[]>): [Ids, Uint32Array, Uint32Array] {
  const start = new Uint32Array(map.size + 1);
  let n = 0;
  let i = 0;
  for (const list of map.values()) start[++i] = n += list.length;
  const ids = new Uint32Array(n);
  i = 0;
  for (const list of map.values()) ids.set(list, start[i++]!);
  return [Ids.of(map.keys()), start, ids];
}

function buildTables(candidates: readonly CompletionCandidate[], k: number): CompletionTables {
  const sorted = [...candidates].sort(
    (a, b) => b.weight - a.weight || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  );
  const wordsOf = sorted.map((c) => {
    const ws = new Set<string>();
    for (const t of [c.label, ...(c.aliases ?? [])]) for (const w of foldText(t).split(' ')) if (w) ws.add(w);
    for (const tag of c.tags ?? []) ws.add(tagWord(tag));
    return [...ws];
  });
  const prefixTop = new Map<string, number[]>();
  // Each word's candidates, ascending (a candidate lists a word once): the (word, candidate) pairs
  // sorted without sorting every pair (at 100k company names, a third of this build).
  const byWord = new Map<string, number[]>();
  let pairCount = 0;
  wordsOf.forEach((ws, id) => {
    pairCount += ws.length;
    for (const w of ws) {
      const ids = byWord.get(w);
      if (ids) ids.push(id);
      else byWord.set(w, [id]);
      for (let n = 1; n <= Math.min(PREFIX_TABLE_MAX, w.length); n++) {
        const p = w.slice(0, n);
        let list = prefixTop.get(p);
        if (!list) prefixTop.set(p, (list = []));
        if (list.length < k && list[list.length - 1] !== id) list.push(id);
      }
    }
  });
  // Code-unit order, as `<` compares.
  const vocabulary = [...byWord.keys()].sort();
  const sortedWords: string[] = new Array<string>(pairCount);
  const pairIds = new Uint32Array(pairCount);
  const starts: number[] = [];
  let at = 0;
  for (const w of vocabulary) {
    starts.push(at);
    for (const id of byWord.get(w)!) {
      sortedWords[at] = w;
      pairIds[at++] = id;
    }
  }
  starts.push(at);
  const deletionKeys = new Map<string, number[]>();
  vocabulary.forEach((w, v) => {
    if (isTag(w)) return; // tags are matched whole only
    const keys = new Set([...headKeys(w.slice(0, HEAD)), ...headKeys(w.slice(0, FUZZY_MIN))]);
    for (const key of keys) {
      let list = deletionKeys.get(key);
      if (!list) deletionKeys.set(key, (list = []));
      list.push(v);
    }
  });
  const wordStart = new Uint32Array(sorted.length + 1);
  wordsOf.forEach((ws, id) => (wordStart[id + 1] = wordStart[id]! + ws.length));
  const [prefixes, prefixStart, prefixIds] = csr(prefixTop);
  const [deletions, deletionStart, deletionWords] = csr(deletionKeys);
  const labels = sorted.map((c) => c.label);
  return {
    size: sorted.length,
    k,
    candidates: CandidateColumns.whole({
      labels: StringList.of(labels),
      // Most fields' values are their labels (every company name): kept once.
      values: sorted.every((c, i) => c.value === labels[i])
        ? undefined
        : StringList.of(sorted.map((c) => c.value)),
      wordStart,
      words: StringList.of(wordsOf.flat()),
    }),
    pairs: PairColumns.whole({
      words: StringList.of(sortedWords),
      ids: pairIds,
    }),
    prefixes,
    prefixStart,
    prefixIds,
    vocabulary: WordPages.whole(StringList.of(vocabulary)),
    vocabularyStart: NumberPages.whole(Uint32Array.from(starts)),
    deletionKeys: deletions,
    deletionStart,
    deletionWords: NumberPages.whole(deletionWords),
  };
}

/** The ids listed for `key` in a CSR table, or undefined. */
function listOf(keys: Ids, start: Uint32Array, ids: Uint32Array, key: string): Uint32Array | undefined {
  const i = keys.get(key);
  return i === undefined ? undefined : ids.subarray(start[i]!, start[i + 1]!);
}

export class CompletionIndex {
  readonly size: number;
  private readonly k: number;
  private readonly t: CompletionTables;
  /** Words of candidates read so far (decoded once each). */
  private readonly wordMemo: (string[] | undefined)[] = [];

  constructor(candidates: readonly CompletionCandidate[], k = 20) {
    this.t = buildTables(candidates, k);
    this.size = this.t.size;
    this.k = k;
  }

  /** The index over saved tables (wrapped, not copied). */
  static fromTables(t: CompletionTables): CompletionIndex {
    const index = Object.create(CompletionIndex.prototype) as {
      -readonly [K in keyof CompletionIndex]: unknown;
    };
    Object.assign(index, { t, size: t.size, k: t.k, wordMemo: [] });
    return index as unknown as CompletionIndex;
  }

  /** The tables to save. */
  toTables(): CompletionTables {
    return this.t;
  }

  /**
   * How many pages of the paged columns are in memory, of how many: a reopened index reads a page on
   * first use (an index built in this process holds each column as one page). `words` counts the
   * vocabulary and typo-table pages together.
   * @example index.pages // → { candidates: { read: 1, of: 965 }, pairs: { read: 0, of: 474 }, words: { read: 0, of: 96 } }
   */
  get pages(): Record<'candidates' | 'pairs' | 'words', { read: number; of: number }> {
    const { candidates, pairs, vocabulary, vocabularyStart, deletionWords } = this.t;
    const words = [vocabulary, vocabularyStart, deletionWords];
    return {
      candidates: { read: candidates.pagesRead, of: candidates.pages.length },
      pairs: { read: pairs.pagesRead, of: pairs.pages.length },
      words: {
        read: words.reduce((n, c) => n + c.pagesRead, 0),
        of: words.reduce((n, c) => n + c.pages.length, 0),
      },
    };
  }

  private item(id: number): CompletionItem {
    return { label: this.t.candidates.label(id), value: this.t.candidates.value(id) };
  }

  private firstItems(limit: number): CompletionItem[] {
    const out: CompletionItem[] = [];
    for (let id = 0; id < Math.min(limit, this.size); id++) out.push(this.item(id));
    return out;
  }

  private wordsOf(id: number): string[] {
    let ws = this.wordMemo[id];
    if (ws === undefined) this.wordMemo[id] = ws = this.t.candidates.words(id);
    return ws;
  }

  /** Best `limit` ids (ascending) having a word that starts with `prefix`. */
  private byPrefix(prefix: string, limit: number): number[] {
    if (prefix.length <= PREFIX_TABLE_MAX) {
      const top = listOf(this.t.prefixes, this.t.prefixStart, this.t.prefixIds, prefix);
      return top ? Array.from(top.subarray(0, limit)) : [];
    }
    const ids = this.rangeIds(prefix);
    ids.sort((a, b) => a - b);
    return dedupeSorted(ids).slice(0, limit);
  }

  /** Every id (unsorted, capped) having a word that starts with `prefix`. */
  private rangeIds(prefix: string): number[] {
    const out: number[] = [];
    this.t.pairs.idsWithPrefix(this.t.pairs.lowerBound(prefix), prefix, out, RANGE_SCAN_CAP);
    return out;
  }

  /** Does candidate `id` have, for every query word, a word starting with it? */
  private matchesAll(id: number, qs: readonly string[]): boolean {
    const ws = this.wordsOf(id);
    return qs.every((q) => ws.some((w) => w.startsWith(q)));
  }

  /**
   * Candidates for a query: candidates whose words start with every query word, by rank, then
   * candidates where any query words (of 3+ characters) are one typo away from a word prefix, by rank.
   * The query is cut to {@link MAX_QUERY_WORDS} words of at most {@link MAX_WORD_CHARS} characters, so
   * the work is bounded whatever the caller sends.
   */
  search(query: string, limit = this.k): CompletionItem[] {
    const qs = queryWords(query);
    if (qs.length === 0) return this.firstItems(limit);
    return this.searchReadings([[qs]], limit);
  }

  /**
   * Candidates for several readings of one query, in tiers: inside a tier, the exact matches of every
   * reading merged by rank, then their one-typo matches merged by rank; a later tier only fills what is
   * left. Readings are word lists as {@link queryWords} gives them, possibly with {@link tagWord}s.
   * @example index.searchReadings([[['brightwell', 'nv'], ['brightwell', tagWord('nv')]], [['brightwell']]])
   */
  searchReadings(tiers: readonly (readonly (readonly string[])[])[], limit = this.k): CompletionItem[] {
    const out: number[] = [];
    const found = new Set<number>();
    const add = (ids: number[]) => {
      ids.sort((a, b) => a - b);
      for (const id of ids) {
        if (out.length >= limit) break;
        if (found.has(id)) continue;
        found.add(id);
        out.push(id);
      }
    };
    for (const readings of tiers) {
      const qss = readings.filter((qs) => qs.length > 0);
      if (out.length >= limit) break;
      add(qss.flatMap((qs) => this.exact(qs, limit + found.size)));
      const fuzzy = qss.filter((qs) => qs.some((q) => !isTag(q) && q.length >= FUZZY_MIN));
      if (out.length < limit) add(fuzzy.flatMap((qs) => this.fuzzy(qs)));
    }
    return out.map((id) => this.item(id));
  }

  /**
   * The best `limit` ids (ascending) having, for every query word, a word starting with it. The word
   * with the fewest postings drives (a common last word such as "gmbh" or a form tag would scan
   * thousands); the others are checked.
   */
  private exact(qs: readonly string[], limit: number): number[] {
    if (qs.length === 1) return this.byPrefix(qs[0]!, limit);
    let driver = 0;
    let range: [number, number] = [0, Infinity];
    qs.forEach((q, i) => {
      const r = this.prefixRange(q);
      if (r[1] - r[0] <= range[1] - range[0]) [driver, range] = [i, r];
    });
    const ids: number[] = [];
    this.t.pairs.idsIn(range[0], range[1], ids, RANGE_SCAN_CAP);
    const rest = qs.filter((_, i) => i !== driver);
    const out: number[] = [];
    for (const id of dedupeSorted(ids.sort((a, b) => a - b))) {
      if (out.length >= limit) break;
      if (this.matchesAll(id, rest)) out.push(id);
    }
    return out;
  }

  /**
   * Candidates (ascending ids, capped) where every query word is a prefix of one of their words or one
   * edit away from such a prefix. The rarest query word drives: its accepted vocabulary words' postings
   * are the candidates, checked against the other words.
   */
  private fuzzy(qs: readonly string[]): number[] {
    const accepted = qs.map((q) => this.acceptedWords(q));
    let driver = 0;
    let best = Infinity;
    accepted.forEach((a, i) => {
      let n = 0;
      for (const [lo, hi] of a) n += hi - lo;
      if (n < best) [best, driver] = [n, i];
    });
    const ids: number[] = [];
    for (const [lo, hi] of accepted[driver]!) this.t.pairs.idsIn(lo, hi, ids, RANGE_SCAN_CAP);
    ids.sort((a, b) => a - b);
    // One query word: every id of its ranges is an answer, and no candidate's words need reading (in a
    // reopened index they are spread over every page).
    if (qs.length === 1) return dedupeSorted(ids);
    const out: number[] = [];
    for (const id of dedupeSorted(ids)) {
      const ws = this.wordsOf(id);
      if (qs.every((q, i) => i === driver || ws.some((w) => wordAccepts(q, w)))) out.push(id);
    }
    return out;
  }

  /**
   * Ranges of pairs whose word starts with `q` or is one edit away from a word having
   * `q` as a prefix. Fuzzy words are found through the deletion keys of word heads (SymSpell-style), so
   * the cost depends on the query word's head, never on the alphabet times its length.
   */
  private acceptedWords(q: string): [number, number][] {
    const ranges: [number, number][] = [this.prefixRange(q)];
    if (q.length < FUZZY_MIN || isTag(q)) return ranges;
    const seen = new Set<number>();
    for (const key of headKeys(q.slice(0, HEAD))) {
      const k = this.t.deletionKeys.get(key);
      if (k === undefined) continue;
      const list = this.t.deletionWords.range(this.t.deletionStart[k]!, this.t.deletionStart[k + 1]!);
      for (const v of list) {
        if (seen.has(v)) continue;
        seen.add(v);
        const w = this.t.vocabulary.at(v);
        if (!w.startsWith(q) && prefixWithinOneEdit(q, w)) ranges.push(this.wordRange(v));
      }
    }
    return ranges;
  }

  /** Range of pairs whose word starts with `prefix` (two binary searches, a page each when saved). */
  private prefixRange(prefix: string): [number, number] {
    return [this.t.pairs.lowerBound(prefix), this.t.pairs.lowerBound(`${prefix}\uffff`)];
  }

  private wordRange(v: number): [number, number] {
    return [this.t.vocabularyStart.at(v), this.t.vocabularyStart.at(v + 1)];
  }

  /**
   * Related values, not only prefixes: every candidate scored by how well its words cover the query
   * words (prefix or substring 1.0, else 1 − edit distance / length), kept at ≥ 0.6 on average,
   * ranked by score then weight. A full scan: meant for small value sets (intent topics, categories).
   */
  similar(query: string, limit = this.k, extra: readonly string[] = []): CompletionItem[] {
    const qs = queryWords(query);
    if (qs.length === 0) return this.firstItems(limit);
    const extraWords = extra.slice(0, MAX_QUERY_WORDS).map(queryWords);
    const scored: { id: number; score: number }[] = [];
    for (let id = 0; id < this.size; id++) {
      const ws = this.wordsOf(id);
      let score = wordScore(qs, ws);
      for (const e of extraWords) score = Math.max(score, wordScore(e, ws));
      if (score >= 0.6) scored.push({ id, score });
    }
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return scored.slice(0, limit).map((s) => this.item(s.id));
  }
}

function wordScore(qs: readonly string[], ws: readonly string[]): number {
  let total = 0;
  for (const q of qs) {
    let best = 0;
    for (const w of ws) {
      if (isTag(w)) continue;
      if (w.startsWith(q) || (q.length >= 4 && w.includes(q))) {
        best = 1;
        break;
      }
      if (q.length < 3) continue;
      const head = w.slice(0, q.length + 1);
      const d = Math.min(distance(q, w), distance(q, head));
      best = Math.max(best, 1 - d / Math.max(q.length, 1));
    }
    total += best;
  }
  return total / qs.length;
}

function dedupeSorted(ids: number[]): number[] {
  const out: number[] = [];
  for (const id of ids) if (out[out.length - 1] !== id) out.push(id);
  return out;
}

/** The folded words of a query, at most {@link MAX_QUERY_WORDS} of at most {@link MAX_WORD_CHARS}. */
export function queryWords(query: string): string[] {
  return words(query.slice(0, MAX_QUERY_CHARS))
    .slice(0, MAX_QUERY_WORDS)
    .map((w) => w.slice(0, MAX_WORD_CHARS));
}

/**
 * A head and its one-deletion variants. Two heads of the same length whose words are one edit apart
 * (deletion, insertion, substitution or adjacent transposition) always share a key, so looking up the
 * query head's keys finds every word a one-typo prefix could come from.
 */
export function headKeys(head: string): string[] {
  const out = new Set<string>([head]);
  for (let i = 0; i < head.length; i++) out.add(head.slice(0, i) + head.slice(i + 1));
  out.delete('');
  return [...out];
}

/** Query word `q` accepted by word `w`: a prefix of it, or (3+ characters) one edit from a prefix. */
function wordAccepts(q: string, w: string): boolean {
  if (w.startsWith(q)) return true;
  return q.length >= FUZZY_MIN && !isTag(q) && !isTag(w) && prefixWithinOneEdit(q, w);
}

/**
 * Is `q` at most one edit (deletion, insertion, substitution, adjacent transposition) away from some
 * prefix of `w`? Linear in `q`.
 * @example prefixWithinOneEdit('sofware', 'software') // true
 */
export function prefixWithinOneEdit(q: string, w: string): boolean {
  const n = q.length;
  let i = 0;
  while (i < n && i < w.length && q.charCodeAt(i) === w.charCodeAt(i)) i++;
  if (i === n) return true;
  // First difference at i: substitution, transposition, an extra character in q, or one missing.
  const rest = (a: string, from: number, b: string, at: number) => {
    const len = n - from;
    return at + len <= b.length && a.slice(from) === b.slice(at, at + len);
  };
  if (rest(q, i + 1, w, i + 1)) return true; // substitution
  if (i + 1 < n && q[i] === w[i + 1] && q[i + 1] === w[i] && rest(q, i + 2, w, i + 2)) return true;
  if (rest(q, i + 1, w, i)) return true; // q has an extra character
  return q[i] === w[i + 1] && rest(q, i, w, i + 1); // q misses w[i]
}

/** Page sizes of the saved form, in entries a page. */
export interface CompletionPaging {
  candidates: number;
  /** (word, candidate) pairs. */
  pairs: number;
  /** Vocabulary words, their pair starts, and typo-table entries. */
  words: number;
}

/**
 * Page sizes measured on the company names of 1M generated businesses (988k candidates, 4.1M pairs):
 * candidate pages of ~73 KB, pair pages of ~113 KB (median). A first query read 1.4–4.2 MB at 512,
 * 1,024 or 2,048 candidates a page (pairs 8 times as many) and answered within the same 23–57 ms;
 * smaller pages read the fewest bytes on scattered ids (two-word queries) but waste more of the file
 * (a saved part ends in a partly filled 64 KB page: 188 MB at 512 against 138 MB at 1,024). Word
 * pages of 8,192 entries are ~32 KB of numbers or ~100 KB of words.
 */
export const COMPLETION_PAGING: CompletionPaging = { candidates: 1024, pairs: 8192, words: 8192 };

/** The columns saved in pages, each a list of parts in the saved tree. */
type Paged = 'candidates' | 'pairs' | 'vocabulary' | 'vocabularyStart' | 'deletionWords';

/** The saved root: the small tables, the sizes of the paged columns, the first word of each pair page. */
type SavedRoot = Omit<CompletionTables, Paged> & {
  candidatePageSize: number;
  pairPageSize: number;
  pairCount: number;
  firstWords: StringList<never>;
  wordPageSize: number;
  vocabularyCount: number;
  deletionCount: number;
} & Record<Paged, unknown>;

/**
 * The saved form of a completion index (pass it to `savedIndex`): the small tables in the root, the
 * candidate, pair, vocabulary and typo-list columns in pages of `paging` (see `completion-pages.ts`),
 * each read on first access. The page sizes are saved in the root, so a reader follows the file,
 * whatever its own.
 */
export function completionForm(paging: CompletionPaging = COMPLETION_PAGING): SavedForm<CompletionIndex> {
  return {
    save: (index) => {
      const { candidates, pairs, vocabulary, vocabularyStart, deletionWords, ...small } = index.toTables();
      const cut = pairs.cut(paging.pairs);
      return {
        ...small,
        candidatePageSize: paging.candidates,
        pairPageSize: paging.pairs,
        pairCount: pairs.length,
        firstWords: cut.firstWords,
        wordPageSize: paging.words,
        vocabularyCount: vocabulary.length,
        deletionCount: deletionWords.length,
        candidates: candidates.cut(paging.candidates),
        pairs: cut.pages,
        vocabulary: vocabulary.cut(paging.words),
        vocabularyStart: vocabularyStart.cut(paging.words),
        deletionWords: deletionWords.cut(paging.words),
      } satisfies SavedRoot;
    },
    open: (tree) => {
      const t = tree as SavedRoot;
      const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
      const counts = [t.size, t.k, t.candidatePageSize, t.pairPageSize, t.pairCount, t.wordPageSize];
      if (
        ![...counts, t.vocabularyCount, t.deletionCount].every(whole) ||
        !(t.firstWords instanceof StringList) ||
        !(t.prefixes instanceof Ids) ||
        !(t.prefixStart instanceof Uint32Array) ||
        !(t.prefixIds instanceof Uint32Array) ||
        !(t.deletionKeys instanceof Ids) ||
        !(t.deletionStart instanceof Uint32Array) ||
        t.deletionStart.length !== t.deletionKeys.length + 1 ||
        t.deletionStart[t.deletionKeys.length] !== t.deletionCount
      )
        throw new Error('CompletionIndex: saved tables of another shape');
      // The constructors throw on page counts that do not fit the sizes (a damaged root): rebuilt.
      const pages = <P>(k: Paged) => t[k] as PartList<P>;
      return CompletionIndex.fromTables({
        size: t.size,
        k: t.k,
        candidates: CandidateColumns.paged(t.size, t.candidatePageSize, pages('candidates')),
        pairs: PairColumns.paged(t.pairCount, t.pairPageSize, t.firstWords, pages('pairs')),
        prefixes: t.prefixes,
        prefixStart: t.prefixStart,
        prefixIds: t.prefixIds,
        vocabulary: WordPages.paged(t.vocabularyCount, t.wordPageSize, pages('vocabulary')),
        vocabularyStart: NumberPages.paged(t.vocabularyCount + 1, t.wordPageSize, pages('vocabularyStart')),
        deletionKeys: t.deletionKeys,
        deletionStart: t.deletionStart,
        deletionWords: NumberPages.paged(t.deletionCount, t.wordPageSize, pages('deletionWords')),
      });
    },
    listed: {
      candidates: isCandidatePage,
      pairs: isPairPage,
      vocabulary: isWordPage,
      vocabularyStart: isNumberPage,
      deletionWords: isNumberPage,
    },
  };
}

/** The saved form of every completion index (`core/autocomplete.ts`). */
export const COMPLETION_FORM = completionForm();
