/**
 * The seeded random generators of the tools, the benches and the tests (one module, no library: the
 * same seed gives the same draws on every machine and Node version).
 *
 * - `Rng` (sfc32), the fixture generator's: every record gets its own generator derived from (seed,
 *   stream, index), so any record can be regenerated alone — events and lookalikes refer to other
 *   records without keeping them in memory. The committed demo snapshot depends on its exact draws.
 * - `mulberry32` and `Prng` over it: one stream from one seed, for drawing bench requests, perturbing
 *   rows and building test data. The bench's cached evaluation sets depend on its exact draws.
 */

/** A seeded stream of uniform draws in [0, 1) (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `mulberry32` with the draws the bench and its perturbations use. */
export class Prng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Stream tags: one per kind of record, so the same index gives unrelated draws in each stream. */
export const STREAM = {
  business: 1,
  plan: 2,
  prospect: 3,
  event: 4,
  enrichment: 5,
  name: 6,
  otherNames: 7,
} as const;

function mix32(x: number): number {
  // murmur3's finaliser: spreads consecutive indexes over the whole 32-bit space.
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const HEX = '0123456789abcdef';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream: number, index: number) {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(stream + 0x632be5ab);
    this.c = mix32(index ^ mix32(seed + stream));
    this.d = mix32(Math.floor(index / 0x100000000) + 1);
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** Next 32 random bits as an unsigned integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi], both included. */
  between(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `k` distinct items (fewer when the list is shorter), in draw order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const n = items.length;
    if (k >= n) return items.slice();
    const taken = new Set<number>();
    const out: T[] = [];
    while (out.length < k) {
      const i = Math.floor(this.next() * n);
      if (taken.has(i)) continue;
      taken.add(i);
      out.push(items[i] as T);
    }
    return out;
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) {
      let x = this.uint32();
      for (let i = 0; i < 8 && s.length < n; i++, x >>>= 4) s += HEX[x & 15];
    }
    return s;
  }

  /** Decimal digits as a string (phone numbers, postcodes). */
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }
}

/** A weighted choice over fixed items, decided by binary search over cumulative weights. */
export class Weighted<T> {
  private readonly cumulative: Float64Array;
  readonly items: readonly T[];

  constructor(entries: readonly (readonly [T, number])[]) {
    this.items = entries.map(([item]) => item);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, w], i) => (this.cumulative[i] = sum += w));
  }

  pick(rng: Rng): T {
    return this.items[this.indexFor(rng.next())] as T;
  }

  /** Index of the item that a uniform draw `u` ∈ [0, 1) falls on. */
  indexFor(u: number): number {
    const c = this.cumulative;
    const target = u * (c[c.length - 1] ?? 0);
    let lo = 0;
    let hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((c[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
