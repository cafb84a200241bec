/**
 * The large columns of a completion index (`completion.ts`) as pages, so a saved index is read a page
 * at a time: at 1M businesses the company-name index is ~190 MB, and reading a saved part out of
 * SQLite costs milliseconds per MB, while a first short query needs the best twenty names (one page)
 * and the small tables. Three kinds of columns:
 *
 * - per candidate (label, value, words), in pages of a fixed number of candidates. Candidate ids are
 *   ranks, so the best candidates, which short queries return, sit in the first pages;
 * - per (word, candidate) pair sorted by word, in pages of a fixed number of pairs, the first word of
 *   each page kept beside them (in the saved root): a prefix's binary search picks its page there and
 *   reads one page, not the log2(n) pages a search over the whole column would touch;
 * - the vocabulary (distinct words, sorted), where each word's pairs start, and the typo table's word
 *   lists, in pages of a fixed number of entries: they grow with the vocabulary, which real names make
 *   large (~70 bytes a distinct word), and a typo lookup reads a few pages of them.
 *
 * An index built in this process holds each column as one page in memory; a reopened one holds the
 * saved pages, each read on first access (`SavedForm.listed` in `persist.ts`). Both answer through
 * the same accessors, so they cannot disagree.
 */
import { StringList, type StringColumn } from './format/strings.js';
import type { PartList } from './persist.js';

/** Candidates `[first, first + n)` of a page, each column indexed from 0 inside the page. */
export interface CandidatePage {
  labels: StringList<never>;
  /** Absent when every value is its label (company names): not saved twice. */
  values: StringList<never> | undefined;
  /** Folded words of the page's candidate `j`: `words[wordStart[j] .. wordStart[j + 1])`. */
  wordStart: Uint32Array;
  words: StringList<never>;
}

/** Pairs of a page: `words[j]` is a word of candidate `ids[j]`. */
export interface PairPage {
  words: StringList<never>;
  ids: Uint32Array;
}

/** Pages in memory: always read. */
function inMemory<P>(pages: readonly P[]): PartList<P> {
  return { length: pages.length, at: (i) => pages[i] as P, isRead: () => true };
}

function countRead(pages: PartList<unknown>): number {
  let n = 0;
  for (let i = 0; i < pages.length; i++) if (pages.isRead(i)) n++;
  return n;
}

/** Is `v` a candidate page whose columns agree with each other (the shape check of a saved page)? */
export function isCandidatePage(v: unknown): boolean {
  const p = v as CandidatePage;
  return (
    typeof v === 'object' &&
    v !== null &&
    p.labels instanceof StringList &&
    (p.values === undefined || (p.values instanceof StringList && p.values.length === p.labels.length)) &&
    p.wordStart instanceof Uint32Array &&
    p.wordStart.length === p.labels.length + 1 &&
    p.wordStart[0] === 0 &&
    p.words instanceof StringList &&
    p.wordStart[p.labels.length] === p.words.length
  );
}

/** Is `v` a pair page (as many ids as words)? */
export function isPairPage(v: unknown): boolean {
  const p = v as PairPage;
  return (
    typeof v === 'object' &&
    v !== null &&
    p.words instanceof StringList &&
    p.ids instanceof Uint32Array &&
    p.ids.length === p.words.length
  );
}

/**
 * Pages in use, in an array beside their {@link PartList}: the accessors run in every query's inner
 * loops, and a call through the list (whose `at` is another function for built and saved pages) left
 * the built index ~30% slower in a process holding both kinds; an array of pages of one shape is not.
 */
class Loaded<P> {
  private readonly pages: (P | undefined)[];

  constructor(
    readonly list: PartList<P>,
    /** A page as an object of one shape, whatever made it (a build, or the saved form's decoder). */
    private readonly shape: (page: P) => P,
  ) {
    this.pages = new Array<P | undefined>(list.length);
  }

  at(p: number): P {
    return this.pages[p] ?? (this.pages[p] = this.shape(this.list.at(p)));
  }
}

const candidatePage = (p: CandidatePage): CandidatePage => ({
  labels: p.labels,
  values: p.values,
  wordStart: p.wordStart,
  words: p.words,
});
const pairPage = (p: PairPage): PairPage => ({ words: p.words, ids: p.ids });

/** The label, value and words of every candidate, in pages of `pageSize` candidates. */
export class CandidateColumns {
  private readonly loaded: Loaded<CandidatePage>;

  private constructor(
    readonly size: number,
    readonly pageSize: number,
    readonly pages: PartList<CandidatePage>,
  ) {
    this.loaded = new Loaded(pages, candidatePage);
  }

  /** The columns as one page (an index built in this process). */
  static whole(page: CandidatePage): CandidateColumns {
    const n = page.labels.length;
    return new CandidateColumns(n, Math.max(n, 1), inMemory([page]));
  }

  /** Saved pages of `pageSize` candidates (the last may hold fewer), read as they are asked for. */
  static paged(size: number, pageSize: number, pages: PartList<CandidatePage>): CandidateColumns {
    if (!(pageSize >= 1 && pages.length === Math.ceil(size / pageSize)))
      throw new Error(`CandidateColumns: ${pages.length} pages of ${pageSize} for ${size} candidates`);
    return new CandidateColumns(size, pageSize, pages);
  }

  label(id: number): string {
    const p = this.loaded.at((id / this.pageSize) | 0);
    return p.labels.at(id % this.pageSize)!;
  }

  value(id: number): string {
    const p = this.loaded.at((id / this.pageSize) | 0);
    return (p.values ?? p.labels).at(id % this.pageSize)!;
  }

  /** The folded searchable words of candidate `id`. */
  words(id: number): string[] {
    const p = this.loaded.at((id / this.pageSize) | 0);
    const j = id % this.pageSize;
    const out: string[] = [];
    for (let i = p.wordStart[j]!; i < p.wordStart[j + 1]!; i++) out.push(p.words.at(i)!);
    return out;
  }

  /** How many pages are in memory (read so far). */
  get pagesRead(): number {
    return countRead(this.pages);
  }

  /** The columns cut in pages of `pageSize` candidates, to save (reads every page). */
  cut(pageSize: number): CandidatePage[] {
    const out: CandidatePage[] = [];
    for (let first = 0; first < this.size; first += pageSize) {
      out.push(this.slice(first, Math.min(first + pageSize, this.size)));
    }
    return out;
  }

  /** Candidates `[a, b)` as one page: slices of the page holding them, else rebuilt entry by entry. */
  private slice(a: number, b: number): CandidatePage {
    const p = (a / this.pageSize) | 0;
    if (p === (((b - 1) / this.pageSize) | 0)) {
      const page = this.loaded.at(p);
      const [i, j] = [a - p * this.pageSize, b - p * this.pageSize];
      const wordStart = page.wordStart.slice(i, j + 1);
      for (let w = 0; w < wordStart.length; w++) wordStart[w]! -= page.wordStart[i]!;
      return {
        labels: page.labels.slice(i, j),
        values: page.values?.slice(i, j),
        wordStart,
        words: page.words.slice(page.wordStart[i]!, page.wordStart[j]!),
      };
    }
    const ids = Array.from({ length: b - a }, (_, i) => a + i);
    const labels = ids.map((id) => this.label(id));
    const values = ids.map((id) => this.value(id));
    const words = ids.map((id) => this.words(id));
    const wordStart = new Uint32Array(ids.length + 1);
    words.forEach((ws, i) => (wordStart[i + 1] = wordStart[i]! + ws.length));
    return {
      labels: StringList.of(labels),
      values: values.every((v, i) => v === labels[i]) ? undefined : StringList.of(values),
      wordStart,
      words: StringList.of(words.flat()),
    };
  }
}

/** Every (word, candidate) pair sorted by word then candidate, in pages of `pageSize` pairs. */
export class PairColumns {
  private readonly loaded: Loaded<PairPage>;

  private constructor(
    readonly length: number,
    readonly pageSize: number,
    /** The first word of each page: where a binary search starts. */
    readonly firstWords: StringList<never>,
    readonly pages: PartList<PairPage>,
  ) {
    this.loaded = new Loaded(pages, pairPage);
  }

  /** The pairs as one page (an index built in this process). */
  static whole(page: PairPage): PairColumns {
    const n = page.ids.length;
    const first = StringList.of(n > 0 ? [page.words.at(0)!] : []);
    return new PairColumns(n, Math.max(n, 1), first, inMemory(n > 0 ? [page] : []));
  }

  /** Saved pages of `pageSize` pairs (the last may hold fewer), read as they are asked for. */
  static paged(length: number, pageSize: number, firstWords: StringList<never>, pages: PartList<PairPage>) {
    const count = Math.ceil(length / pageSize);
    if (!(pageSize >= 1 && pages.length === count && firstWords.length === count))
      throw new Error(`PairColumns: ${pages.length} pages of ${pageSize} for ${length} pairs`);
    return new PairColumns(length, pageSize, firstWords, pages);
  }

  /**
   * The first position whose word is not below `key`. Pages before the last one starting below `key`
   * hold only smaller words, later ones none smaller: the answer is in that page or at its end, so
   * one page is read.
   */
  lowerBound(key: string): number {
    const p = lowerBound(this.firstWords, key, 0, this.firstWords.length);
    if (p === 0) return 0;
    const page = this.loaded.at(p - 1);
    return (p - 1) * this.pageSize + lowerBound(page.words, key, 0, page.words.length);
  }

  /** Candidates of positions `[lo, hi)` appended to `out` until it holds `cap`. */
  idsIn(lo: number, hi: number, out: number[], cap: number): void {
    for (let i = lo; i < hi && out.length < cap;) {
      const p = (i / this.pageSize) | 0;
      const ids = this.loaded.at(p).ids;
      const base = p * this.pageSize;
      const end = Math.min(hi - base, ids.length);
      for (let j = i - base; j < end && out.length < cap; j++) out.push(ids[j]!);
      i = base + end;
    }
  }

  /** Candidates (unsorted, at most `cap`) of the pairs from `lo` on whose word starts with `prefix`. */
  idsWithPrefix(lo: number, prefix: string, out: number[], cap: number): void {
    for (let i = lo; i < this.length && out.length < cap;) {
      const p = (i / this.pageSize) | 0;
      const { words, ids } = this.loaded.at(p);
      const base = p * this.pageSize;
      for (let j = i - base; j < ids.length && out.length < cap; j++) {
        if (!words.at(j)!.startsWith(prefix)) return;
        out.push(ids[j]!);
      }
      i = base + ids.length;
    }
  }

  /** How many pages are in memory (read so far). */
  get pagesRead(): number {
    return countRead(this.pages);
  }

  /** The pairs cut in pages of `pageSize`, with the first word of each, to save (reads every page). */
  cut(pageSize: number): { pages: PairPage[]; firstWords: StringList<never> } {
    const pages: PairPage[] = [];
    const first: string[] = [];
    for (let a = 0; a < this.length; a += pageSize) {
      const b = Math.min(a + pageSize, this.length);
      const p = (a / this.pageSize) | 0;
      let page: PairPage;
      if (p === (((b - 1) / this.pageSize) | 0)) {
        const { words, ids } = this.loaded.at(p);
        const [i, j] = [a - p * this.pageSize, b - p * this.pageSize];
        page = { words: words.slice(i, j), ids: ids.slice(i, j) };
      } else {
        const words: string[] = [];
        const ids: number[] = [];
        for (let i = a; i < b; i++) {
          const q = this.loaded.at((i / this.pageSize) | 0);
          const at = i % this.pageSize;
          words.push(q.words.at(at)!);
          ids.push(q.ids[at]!);
        }
        page = { words: StringList.of(words), ids: Uint32Array.from(ids) };
      }
      pages.push(page);
      first.push(page.words.at(0)!);
    }
    return { pages, firstWords: StringList.of(first) };
  }
}

/** One column of numbers or strings in pages of `pageSize` entries. */
abstract class EntryPages<C extends { readonly length: number }> {
  protected readonly loaded: Loaded<C>;

  protected constructor(
    readonly length: number,
    readonly pageSize: number,
    readonly pages: PartList<C>,
  ) {
    this.loaded = new Loaded(pages, (c) => c);
  }

  /** How many pages are in memory (read so far). */
  get pagesRead(): number {
    return countRead(this.pages);
  }

  /** Entries `[a, b)` of one page as a page of their own. */
  protected abstract slice(page: C, a: number, b: number): C;
  /** Entries `[a, b)` read one by one (they span pages). */
  protected abstract gather(a: number, b: number): C;

  /** The column cut in pages of `pageSize` entries, to save (reads every page). */
  cut(pageSize: number): C[] {
    const out: C[] = [];
    for (let a = 0; a < this.length; a += pageSize) {
      const b = Math.min(a + pageSize, this.length);
      const p = (a / this.pageSize) | 0;
      out.push(
        p === (((b - 1) / this.pageSize) | 0)
          ? this.slice(this.loaded.at(p), a - p * this.pageSize, b - p * this.pageSize)
          : this.gather(a, b),
      );
    }
    return out;
  }
}

function checkPaging(what: string, length: number, pageSize: number, pages: PartList<unknown>): void {
  if (!(pageSize >= 1 && pages.length === Math.ceil(length / pageSize)))
    throw new Error(`${what}: ${pages.length} pages of ${pageSize} for ${length} entries`);
}

/** Numbers in pages (`Uint32Array`s). */
export class NumberPages extends EntryPages<Uint32Array> {
  /** The column as one page (an index built in this process). */
  static whole(column: Uint32Array): NumberPages {
    const n = column.length;
    return new NumberPages(n, Math.max(n, 1), inMemory(n > 0 ? [column] : []));
  }

  /** Saved pages of `pageSize` entries (the last may hold fewer), read as they are asked for. */
  static paged(length: number, pageSize: number, pages: PartList<Uint32Array>): NumberPages {
    checkPaging('NumberPages', length, pageSize, pages);
    return new NumberPages(length, pageSize, pages);
  }

  at(i: number): number {
    return this.loaded.at((i / this.pageSize) | 0)[i % this.pageSize]!;
  }

  /** Entries `[lo, hi)`: a view when they sit in one page, else a copy. */
  range(lo: number, hi: number): Uint32Array {
    if (hi <= lo) return new Uint32Array(0);
    const p = (lo / this.pageSize) | 0;
    if (p === (((hi - 1) / this.pageSize) | 0))
      return this.loaded.at(p).subarray(lo - p * this.pageSize, hi - p * this.pageSize);
    return this.gather(lo, hi);
  }

  protected slice(page: Uint32Array, a: number, b: number): Uint32Array {
    return page.slice(a, b);
  }

  protected gather(a: number, b: number): Uint32Array {
    return Uint32Array.from({ length: b - a }, (_, k) => this.at(a + k));
  }
}

/** Strings in pages (`StringList`s). */
export class WordPages extends EntryPages<StringList<never>> {
  /** The column as one page (an index built in this process). */
  static whole(column: StringList<never>): WordPages {
    const n = column.length;
    return new WordPages(n, Math.max(n, 1), inMemory(n > 0 ? [column] : []));
  }

  /** Saved pages of `pageSize` entries (the last may hold fewer), read as they are asked for. */
  static paged(length: number, pageSize: number, pages: PartList<StringList<never>>): WordPages {
    checkPaging('WordPages', length, pageSize, pages);
    return new WordPages(length, pageSize, pages);
  }

  at(i: number): string {
    return this.loaded.at((i / this.pageSize) | 0).at(i % this.pageSize)!;
  }

  protected slice(page: StringList<never>, a: number, b: number): StringList<never> {
    return page.slice(a, b);
  }

  protected gather(a: number, b: number): StringList<never> {
    return StringList.of(Array.from({ length: b - a }, (_, k) => this.at(a + k)));
  }
}

export const isNumberPage = (v: unknown): boolean => v instanceof Uint32Array;
export const isWordPage = (v: unknown): boolean => v instanceof StringList && !v.toSections().nulls.length;

/** The first position in `[lo, hi)` of `sorted` whose entry is not below `key`. */
export function lowerBound(sorted: StringColumn, key: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted.at(mid)! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
