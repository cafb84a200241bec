/**
 * String key → dense id (0..n-1 in insertion order) in typed arrays: an open-addressing table with
 * linear probing whose slots hold the key's 32-bit hash and its id, so a lookup reads one slot (8 bytes)
 * and, when the hash matches, where the key's characters are (`offsets`) and the characters — instead
 * of chasing a `Map` entry to a heap string. The slots do not repeat `offsets` (where a key starts and
 * its length): a hash match on a miss is rare, and the table is a third of the size. Keys are kept in ONE buffer of code units (bytes
 * when every key is Latin-1, as domains, e-mails, phones and slugs are; UTF-16 units otherwise) plus
 * `offsets`. Lookups hash and compare through `charCodeAt`: they allocate nothing.
 *
 * Immutable once built ({@link StringKeyTableBuilder}); saved and reopened as typed arrays without
 * copying ({@link StringKeyTable.toSections}, {@link StringKeyTable.fromSections}).
 */
import { hashFolded, hashString } from './string-hash.js';
import { check, sectionArray, sectionCount, type Sections } from './sections.js';

/** Slot layout, 2 × uint32: hash, id + 1 (0 = empty); the key's code units are at `offsets[id]`. */
const STRIDE = 2;
/** Above this share of used slots the builder doubles the table (probe runs stay short). */
export const MAX_LOAD = 0.7;
const WHAT = 'StringKeyTable';

export class StringKeyTable {
  /** Number of distinct keys. */
  readonly size: number;
  private readonly mask: number;
  /** The units as a Buffer (made by the first `keyAt`). */
  private bytes: Buffer | undefined;

  private constructor(
    private readonly slots: Uint32Array,
    private readonly units: Uint8Array | Uint16Array,
    private readonly offsets: Uint32Array,
  ) {
    this.size = offsets.length - 1;
    this.mask = slots.length / STRIDE - 1;
  }

  /**
   * The id of `key`, -1 when absent.
   * @example table.get('acme.com') // → 17
   */
  get(key: string): number {
    const slots = this.slots;
    const units = this.units;
    const offsets = this.offsets;
    const mask = this.mask;
    const len = key.length;
    const h = hashString(key);
    let i = h & mask;
    // Bounded by the capacity: a table read back from damaged bytes may have no empty slot left.
    for (let probes = 0; probes <= mask; probes++) {
      const at = i * STRIDE;
      const id1 = slots[at + 1] as number;
      if (id1 === 0) return -1;
      // A damaged id past the offsets reads undefined: NaN lengths never match.
      const start = slots[at] === h ? (offsets[id1 - 1] as number) : -1;
      if (start >= 0 && (offsets[id1] as number) - start === len) {
        let j = 0;
        while (j < len && units[start + j] === key.charCodeAt(j)) j++;
        if (j === len) return id1 - 1;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  /**
   * The id of `s.slice(start, end)` with ASCII capitals read as small letters, -1 when absent: a key
   * read straight out of the input ("https://WWW.Acme.com/about") without slicing or lower-casing it.
   * Other capitals are compared as they are (callers pass ASCII ranges, or keys never hold them).
   */
  getFolded(s: string, start: number, end: number): number {
    const slots = this.slots;
    const units = this.units;
    const offsets = this.offsets;
    const mask = this.mask;
    const len = end - start;
    const h = hashFolded(s, start, end);
    let i = h & mask;
    for (let probes = 0; probes <= mask; probes++) {
      const at = i * STRIDE;
      const id1 = slots[at + 1] as number;
      if (id1 === 0) return -1;
      const first = slots[at] === h ? (offsets[id1 - 1] as number) : -1;
      if (first >= 0 && (offsets[id1] as number) - first === len) {
        const from = first - start;
        let j = start;
        for (; j < end; j++) {
          let c = s.charCodeAt(j);
          if (c >= 65 && c <= 90) c += 32;
          if (units[from + j] !== c) break;
        }
        if (j === end) return id1 - 1;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  has(key: string): boolean {
    return this.get(key) >= 0;
  }

  /** The key of id `id` (a new string: for listing, not for lookups). */
  keyAt(id: number): string {
    if (!(id >= 0 && id < this.size)) throw new RangeError(`${WHAT}: no key ${id}`);
    this.bytes ??= Buffer.from(this.units.buffer, this.units.byteOffset, this.units.byteLength);
    return decodeUnits(this.bytes, this.units, this.offsets[id] as number, this.offsets[id + 1] as number);
  }

  /** Bytes held by the arrays. */
  get byteLength(): number {
    return this.slots.byteLength + this.units.byteLength + this.offsets.byteLength;
  }

  /** Code units of every key together. */
  get unitCount(): number {
    return this.units.length;
  }

  /** The arrays to store (see {@link StringKeyTable.fromSections}). */
  toSections(): Sections {
    return { slots: this.slots, units: this.units, offsets: this.offsets, size: this.size };
  }

  /**
   * A table over arrays from {@link StringKeyTable.toSections}, wrapped as they are (no copy): checks
   * their shapes in O(1), never their contents, so opening does not grow with the number of keys.
   */
  static fromSections(s: Sections): StringKeyTable {
    const slots = sectionArray(s, 'slots', Uint32Array, WHAT);
    const offsets = sectionArray(s, 'offsets', Uint32Array, WHAT);
    const u = s.units;
    check(
      u instanceof Uint8Array || u instanceof Uint16Array,
      WHAT,
      'section "units" must be a Uint8Array or Uint16Array',
    );
    const units = u as Uint8Array | Uint16Array;
    const size = sectionCount(s, 'size', WHAT);
    const capacity = slots.length / STRIDE;
    check(
      Number.isInteger(capacity) && capacity > 0 && (capacity & (capacity - 1)) === 0,
      WHAT,
      'slot count must be a power of two',
    );
    check(offsets.length === size + 1, WHAT, `offsets must hold size + 1 = ${size + 1} entries`);
    check(size < capacity, WHAT, 'more keys than slots');
    check(offsets[0] === 0 && offsets[size] === units.length, WHAT, 'offsets do not span the key units');
    return new StringKeyTable(slots, units, offsets);
  }

  /**
   * @internal This table's keys dealt into `2 ** bits` tables by the high `bits` of their hash (the
   * shards of `splitKeys`), each key keeping its order: key `id` is key `local[id]` of table
   * `shard[id]`. Works on the arrays (each key's hash is read from its slot), where adding every key
   * again to builders decoded each one to a string and hashed it twice (0.4 s of a 100k-prospect index
   * build, 1.2 s on a busy box).
   */
  splitByHash(bits: number): { tables: StringKeyTable[]; shard: Uint32Array; local: Uint32Array } {
    const { slots, units, offsets, size } = this;
    const hashOf = new Uint32Array(size);
    for (let at = 0; at < slots.length; at += STRIDE) {
      const id1 = slots[at + 1] as number;
      if (id1 !== 0) hashOf[id1 - 1] = slots[at] as number;
    }
    const count = 2 ** bits;
    const keys = new Uint32Array(count);
    const used = new Uint32Array(count);
    const wide = new Uint8Array(count);
    const shard = new Uint32Array(size);
    const local = new Uint32Array(size);
    for (let id = 0; id < size; id++) {
      const s = bits === 0 ? 0 : (hashOf[id] as number) >>> (32 - bits);
      shard[id] = s;
      local[id] = keys[s]!++;
      const from = offsets[id] as number;
      const to = offsets[id + 1] as number;
      used[s] = (used[s] as number) + to - from;
      if (units instanceof Uint16Array && wide[s] === 0) {
        for (let j = from; j < to; j++) if ((units[j] as number) > 0xff) wide[s] = 1;
      }
    }
    const parts = Array.from({ length: count }, (_, s) => {
      // The capacity a builder ends with after adding this many keys.
      let capacity = 16;
      while (keys[s]! > capacity * MAX_LOAD) capacity *= 2;
      return {
        slots: new Uint32Array(capacity * STRIDE),
        mask: capacity - 1,
        units: wide[s] ? new Uint16Array(used[s]!) : new Uint8Array(used[s]!),
        offsets: new Uint32Array(keys[s]! + 1),
        used: 0,
      };
    });
    for (let id = 0; id < size; id++) {
      const part = parts[shard[id]!]!;
      const k = local[id]!;
      const from = offsets[id] as number;
      const to = offsets[id + 1] as number;
      const out = part.units;
      let at = part.used;
      for (let j = from; j < to; j++) out[at++] = units[j] as number;
      part.used = at;
      part.offsets[k + 1] = part.used;
      const h = hashOf[id] as number;
      let i = h & part.mask;
      while (part.slots[i * STRIDE + 1] !== 0) i = (i + 1) & part.mask;
      part.slots[i * STRIDE] = h;
      part.slots[i * STRIDE + 1] = k + 1;
    }
    return { tables: parts.map((p) => new StringKeyTable(p.slots, p.units, p.offsets)), shard, local };
  }

  /**
   * @internal Each key's id, hash (read from its slot) and code units (`units[start .. end)`), in id
   * order, without making a string: what carries a table's keys into another builder
   * ({@link StringKeyTableBuilder.addUnits}).
   */
  forEachKey(
    fn: (id: number, hash: number, units: Uint8Array | Uint16Array, start: number, end: number) => void,
  ): void {
    const { slots, units, offsets, size } = this;
    const hashOf = new Uint32Array(size);
    for (let at = 0; at < slots.length; at += STRIDE) {
      const id1 = slots[at + 1] as number;
      if (id1 !== 0) hashOf[id1 - 1] = slots[at] as number;
    }
    for (let id = 0; id < size; id++) fn(id, hashOf[id]!, units, offsets[id]!, offsets[id + 1]!);
  }

  /** @internal The builder hands over its arrays. */
  static wrap(slots: Uint32Array, units: Uint8Array | Uint16Array, offsets: Uint32Array): StringKeyTable {
    return new StringKeyTable(slots, units, offsets);
  }
}

/** Builds a {@link StringKeyTable}: `add` each key (repeats return the first id), then `finish` once. */
export class StringKeyTableBuilder {
  private slots: Uint32Array;
  private mask: number;
  private units: Uint16Array;
  private used = 0;
  private offsets: Uint32Array;
  private n = 0;
  private wide = false;
  private done = false;

  /**
   * `expectedKeys`: room for that many keys without rehashing; `expectedUnits`: for that many code
   * units of keys (both hints; more may be added). Growing the arrays by doubling copied each and
   * faulted in fresh pages: 1.8 s of a 1M-prospect match index build, for its 3M keys.
   */
  constructor(expectedKeys = 0, expectedUnits = 0) {
    let capacity = 16;
    while (capacity * MAX_LOAD < expectedKeys) capacity *= 2;
    this.slots = new Uint32Array(capacity * STRIDE);
    this.mask = capacity - 1;
    this.units = new Uint16Array(Math.max(1024, expectedUnits));
    this.offsets = new Uint32Array(Math.max(64, expectedKeys + 1));
  }

  get size(): number {
    return this.n;
  }

  /** The id of `key`, given the next one when new. */
  add(key: string): number {
    if (this.done) throw new Error(`${WHAT}: add after finish`);
    const len = key.length;
    const h = hashString(key);
    let i = h & this.mask;
    for (;;) {
      const at = i * STRIDE;
      const id1 = this.slots[at + 1] as number;
      if (id1 === 0) break;
      const start = this.slots[at] === h ? (this.offsets[id1 - 1] as number) : -1;
      if (start >= 0 && (this.offsets[id1] as number) - start === len) {
        let j = 0;
        while (j < len && this.units[start + j] === key.charCodeAt(j)) j++;
        if (j === len) return id1 - 1;
      }
      i = (i + 1) & this.mask;
    }
    if (this.used + len > this.units.length) this.units = grow(this.units, this.used + len);
    for (let j = 0; j < len; j++) {
      const c = key.charCodeAt(j);
      if (c > 0xff) this.wide = true;
      this.units[this.used + j] = c;
    }
    return this.place(i, h, len);
  }

  /**
   * The id of the key whose code units are `units[start .. end)` and whose hash (`hashString` of it) is
   * `hash`, given the next one when new: {@link add} for a key read out of another table, without
   * making a string of it.
   */
  addUnits(hash: number, units: Uint8Array | Uint16Array, start: number, end: number): number {
    if (this.done) throw new Error(`${WHAT}: add after finish`);
    const len = end - start;
    const h = hash >>> 0;
    let i = h & this.mask;
    for (;;) {
      const at = i * STRIDE;
      const id1 = this.slots[at + 1] as number;
      if (id1 === 0) break;
      const from = this.slots[at] === h ? (this.offsets[id1 - 1] as number) : -1;
      if (from >= 0 && (this.offsets[id1] as number) - from === len) {
        let j = 0;
        while (j < len && this.units[from + j] === units[start + j]) j++;
        if (j === len) return id1 - 1;
      }
      i = (i + 1) & this.mask;
    }
    if (this.used + len > this.units.length) this.units = grow(this.units, this.used + len);
    this.units.set(units.subarray(start, end), this.used);
    if (units instanceof Uint16Array && !this.wide) {
      for (let j = start; j < end; j++) if ((units[j] as number) > 0xff) this.wide = true;
    }
    return this.place(i, h, len);
  }

  /** Files the key just written at `units[used .. used + len)` in free slot `i`; returns its id. */
  private place(i: number, h: number, len: number): number {
    const id = this.n;
    if (id + 2 > this.offsets.length) this.offsets = grow(this.offsets, id + 2);
    this.offsets[id + 1] = this.used + len;
    const at = i * STRIDE;
    this.slots[at] = h;
    this.slots[at + 1] = id + 1;
    this.used += len;
    this.n = id + 1;
    if (this.n > (this.mask + 1) * MAX_LOAD) this.rehash();
    return id;
  }

  /** The table (the builder is spent). Keys all Latin-1 → one byte per code unit. */
  finish(): StringKeyTable {
    if (this.done) throw new Error(`${WHAT}: finish called twice`);
    this.done = true;
    const units = this.wide
      ? this.units.slice(0, this.used)
      : Uint8Array.from(this.units.subarray(0, this.used));
    return StringKeyTable.wrap(this.slots, units, this.offsets.slice(0, this.n + 1));
  }

  private rehash(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    const slots = new Uint32Array(capacity * STRIDE);
    const mask = capacity - 1;
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at + 1] === 0) continue;
      let i = (old[at] as number) & mask;
      while (slots[i * STRIDE + 1] !== 0) i = (i + 1) & mask;
      slots.set(old.subarray(at, at + STRIDE), i * STRIDE);
    }
    this.slots = slots;
    this.mask = mask;
  }
}

function grow<T extends Uint16Array | Uint32Array>(a: T, need: number): T {
  let size = a.length * 2;
  while (size < need) size *= 2;
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a);
  return next;
}

/**
 * Units `[start, end)` (`bytes`: the same memory as a Buffer) as a string, decoded natively: one byte a
 * unit is Latin-1 (U+0000–U+00FF), two are UTF-16. 3M e-mail keys: 0.19 s, against 3.0 s spreading
 * each key's units into `String.fromCharCode` (a delta lists every key of the base's saved prospect
 * match index).
 */
function decodeUnits(bytes: Buffer, units: Uint8Array | Uint16Array, start: number, end: number): string {
  return units instanceof Uint8Array
    ? bytes.toString('latin1', start, end)
    : bytes.toString('utf16le', start * 2, end * 2);
}
