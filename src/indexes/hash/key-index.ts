/**
 * Exact key → one or several dense positions (entity positions in a match index), over a
 * {@link StringKeyTable}. Most keys name one entity, so `one[id]` holds that position directly and
 * `only` costs one table lookup and one array read; a key shared by several entities keeps them in CSR
 * arrays (`one[id] = -2 - group`, positions `values[start[group] .. start[group + 1])`, in the order
 * they were added, repeats dropped). Built by {@link KeyIndexBuilder}, immutable afterwards.
 */
import { StringKeyTable, StringKeyTableBuilder } from './string-key-table.js';
import { check, sectionArray, type Sections } from './sections.js';

const WHAT = 'KeyIndex';

export class KeyIndex {
  private constructor(
    private readonly table: StringKeyTable,
    private readonly one: Int32Array,
    private readonly start: Uint32Array,
    private readonly values: Uint32Array,
  ) {}

  /** Number of distinct keys. */
  get size(): number {
    return this.table.size;
  }

  /** Positions holding `key` (a fresh array: callers may keep or change it). */
  get(key: string): number[] {
    const id = this.table.get(key);
    if (id < 0) return [];
    const v = this.one[id] as number;
    if (v >= 0) return [v];
    const g = -2 - v;
    return Array.from(this.values.subarray(this.start[g] as number, this.start[g + 1] as number));
  }

  /**
   * The one position holding `key`, -1 when none, -2 when several.
   * @example index.only('acme.com') // → 42
   */
  only(key: string): number {
    const id = this.table.get(key);
    if (id < 0) return -1;
    const v = this.one[id] as number;
    return v >= 0 ? v : -2;
  }

  /** {@link KeyIndex.only} of `s.slice(start, end)`, ASCII capitals read as small letters (no strings made). */
  onlyFolded(s: string, start: number, end: number): number {
    const id = this.table.getFolded(s, start, end);
    if (id < 0) return -1;
    const v = this.one[id] as number;
    return v >= 0 ? v : -2;
  }

  has(key: string): boolean {
    return this.table.get(key) >= 0;
  }

  /** Every key with its positions, in the order the keys were first added (for tests and listing). */
  *entries(): IterableIterator<[string, number[]]> {
    for (let id = 0; id < this.table.size; id++) {
      const v = this.one[id] as number;
      const g = -2 - v;
      yield [
        this.table.keyAt(id),
        v >= 0 ? [v] : Array.from(this.values.subarray(this.start[g] as number, this.start[g + 1] as number)),
      ];
    }
  }

  /** Code units of every key together (a hint for a table that will hold them). */
  get unitCount(): number {
    return this.table.unitCount;
  }

  /** Bytes held by the arrays. */
  get byteLength(): number {
    return this.table.byteLength + this.one.byteLength + this.start.byteLength + this.values.byteLength;
  }

  /** The arrays to store: the table's sections plus `one`, `start`, `values`. */
  toSections(): Sections {
    return { ...this.table.toSections(), one: this.one, start: this.start, values: this.values };
  }

  /** An index over arrays from {@link KeyIndex.toSections}, wrapped without copying (O(1) checks). */
  static fromSections(s: Sections): KeyIndex {
    const table = StringKeyTable.fromSections(s);
    const one = sectionArray(s, 'one', Int32Array, WHAT);
    const start = sectionArray(s, 'start', Uint32Array, WHAT);
    const values = sectionArray(s, 'values', Uint32Array, WHAT);
    check(one.length === table.size, WHAT, `one must hold one entry per key (${table.size})`);
    check(start.length >= 1 && start[0] === 0, WHAT, 'start must begin at 0');
    check(start[start.length - 1] === values.length, WHAT, 'start does not span values');
    return new KeyIndex(table, one, start, values);
  }

  /** An index holding `pairs` ([key, position], in order). */
  static of(pairs: Iterable<readonly [string, number]>): KeyIndex {
    const b = new KeyIndexBuilder();
    for (const [k, p] of pairs) b.add(k, p);
    return b.finish();
  }

  /**
   * @internal This index dealt into `2 ** bits` indexes by key hash (see `splitKeys`): the same keys
   * with the same positions in the same order as adding each key's positions to a builder per shard.
   */
  splitByHash(bits: number): KeyIndex[] {
    const { tables, shard, local } = this.table.splitByHash(bits);
    const ones = tables.map((t) => new Int32Array(t.size));
    const starts = tables.map(() => [0]);
    const values = tables.map(() => [] as number[]);
    for (let id = 0; id < this.table.size; id++) {
      const s = shard[id] as number;
      const v = this.one[id] as number;
      if (v >= 0) {
        ones[s]![local[id]!] = v;
        continue;
      }
      const g = -2 - v;
      const out = values[s]!;
      for (let k = this.start[g] as number; k < (this.start[g + 1] as number); k++) out.push(this.values[k]!);
      ones[s]![local[id]!] = -2 - (starts[s]!.length - 1);
      starts[s]!.push(out.length);
    }
    return tables.map((t, s) =>
      KeyIndex.wrap(t, ones[s]!, Uint32Array.from(starts[s]!), Uint32Array.from(values[s]!)),
    );
  }

  /**
   * @internal Adds this index's keys to `builder` with their positions moved by `moved` (-1: dropped),
   * without making a string of any key: a delta carries the base's keys over to the positions of the
   * rows it left alone. A key none of whose positions is kept is not added.
   */
  carryInto(builder: KeyIndexBuilder, moved: (position: number) => number): void {
    this.table.forEachKey((id, hash, units, from, to) => {
      const v = this.one[id] as number;
      if (v >= 0) {
        const p = moved(v);
        if (p >= 0) builder.addUnits(hash, units, from, to, p);
        return;
      }
      const g = -2 - v;
      for (let k = this.start[g] as number; k < (this.start[g + 1] as number); k++) {
        const p = moved(this.values[k] as number);
        if (p >= 0) builder.addUnits(hash, units, from, to, p);
      }
    });
  }

  /** @internal */
  static wrap(table: StringKeyTable, one: Int32Array, start: Uint32Array, values: Uint32Array): KeyIndex {
    return new KeyIndex(table, one, start, values);
  }
}

/** Collects (key, position) pairs; `finish` groups them into a {@link KeyIndex}. */
export class KeyIndexBuilder {
  private readonly keys: StringKeyTableBuilder;
  private ids: Uint32Array;
  private positions: Uint32Array;
  private n = 0;

  /**
   * `expectedKeys`: room for that many keys (and pairs) without regrowing; `expectedUnits`: for that
   * many code units of keys (hints).
   */
  constructor(expectedKeys = 0, expectedUnits = 0) {
    this.keys = new StringKeyTableBuilder(expectedKeys, expectedUnits);
    this.ids = new Uint32Array(Math.max(1024, expectedKeys));
    this.positions = new Uint32Array(Math.max(1024, expectedKeys));
  }

  /** Files `position` (0 ≤ position < 2³¹) under `key`; a repeated pair is kept once. */
  add(key: string, position: number): void {
    checkPosition(position);
    this.pair(this.keys.add(key), position);
  }

  /** {@link add} for a key given by its hash and code units (see `StringKeyTableBuilder.addUnits`). */
  addUnits(
    hash: number,
    units: Uint8Array | Uint16Array,
    start: number,
    end: number,
    position: number,
  ): void {
    checkPosition(position);
    this.pair(this.keys.addUnits(hash, units, start, end), position);
  }

  private pair(id: number, position: number): void {
    if (this.n === this.ids.length) {
      this.ids = grow(this.ids);
      this.positions = grow(this.positions);
    }
    this.ids[this.n] = id;
    this.positions[this.n] = position;
    this.n++;
  }

  /**
   * Sorts the pairs by position, stably: a counting sort when the positions are dense, a comparison
   * sort when they are few across a wide range (a shard of a large table: its ~700 pairs spread over
   * a million positions would otherwise cost a 4 MB count array each).
   */
  private orderByPosition(): void {
    let max = -1;
    for (let p = 0; p < this.n; p++)
      if ((this.positions[p] as number) > max) max = this.positions[p] as number;
    if (max + 2 > 4 * this.n + 1024) {
      const order = new Uint32Array(this.n);
      for (let p = 0; p < this.n; p++) order[p] = p;
      const at = this.positions;
      order.sort((a, b) => (at[a] as number) - (at[b] as number) || a - b);
      const ids = new Uint32Array(this.n);
      const positions = new Uint32Array(this.n);
      for (let p = 0; p < this.n; p++) {
        ids[p] = this.ids[order[p] as number] as number;
        positions[p] = at[order[p] as number] as number;
      }
      this.ids = ids;
      this.positions = positions;
      return;
    }
    const start = new Uint32Array(max + 2);
    for (let p = 0; p < this.n; p++) start[(this.positions[p] as number) + 1]!++;
    for (let v = 1; v < start.length; v++) start[v]! += start[v - 1]!;
    const ids = new Uint32Array(this.n);
    const positions = new Uint32Array(this.n);
    for (let p = 0; p < this.n; p++) {
      const at = start[this.positions[p] as number]!++;
      ids[at] = this.ids[p] as number;
      positions[at] = this.positions[p] as number;
    }
    this.ids = ids;
    this.positions = positions;
  }

  /**
   * The index. A key's positions are in the order they were added; `byPosition` orders them
   * ascending instead (the order a build that adds rows in order gives), for pairs added out of order.
   */
  finish(byPosition = false): KeyIndex {
    if (byPosition) this.orderByPosition();
    const table = this.keys.finish();
    const size = table.size;
    const count = new Uint32Array(size);
    for (let p = 0; p < this.n; p++) {
      const id = this.ids[p] as number;
      count[id] = (count[id] as number) + 1;
    }
    // Keys added more than once: their positions, grouped by key in insertion order.
    const group = new Int32Array(size);
    let groups = 0;
    let grouped = 0;
    for (let id = 0; id < size; id++) {
      if ((count[id] as number) > 1) {
        group[id] = groups++;
        grouped += count[id] as number;
      }
    }
    const tmpStart = new Uint32Array(groups + 1);
    for (let id = 0, g = 0; id < size; id++)
      if ((count[id] as number) > 1) {
        tmpStart[g + 1] = (tmpStart[g] as number) + (count[id] as number);
        g++;
      }
    const tmp = new Uint32Array(grouped);
    const fill = tmpStart.slice(0, groups);
    const one = new Int32Array(size);
    for (let p = 0; p < this.n; p++) {
      const id = this.ids[p] as number;
      if (count[id] === 1) one[id] = this.positions[p] as number;
      else {
        const g = group[id] as number;
        tmp[fill[g] as number] = this.positions[p] as number;
        fill[g] = (fill[g] as number) + 1;
      }
    }
    // Repeats dropped: a key whose positions are all the same is a single-position key after all.
    const start = [0];
    const values = new Uint32Array(grouped);
    let out = 0;
    for (let id = 0; id < size; id++) {
      if ((count[id] as number) <= 1) continue;
      const g = group[id] as number;
      const from = out;
      const lo = tmpStart[g] as number;
      const hi = tmpStart[g + 1] as number;
      const seen = hi - lo > 16 ? new Set<number>() : null;
      for (let k = lo; k < hi; k++) {
        const v = tmp[k] as number;
        if (seen !== null) {
          if (seen.has(v)) continue;
          seen.add(v);
        } else if (values.subarray(from, out).includes(v)) continue;
        values[out++] = v;
      }
      if (out - from === 1) {
        one[id] = values[from] as number;
        out = from;
      } else {
        one[id] = -2 - (start.length - 1);
        start.push(out);
      }
    }
    this.ids = new Uint32Array(0);
    this.positions = new Uint32Array(0);
    return KeyIndex.wrap(table, one, Uint32Array.from(start), values.slice(0, out));
  }
}

function checkPosition(position: number): void {
  if (!(position >= 0 && position <= 0x7fffffff && Number.isInteger(position)))
    throw new RangeError(`${WHAT}: position ${position} out of range`);
}

function grow(a: Uint32Array): Uint32Array {
  const next = new Uint32Array(a.length * 2);
  next.set(a);
  return next;
}
