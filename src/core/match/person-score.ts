/**
 * Person-name similarity and lookup within companies. A query name is read several ways (as written,
 * with two adjacent words joined: "isabe lla" → "isabella", "garcia lopez" → "garcialopez"); each
 * reading is compared with a stored name in both orders (given-family and family-given), the family name
 * against any later word of the other name (double surnames, middle names present or absent), given
 * names up to a nickname, an initial, a truncation or a typo, family names up to a typo.
 */
import type { ProspectMatchIndex } from '../../indexes/match/prospects.js';
import { deletions, MIN_FUZZY_WORD } from '../../indexes/match/prospects.js';
import { nameSkeleton, personTokens } from '../../normalise/index.js';
import { CANONICAL_GIVEN, GIVEN_VARIANTS } from '../../normalise/nicknames.js';
import { jaroWinkler } from '../../normalise/similarity.js';
import type { Scored } from './types.js';

/** Nickname groups keyed by skeleton spelling (the words the matcher compares are skeletons). */
const CANON = new Map<string, string>();
const VARIANTS = new Map<string, string[]>();
for (const [name, canonical] of CANONICAL_GIVEN) CANON.set(nameSkeleton(name), nameSkeleton(canonical));
for (const [name, variants] of GIVEN_VARIANTS) VARIANTS.set(nameSkeleton(name), variants.map(nameSkeleton));

export interface PersonQuery {
  /** Ways to read the name: the words as written, then with one pair of adjacent words joined. */
  readings: string[][];
  /** Words to look up, each with the index of the query word it stands for (bit in the hit mask). */
  lookups: [string, number][];
  /** Word similarities already computed for this query (candidates share most of their words). */
  memo: Map<string, number>;
}

/** A query name, or null when it has no word. */
export function personQuery(full: string): PersonQuery | null {
  const words = personTokens(full).filter((w) => w.length > 0);
  if (words.length === 0) return null;
  const readings = [words];
  // Joined pairs: a space typed inside a word, or a double surname written as one word (two words
  // joined into one would only compare as a one-word name, which never beats the words apart).
  for (let i = 0; i + 1 < words.length && i < 4 && words.length > 2; i++) {
    readings.push([
      ...words.slice(0, i),
      (words[i] as string) + (words[i + 1] as string),
      ...words.slice(i + 2),
    ]);
  }
  const lookups: [string, number][] = [];
  const add = (w: string, slot: number) => {
    if (w.length >= 2 && !lookups.some(([x]) => x === w)) lookups.push([w, Math.min(slot, 6)]);
  };
  words.forEach((w, i) => add(w, i));
  for (let i = 0; i + 1 < words.length && i < 4; i++) add((words[i] as string) + (words[i + 1] as string), i);
  // Nickname forms of the first and last words (the last: a "Smith John" order).
  for (const i of new Set([0, words.length - 1])) {
    for (const v of VARIANTS.get(words[i] as string) ?? []) add(v, i);
  }
  return { readings, lookups, memo: new Map() };
}

/**
 * Similarity of two name words in [0, 1]: 1 equal, nickname forms 0.93 (when `given`), an initial 0.8,
 * a truncation 0.85, otherwise Jaro-Winkler.
 */
export function wordSimilarity(a: string, b: string, given: boolean): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 1 || lb === 1) return given && a.charCodeAt(0) === b.charCodeAt(0) ? 0.8 : 0;
  if (given) {
    const ca = CANON.get(a);
    if (ca !== undefined && ca === CANON.get(b)) return 0.93;
  }
  const jw = jaroWinkler(a, b);
  if (la >= 3 && lb >= 3 && jw < 0.85 && (la < lb ? b.startsWith(a) : a.startsWith(b))) return 0.85;
  return jw;
}

/** {@link wordSimilarity} remembered per query. */
function similar(memo: Map<string, number>, a: string, b: string, given: boolean): number {
  if (a === b) return 1;
  const key = given ? `${a} ${b}` : `${a}|${b}`;
  let s = memo.get(key);
  if (s === undefined) {
    s = wordSimilarity(a, b, given);
    if (memo.size < 4096) memo.set(key, s);
  }
  return s;
}

/** Family-name particles: "de" agreeing says nothing about "de Vries" versus "de Jong". */
const PARTICLES: ReadonlySet<string> = new Set(
  'al,ap,bin,ben,da,dal,de,del,della,der,des,di,do,dos,du,el,la,le,mac,st,ten,ter,van,von,zu'.split(','),
);

/** Best similarity of the family part: any later word of one name against any later word of the other. */
function familySimilarity(
  memo: Map<string, number>,
  q: readonly string[],
  qFrom: number,
  qTo: number,
  c: readonly string[],
  cFrom: number,
): number {
  let best = 0;
  const ql = qTo - 1;
  const cl = c.length - 1;
  for (let i = qFrom; i < qTo; i++) {
    if (i < ql && PARTICLES.has(q[i] as string)) continue;
    for (let j = cFrom; j < c.length; j++) {
      if (j < cl && PARTICLES.has(c[j] as string)) continue;
      let s = similar(memo, q[i] as string, c[j] as string, false);
      if (i !== ql || j !== cl) s *= 0.97; // a middle word standing for the family name
      if (s > best) best = s;
      if (best === 1) return 1;
    }
  }
  return best;
}

/**
 * A part that disagrees counts for less than its raw similarity: "Liam Adams" and "Michael Adams" are
 * two people, not a 0.75-similar one (Jaro-Winkler gives unrelated names 0.4–0.6).
 */
const agree = (x: number) => (x >= 0.8 ? x : Math.max(0, x - 0.3));

/** Given-family similarity of one reading against stored words, either order; 0.5 stands for a missing part. */
function readingScore(memo: Map<string, number>, q: readonly string[], c: readonly string[]): number {
  const qn = q.length;
  const cn = c.length;
  if (qn === 1 || cn === 1) {
    // One part missing on one side: the present word against either part of the other name.
    const one = qn === 1 ? (q[0] as string) : (c[0] as string);
    const other = qn === 1 ? c : q;
    let s = 0;
    for (let i = 0; i < other.length; i++) s = Math.max(s, similar(memo, one, other[i] as string, i === 0));
    return qn === 1 && cn === 1 ? s : 0.5 * agree(s) + 0.25;
  }
  const straight =
    0.5 * agree(similar(memo, q[0] as string, c[0] as string, true)) +
    0.5 * agree(familySimilarity(memo, q, 1, qn, c, 1));
  if (straight >= 0.97) return straight;
  // Family name first ("Smith John", "Smith J"): the last query word is the given name.
  const swapped =
    0.97 *
    (0.5 * agree(similar(memo, q[qn - 1] as string, c[0] as string, true)) +
      0.5 * agree(familySimilarity(memo, q, 0, qn - 1, c, 1)));
  return Math.max(straight, swapped);
}

/** Similarity in [0, 1] of a query and a stored name (its words joined by spaces). */
export function personNameScore(query: PersonQuery, stored: string): number {
  if (stored.length === 0) return 0;
  const c = stored.split(' ');
  let best = readingScore(query.memo, query.readings[0] as string[], c);
  for (let r = 1; r < query.readings.length && best < 1; r++) {
    best = Math.max(best, 0.98 * readingScore(query.memo, query.readings[r] as string[], c));
  }
  return best;
}

/** Companies with at most this many people are read whole. */
const SCAN_COMPANY = 32;
/** A word's postings at most this long are read whole; longer runs only confirm hits of other words. */
const OPEN_RUN = 256;

/** Scratch marks per index (one per data version; the matcher runs on one thread). */
const scratch = new WeakMap<ProspectMatchIndex, { stamp: Int32Array; mask: Uint8Array; gen: number }>();

/** The range of `index.wordPost` holding word `wid`'s prospects of business `b`. */
function companyRun(index: ProspectMatchIndex, wid: number, b: number): [number, number] {
  const { wordPost, business } = index;
  const start = index.wordStart[wid] as number;
  const end = index.wordStart[wid + 1] as number;
  // Runs are ordered by employer, prospects without one (-1) last.
  const key = (i: number) => {
    const e = business[wordPost[i] as number] as number;
    return e < 0 ? Infinity : e;
  };
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(mid) < b) lo = mid + 1;
    else hi = mid;
  }
  let top = lo;
  hi = end;
  while (top < hi) {
    const mid = (top + hi) >> 1;
    if (key(mid) <= b) top = mid + 1;
    else hi = mid;
  }
  return [lo, top];
}

/** Word ids a query word may stand for: itself and its one-deletion neighbours (typos, swapped letters). */
function wordsNear(index: ProspectMatchIndex, w: string): number[] {
  const out: number[] = [];
  const exact = index.wordId.get(w);
  if (exact !== undefined) out.push(exact);
  if (w.length < MIN_FUZZY_WORD) return out;
  for (const d of deletions(w)) {
    const near = index.wordNear.get(d);
    if (near === undefined) continue;
    if (typeof near === 'number') {
      if (!out.includes(near)) out.push(near);
    } else for (const id of near) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * Prospects of the given companies whose names are near the query, scored in [0, 1] (name similarity
 * weighted 0.85, the company's score 0.15), best first. Reads only the postings of the query's words
 * and their typo neighbours within each company, never every employee.
 */
export function searchPersonName(
  index: ProspectMatchIndex,
  query: PersonQuery,
  companies: readonly Scored[],
): Scored[] {
  let s = scratch.get(index);
  if (s === undefined) {
    s = { stamp: new Int32Array(index.size), mask: new Uint8Array(index.size), gen: 0 };
    scratch.set(index, s);
  }
  const out: Scored[] = [];
  let near: (readonly [number[], number])[] | null = null;
  for (const company of companies) {
    const first = index.memberStart[company.pos] as number;
    const last = index.memberStart[company.pos + 1] as number;
    if (last - first <= SCAN_COMPANY) {
      // A small company: reading its few people is cheaper than looking up the words.
      for (let m = first; m < last; m++) {
        const pos = index.members[m] as number;
        const score = personNameScore(query, index.names[pos] as string);
        if (score > 0) out.push({ pos, score: 0.85 * score + 0.15 * company.score });
      }
      continue;
    }
    near ??= query.lookups.map(([w, slot]) => [wordsNear(index, w), slot] as const);
    s.gen = (s.gen + 1) | 0;
    if (s.gen === 0) {
      s.stamp.fill(0);
      s.gen = 1;
    }
    const { stamp, mask, gen } = s;
    const touched: number[] = [];
    for (const open of [true, false]) {
      for (const [wids, slot] of near) {
        for (const wid of wids) {
          const [lo, hi] = companyRun(index, wid, company.pos);
          if (hi - lo > OPEN_RUN === open) continue;
          for (let i = lo; i < hi; i++) {
            const pos = index.wordPost[i] as number;
            if (stamp[pos] !== gen) {
              if (!open) continue; // long runs only confirm what the short ones found
              stamp[pos] = gen;
              mask[pos] = 0;
              touched.push(pos);
            }
            mask[pos] = (mask[pos] as number) | (1 << slot);
          }
        }
      }
    }
    // Candidates found through long runs alone: those two different query words both point at.
    for (const [wids, slot] of near) {
      if (slot !== 0) continue;
      for (const wid of wids) {
        const [lo, hi] = companyRun(index, wid, company.pos);
        if (hi - lo <= OPEN_RUN) continue;
        for (const [wids2, slot2] of near) {
          if (slot2 === 0) continue;
          for (const wid2 of wids2) {
            const [lo2, hi2] = companyRun(index, wid2, company.pos);
            if (hi2 - lo2 <= OPEN_RUN) continue;
            intersect(index.wordPost, lo, hi, lo2, hi2, (pos) => {
              if (stamp[pos] !== gen) {
                stamp[pos] = gen;
                mask[pos] = 3;
                touched.push(pos);
              }
            });
          }
        }
      }
    }
    for (const pos of touched) {
      const score = personNameScore(query, index.names[pos] as string);
      if (score > 0) out.push({ pos, score: 0.85 * score + 0.15 * company.score });
    }
  }
  out.sort((a, b) => b.score - a.score || a.pos - b.pos);
  return out;
}

/** Calls `hit` for every position in both sorted runs (within one company, positions ascend). */
function intersect(
  post: Int32Array,
  a: number,
  ae: number,
  b: number,
  be: number,
  hit: (pos: number) => void,
): void {
  while (a < ae && b < be) {
    const x = post[a] as number;
    const y = post[b] as number;
    if (x === y) {
      hit(x);
      a++;
      b++;
    } else if (x < y) a++;
    else b++;
  }
}
