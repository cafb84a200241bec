/**
 * The rows of the prospect match index after a delta, made from the base's saved index without reading
 * every stored row: positions, names, employers, word ids and word postings, equal to what a build from
 * every row makes (`prospects.ts`). At 1M prospects reading each row's employer and name from SQLite
 * took ~1.8 s of that build and counting and placing their words ~1 s more; here a row the delta left
 * alone is only moved: its name and words are the base's, its employer the base's renumbered, its
 * entries in the word postings moved in place.
 */
import { personTokens } from '../../normalise/index.js';
import type { StringColumn } from '../format/strings.js';
import type { IntColumn } from '../format/ints.js';

/** What the patch reads of the base's saved match index. */
export interface MatchRowsBase {
  readonly size: number;
  /** Empty when the rowids are `position + 1`. */
  readonly rowids: Int32Array;
  readonly names: StringColumn;
  /** Word id → word (the saved `Ids`). */
  readonly words: { at(id: number): string | undefined; get(word: string): number | undefined };
  readonly wordStart: Int32Array;
  readonly wordPost: IntColumn;
  readonly business: IntColumn;
}

/** What changed, and how to read the rows that did. */
export interface MatchChanges {
  /** Rowids the delta wrote, deleted or gave another employer, ascending, each once. */
  changed: Int32Array;
  /** Whether the delta wrote the row (its name is read again; a row only given an employer keeps it). */
  written(rowid: number): boolean;
  /** The stored row's employer rowid and full name; `undefined` when it was deleted. */
  row(rowid: number): [businessRowid: number | null, fullName: string] | undefined;
  /** The position now of the business at a base position (-1 when gone). */
  movedBusiness(basePosition: number): number;
  /** The position of the business at a rowid (-1 when none). */
  businessAt(rowid: number): number;
}

/** The index's rows: what the build then completes (members, typo table, key tables). */
export interface MatchRows {
  /** The rowid at each position, ascending. */
  rowids: Int32Array;
  /** Each position's name words joined by spaces. */
  names: string[];
  /** Each position's employer position, -1 when none. */
  business: Int32Array;
  /** The words in id order: first seen in position order, then in name order. */
  words: string[];
  wordStart: Int32Array;
  /** Each word's prospects by employer (none last), then position. */
  wordPost: Int32Array;
}

/** A row's distinct words, in name order (as the build counts them). */
function distinctWords(name: string): string[] {
  if (name === '') return [];
  const words = name.split(' ');
  return words.filter((w, i) => w.length > 0 && words.indexOf(w) === i);
}

/**
 * The rows after the delta `changes` describes, from `base`. Throws when the base does not fit the
 * changes (a row left alone whose employer is gone): the caller then builds from every row.
 */
export function patchMatchRows(base: MatchRowsBase, changes: MatchChanges): MatchRows {
  const { changed } = changes;
  const baseRowid = (p: number) => (base.rowids.length === 0 ? p + 1 : (base.rowids[p] as number));
  // Base position → position now; -1 for a row read again or deleted (its postings leave).
  const moved = new Int32Array(base.size).fill(-1);
  const rowids: number[] = [];
  const names: string[] = [];
  const business: number[] = [];
  const leaving: number[] = [];
  const fresh: { pos: number; words: string[] }[] = [];
  const readAgain = (rowid: number, basePos: number) => {
    if (basePos >= 0) leaving.push(basePos);
    const row = changes.row(rowid);
    if (row === undefined) return;
    const keep = basePos >= 0 && !changes.written(rowid);
    const name = keep ? (base.names.at(basePos) as string) : personTokens(row[1]).join(' ');
    const pos = rowids.length;
    rowids.push(rowid);
    names.push(name);
    business.push(row[0] === null ? -1 : changes.businessAt(row[0]));
    fresh.push({ pos, words: distinctWords(name) });
  };
  let c = 0;
  for (let p = 0; p < base.size; p++) {
    const r = baseRowid(p);
    while (c < changed.length && (changed[c] as number) < r) readAgain(changed[c++] as number, -1);
    if (c < changed.length && changed[c] === r) {
      readAgain(changed[c++] as number, p);
      continue;
    }
    moved[p] = rowids.length;
    rowids.push(r);
    names.push(base.names.at(p) as string);
    const b = base.business.at(p);
    const now = b < 0 ? -1 : changes.movedBusiness(b);
    if (b >= 0 && now < 0) throw new Error('match patch: a row left alone lost its employer');
    business.push(now);
  }
  while (c < changed.length) readAgain(changed[c++] as number, -1);

  // Counts per word: the base's runs less the rows leaving, plus the rows read again. Words new to the
  // index are numbered after the base's for now.
  const baseWords = base.wordStart.length - 1;
  const counts: number[] = [];
  for (let w = 0; w < baseWords; w++)
    counts.push((base.wordStart[w + 1] as number) - (base.wordStart[w] as number));
  const newWords: string[] = [];
  const newWordId = new Map<string, number>();
  const idOf = (w: string) => {
    let id = base.words.get(w) ?? newWordId.get(w);
    if (id === undefined) {
      id = baseWords + newWords.length;
      newWordId.set(w, id);
      newWords.push(w);
      counts.push(0);
    }
    return id;
  };
  for (const p of leaving) {
    for (const w of distinctWords(base.names.at(p) as string)) {
      const id = base.words.get(w);
      if (id === undefined) throw new Error('match patch: a base name word not in the base');
      counts[id] = (counts[id] as number) - 1;
    }
  }
  const added = new Map<number, number[]>();
  for (const { pos, words } of fresh) {
    for (const w of words) {
      const id = idOf(w);
      counts[id] = (counts[id] as number) + 1;
      let list = added.get(id);
      if (!list) added.set(id, (list = []));
      list.push(pos);
    }
  }

  // Word ids as a build numbers them: by first position, then by place in that row's name.
  const first = new Int32Array(counts.length).fill(0x7fffffff);
  for (let w = 0; w < baseWords; w++) {
    const run = base.wordPost.range(base.wordStart[w] as number, base.wordStart[w + 1] as number);
    let min = 0x7fffffff;
    for (let i = 0; i < run.length; i++) {
      const now = moved[run[i] as number] as number;
      if (now >= 0 && now < min) min = now;
    }
    first[w] = min;
  }
  for (const [id, list] of added) first[id] = Math.min(first[id] as number, list[0] as number);
  const wordOf = (id: number) =>
    id < baseWords ? (base.words.at(id) as string) : (newWords[id - baseWords] as string);
  const order: number[] = [];
  for (let id = 0; id < counts.length; id++) if ((counts[id] as number) > 0) order.push(id);
  const placeInName = (id: number) => distinctWords(names[first[id] as number] as string).indexOf(wordOf(id));
  order.sort((a, b) => (first[a] as number) - (first[b] as number) || placeInName(a) - placeInName(b));

  // Postings: each word's base entries moved (their order holds: positions and employers are renumbered
  // in order), merged with the entries of the rows read again.
  const employerKey = (pos: number) => {
    const b = business[pos] as number;
    return b < 0 ? 0x7fffffff : b;
  };
  const before = (x: number, y: number) => {
    const kx = employerKey(x);
    const ky = employerKey(y);
    return kx < ky || (kx === ky && x < y);
  };
  const wordStart = new Int32Array(order.length + 1);
  for (let i = 0; i < order.length; i++)
    wordStart[i + 1] = (wordStart[i] as number) + (counts[order[i] as number] as number);
  const wordPost = new Int32Array(wordStart[order.length] as number);
  for (let i = 0; i < order.length; i++) {
    const id = order[i] as number;
    let at = wordStart[i] as number;
    const adds = added.get(id)?.sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0)) ?? [];
    let a = 0;
    if (id < baseWords) {
      const run = base.wordPost.range(base.wordStart[id] as number, base.wordStart[id + 1] as number);
      let last = -1;
      for (let j = 0; j < run.length; j++) {
        const pos = moved[run[j] as number] as number;
        if (pos < 0) continue;
        if (last >= 0 && !before(last, pos)) throw new Error('match patch: a moved posting out of order');
        last = pos;
        while (a < adds.length && before(adds[a] as number, pos)) wordPost[at++] = adds[a++] as number;
        wordPost[at++] = pos;
      }
    }
    while (a < adds.length) wordPost[at++] = adds[a++] as number;
    if (at !== wordStart[i + 1]) throw new Error('match patch: a word’s count is off');
  }
  return {
    rowids: Int32Array.from(rowids),
    names,
    business: Int32Array.from(business),
    words: order.map(wordOf),
    wordStart,
    wordPost,
  };
}
