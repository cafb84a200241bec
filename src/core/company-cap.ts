/**
 * `max_per_company`: at most N prospects per `business_id` in a fetch result.
 *
 * The rule that picks the kept ones: inside each business, prospects are ranked by their most senior job
 * level (the main `job_level` or any value of `job_level_array`, in the order of `SENIORITY`; no level
 * ranks last), then by snapshot order; the first N of that ranking among the matching prospects are
 * kept. Prospects without a business are never capped. The capped set is an ordinary bitset, so the page
 * order (snapshot order), offset pages, cursors and `total_results` all work on it unchanged: a cursor
 * walk and an offset walk give the same sequence.
 *
 * Cost. A small matching set: count its rows per business and re-rank only the businesses that
 * overflow (one visit per matching row). A large one: per N, two bitsets are kept (built once, in
 * business order): `keep`, the first N ranked prospects of every business holding more than N, and
 * `excess`, the rest of those businesses. Removing `excess` from the set is the answer for every
 * business whose `keep` rows all match. The others (marked from `keep & ~set`, word by word, in a
 * bitset of businesses) promote rows from past their first N, but only if they own a matching row
 * there: that is found first, from the rarer side (`excess & set` marks owners; `excess & ~set` counts
 * non-matching rows per business), because with filters that follow companies most marked businesses
 * own none and walking their rankings to the end cost 6–7 ms at 1M. The remaining ones are visited in
 * business order (their rankings then come in memory order) and their promoted rows put back. For the
 * unfiltered set that is a few word operations per 32 rows.
 */
import { kind, type Context } from '../runtime/context.js';
import { Bitset, popcount32 } from '../indexes/bitset.js';
import { prospectIndex } from '../indexes/prospects.js';

/** Most senior first. Job levels not listed here (none today) rank with "no level". */
export const SENIORITY = [
  'owner',
  'founder',
  'c-suite',
  'president',
  'partner',
  'vice president',
  'board member',
  'director',
  'senior manager',
  'manager',
  'advisor',
  'senior non-managerial',
  'non-managerial',
  'freelancer',
  'junior',
  'training',
  'unpaid',
] as const;

interface CompanyRanking {
  /** Business rowid of each prospect rowid, -1 when it has none. */
  businessOf: Int32Array;
  /** Prospects of business b, ranked by the rule: `ranked[start[b] .. start[b + 1])`. */
  start: Uint32Array;
  ranked: Uint32Array;
  /** Businesses holding ≥ 2 prospects, largest first, and the running sum of their sizes. */
  bySize: Uint32Array;
  rowsUpTo: Float64Array;
  /** Saturating per-business counters, zero between requests. */
  counts: Uint8Array;
  /** Two bitsets of businesses, zero between requests. */
  visit: Uint32Array;
  owners: Uint32Array;
  /** `keep` / `excess` bitsets per N (built on first use, a few N kept). */
  tiers: Map<number, Tier>;
}

/** For one N: the first N ranked prospects of every business holding more than N, and the rest. */
interface Tier {
  keep: Bitset;
  excess: Bitset;
  /** Rows in `excess`. */
  excessRows: number;
}

function ranking(engine: Context): CompanyRanking {
  return engine.indexes.get(COMPANY_RANKING);
}

const COMPANY_RANKING = kind(
  'search.companyRanking',
  (e): CompanyRanking => {
    const index = prospectIndex(e);
    const { start, ids } = index.byBusiness;
    const businesses = start.length - 1;
    const size = index.size;
    const businessOf = new Int32Array(size).fill(-1);
    for (let b = 0; b < businesses; b++) {
      for (let i = start[b]!; i < start[b + 1]!; i++) businessOf[ids[i]!] = b;
    }
    // Seniority rank per row: the best of its levels (the facet holds main and array levels alike).
    const none = SENIORITY.length;
    const rank = new Uint8Array(size).fill(none);
    const levels = index.facets.jobLevel;
    SENIORITY.forEach((level, r) => {
      const id = levels.keys.get(level);
      if (id === undefined) return;
      const posting = levels.postings[id]!;
      const mark = (row: number) => {
        if (r < rank[row]!) rank[row] = r;
      };
      if (posting instanceof Uint32Array) posting.forEach(mark);
      else {
        const w = posting.words;
        for (let i = 0; i < w.length; i++) {
          let word = w[i]!;
          while (word !== 0) {
            const t = word & -word;
            mark((i << 5) + (31 - Math.clz32(t)));
            word ^= t;
          }
        }
      }
    });
    // Counting sort by rank (stable: rows ascending inside a rank), then distribute into the business
    // groups in that order, so each group comes out ranked by (seniority, snapshot order).
    const perRank = new Uint32Array(none + 2);
    for (let i = 0; i < ids.length; i++) perRank[rank[ids[i]!]! + 1]!++;
    for (let r = 1; r < perRank.length; r++) perRank[r]! += perRank[r - 1]!;
    const byRank = new Uint32Array(ids.length);
    for (let row = 0; row < size; row++) {
      if (businessOf[row]! >= 0) byRank[perRank[rank[row]!]!++] = row;
    }
    const fill = start.slice(0, businesses);
    const ranked = new Uint32Array(ids.length);
    for (let i = 0; i < byRank.length; i++) {
      const row = byRank[i]!;
      const b = businessOf[row]!;
      ranked[fill[b]!++] = row;
    }
    const big: number[] = [];
    for (let b = 0; b < businesses; b++) if (start[b + 1]! - start[b]! >= 2) big.push(b);
    big.sort((a, b) => start[b + 1]! - start[b]! - (start[a + 1]! - start[a]!) || a - b);
    const bySize = Uint32Array.from(big);
    const rowsUpTo = new Float64Array(bySize.length + 1);
    for (let i = 0; i < bySize.length; i++) {
      const b = bySize[i]!;
      rowsUpTo[i + 1] = rowsUpTo[i]! + start[b + 1]! - start[b]!;
    }
    return {
      businessOf,
      start,
      ranked,
      bySize,
      rowsUpTo,
      counts: new Uint8Array(businesses),
      visit: new Uint32Array((businesses + 31) >>> 5),
      owners: new Uint32Array((businesses + 31) >>> 5),
      tiers: new Map(),
    };
  },
  'entities',
);

/** Number of businesses holding more than `n` prospects (a prefix of `bySize`). */
function overflowing(r: CompanyRanking, n: number): number {
  let lo = 0;
  let hi = r.bySize.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const b = r.bySize[mid]!;
    if (r.start[b + 1]! - r.start[b]! > n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Keeps, in `set`, the first `n` matching prospects of each business by the rule (in place). */
function keepFirst(set: Bitset, r: CompanyRanking, b: number, n: number): void {
  const w = set.words;
  let kept = 0;
  for (let i = r.start[b]!; i < r.start[b + 1]!; i++) {
    const row = r.ranked[i]!;
    const bit = 1 << (row & 31);
    if ((w[row >>> 5]! & bit) === 0) continue;
    if (kept < n) kept++;
    else w[row >>> 5]! &= ~bit;
  }
}

const TIERS_KEPT = 8;

function tiers(r: CompanyRanking, n: number, size: number): Tier {
  let t = r.tiers.get(n);
  if (t) return t;
  t = { keep: new Bitset(size), excess: new Bitset(size), excessRows: 0 };
  const keep = t.keep.words;
  const excess = t.excess.words;
  const { start, ranked } = r;
  // Businesses in rowid order: their rankings are read front to back.
  for (let b = 0; b + 1 < start.length; b++) {
    const first = start[b]!;
    const end = start[b + 1]!;
    if (end - first <= n) continue;
    for (let i = first; i < end; i++) {
      const row = ranked[i]!;
      (i - first < n ? keep : excess)[row >>> 5]! |= 1 << (row & 31);
    }
    t.excessRows += end - first - n;
  }
  if (r.tiers.size >= TIERS_KEPT) r.tiers.delete(r.tiers.keys().next().value!);
  r.tiers.set(n, t);
  return t;
}

/** Applies `max_per_company = n` to a matching set of prospect rowids, in place. */
export function capPerCompany(engine: Context, set: Bitset, n: number): void {
  const r = ranking(engine);
  const heavy = overflowing(r, n);
  if (heavy === 0) return;
  const w = set.words;
  let matching = 0;
  for (let i = 0; i < w.length; i++) if (w[i] !== 0) matching += popcount32(w[i]!);
  // A set smaller than a tenth of the overflowing businesses' rows is cheaper to count row by row.
  if (matching * 10 < r.rowsUpTo[heavy]!) sparse(set, r, n);
  else dense(set, r, n, tiers(r, n, w.length << 5));
}

function sparse(set: Bitset, r: CompanyRanking, n: number): void {
  // Count matches per business (saturating at n + 1), re-rank only those that overflow.
  const w = set.words;
  const { counts, businessOf } = r;
  const over: number[] = [];
  const touched: number[] = [];
  for (let i = 0; i < w.length; i++) {
    let word = w[i]!;
    while (word !== 0) {
      const t = word & -word;
      word ^= t;
      const b = businessOf[(i << 5) + (31 - Math.clz32(t))]!;
      if (b < 0) continue;
      const c = counts[b]!;
      if (c === 0) touched.push(b);
      if (c <= n) {
        counts[b] = c + 1;
        if (c === n) over.push(b);
      }
    }
  }
  for (const b of touched) counts[b] = 0;
  // In business order: their rankings are then read in memory order.
  for (const b of Uint32Array.from(over).sort()) keepFirst(set, r, b, n);
}

function dense(set: Bitset, r: CompanyRanking, n: number, t: Tier): void {
  const w = set.words;
  const keep = t.keep.words;
  const excess = t.excess.words;
  const { businessOf, visit, owners, start, ranked } = r;
  // Businesses whose first N rows all match keep exactly those: dropping `excess` is their answer.
  // The others, marked in `visit` (a bitset of businesses) from the first-N rows the set misses,
  // may promote matching rows from past their first N.
  let missing = 0;
  let over = 0;
  for (let i = 0; i < w.length; i++) {
    const x = w[i]! & excess[i]!;
    if (x !== 0) over += popcount32(x);
    let word = keep[i]! & ~w[i]!;
    while (word !== 0) {
      const bit = word & -word;
      word ^= bit;
      const b = businessOf[(i << 5) + (31 - Math.clz32(bit))]!;
      visit[b >>> 5]! |= 1 << (b & 31);
      missing++;
    }
  }
  // At most one promoted row per missing one.
  const promoted = new Uint32Array(missing > 0 && over > 0 ? missing : 0);
  let promotions = 0;
  if (missing > 0 && over > 0) {
    // Only a marked business owning a matching row past its first N promotes; walking the others'
    // rankings to their end finds nothing, and with filters that follow companies (a company size,
    // a public company) they are most of the marked ones, and the largest. For a narrow set the
    // owners are found first, from the matching rows past the first N (few). For a broad one the
    // marked businesses are walked directly: an owner stops at its first matching rows, and the
    // walks that find nothing read only rows past the first N that miss the set, fewer than a
    // pass counting those rows per business would visit (that pass cost 3–8 ms at 1M).
    const direct = over > t.excessRows - over;
    if (!direct) {
      for (let i = 0; i < w.length; i++) {
        let word = excess[i]! & w[i]!;
        while (word !== 0) {
          const bit = word & -word;
          word ^= bit;
          const b = businessOf[(i << 5) + (31 - Math.clz32(bit))]!;
          owners[b >>> 5]! |= 1 << (b & 31);
        }
      }
    }
    // Visited in business order: a business's ranking sits at a random place in memory, and in the
    // order their rows came up each visit cost a cache miss or two.
    for (let j = 0; j < visit.length; j++) {
      let word = direct ? visit[j]! : visit[j]! & owners[j]!;
      while (word !== 0) {
        const bit = word & -word;
        word ^= bit;
        const b = (j << 5) + (31 - Math.clz32(bit));
        const first = start[b]!;
        const end = start[b + 1]!;
        let need = 0;
        for (let i = first; i < first + n; i++) {
          const row = ranked[i]!;
          if ((w[row >>> 5]! & (1 << (row & 31))) === 0) need++;
        }
        for (let i = first + n; i < end && need > 0; i++) {
          const row = ranked[i]!;
          if ((w[row >>> 5]! & (1 << (row & 31))) === 0) continue;
          promoted[promotions++] = row;
          need--;
        }
      }
    }
    if (!direct) owners.fill(0);
  }
  if (missing > 0) visit.fill(0);
  if (over === 0) return;
  for (let i = 0; i < w.length; i++) w[i]! &= ~excess[i]!;
  for (let k = 0; k < promotions; k++) {
    const row = promoted[k]!;
    w[row >>> 5]! |= 1 << (row & 31);
  }
}
