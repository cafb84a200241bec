/**
 * The dictionaries of the match indexes in typed arrays, over the hash tables of `indexes/hash`, with the
 * read API the matchers already use on `Map`s: {@link Ids} is a list of distinct strings and its inverse
 * (ids, vocabularies: `at(i)` and `get(key)`), {@link NearTable} maps a key to one id or several
 * (deletion neighbourhoods). Both are saved as the tables' sections and reopened without copying.
 */
import { KeyIndex, KeyIndexBuilder, StringKeyTable, StringKeyTableBuilder } from '../hash/index.js';
import type { Sections } from '../hash/index.js';
import { registerCodec } from './container.js';
import { unitReader, type StringColumn, type UnitReader } from './strings.js';

/** Distinct strings in id order, and string → id. */
export class Ids implements StringColumn {
  private readonly offsets: Uint32Array;
  private readonly read: UnitReader;

  private constructor(private readonly table: StringKeyTable) {
    const s = table.toSections();
    this.offsets = s.offsets as Uint32Array;
    this.read = unitReader(s.units as Uint8Array | Uint16Array);
  }

  /**
   * The ids of `keys` (each key's id is its position; keys must be distinct).
   * @example Ids.of(['acme', 'zenith']).get('zenith') // → 1
   */
  static of(keys: Iterable<string>): Ids {
    const b = new StringKeyTableBuilder();
    let n = 0;
    for (const k of keys) {
      if (b.add(k) !== n) throw new Error(`Ids: key ${JSON.stringify(k)} repeated`);
      n++;
    }
    return new Ids(b.finish());
  }

  get length(): number {
    return this.table.size;
  }

  get size(): number {
    return this.table.size;
  }

  /** The string of id `i` (undefined past the end, like an array). */
  at(i: number): string | undefined {
    return i >= 0 && i < this.table.size
      ? this.read(this.offsets[i] as number, this.offsets[i + 1] as number)
      : undefined;
  }

  /** The id of `key`, undefined when absent (as `Map.get`). */
  get(key: string): number | undefined {
    const id = this.table.get(key);
    return id < 0 ? undefined : id;
  }

  has(key: string): boolean {
    return this.table.get(key) >= 0;
  }

  get byteLength(): number {
    return this.table.byteLength;
  }

  toSections(): Sections {
    return this.table.toSections();
  }

  static fromSections(s: Sections): Ids {
    return new Ids(StringKeyTable.fromSections(s));
  }
}

/** Key → one id or several (as a `Map<string, number | number[]>` read through `get`). */
export class NearTable {
  private constructor(private readonly index: KeyIndex) {}

  /** A table of the (key, id) pairs `add` is given, in order (a pair given twice counts once). */
  static builder(): { add(key: string, id: number): void; finish(): NearTable } {
    const b = new KeyIndexBuilder();
    return { add: (k, id) => b.add(k, id), finish: () => new NearTable(b.finish()) };
  }

  get size(): number {
    return this.index.size;
  }

  /** The id under `key`, its ids when several, undefined when none. */
  get(key: string): number | readonly number[] | undefined {
    const one = this.index.only(key);
    if (one >= 0) return one;
    return one === -1 ? undefined : this.index.get(key);
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get byteLength(): number {
    return this.index.byteLength;
  }

  toSections(): Sections {
    return this.index.toSections();
  }

  static fromSections(s: Sections): NearTable {
    return new NearTable(KeyIndex.fromSections(s));
  }
}

registerCodec({
  name: 'Ids',
  type: Ids,
  toTree: (v) => v.toSections(),
  fromTree: (t) => Ids.fromSections(t as Sections),
});
registerCodec({
  name: 'NearTable',
  type: NearTable,
  toTree: (v) => v.toSections(),
  fromTree: (t) => NearTable.fromSections(t as Sections),
});
registerCodec({
  name: 'KeyIndex',
  type: KeyIndex,
  toTree: (v) => v.toSections(),
  fromTree: (t) => KeyIndex.fromSections(t as Sections),
});
