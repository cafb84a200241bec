/**
 * Many strings in typed arrays: one buffer of code units (one byte each when every string is Latin-1,
 * as ids, domains and name keys mostly are; UTF-16 units otherwise) plus a `Uint32Array` of offsets, so
 * a million names are three arrays instead of a million heap strings, saved and reopened as they are.
 * A string is decoded when it is read (`at`), never ahead.
 */
import { registerCodec } from './container.js';

/** What readers of a string column need: an array of strings satisfies it too. */
export interface StringColumn {
  readonly length: number;
  at(i: number): string | undefined;
}

/** A {@link StringColumn} whose entries may be null. */
export interface NullableStringColumn {
  readonly length: number;
  at(i: number): string | null | undefined;
}

/** `N` is `null` when entries may be null, `never` when none is. */
export class StringList<N extends null = null> implements NullableStringColumn {
  readonly length: number;
  private readonly read: UnitReader;

  private constructor(
    private readonly units: Uint8Array | Uint16Array,
    private readonly offsets: Uint32Array,
    /** 1 where the entry is null; empty when none is. */
    private readonly nulls: Uint8Array,
  ) {
    this.length = offsets.length - 1;
    this.read = unitReader(units);
  }

  /**
   * The strings of `values` (null kept as null).
   * @example StringList.of(['acme', null, 'zürich']).at(2) // → 'zürich'
   */
  static of(values: ArrayLike<string>): StringList<never>;
  static of(values: ArrayLike<string | null | undefined>): StringList;
  static of(values: ArrayLike<string | null | undefined>): StringList<null> {
    const n = values.length;
    let total = 0;
    let wide = false;
    let anyNull = false;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined) {
        anyNull = true;
        continue;
      }
      total += v.length;
      if (!wide) for (let j = 0; j < v.length; j++) if (v.charCodeAt(j) > 0xff) wide = true;
    }
    const units = wide ? new Uint16Array(total) : new Uint8Array(total);
    const offsets = new Uint32Array(n + 1);
    const nulls = anyNull ? new Uint8Array(n) : new Uint8Array(0);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined) nulls[i] = 1;
      else for (let j = 0; j < v.length; j++) units[at++] = v.charCodeAt(j);
      offsets[i + 1] = at;
    }
    return new StringList(units, offsets, nulls);
  }

  /** Entry `i` (undefined past the end, like an array). */
  at(i: number): string | N | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    if (this.nulls.length > 0 && this.nulls[i] === 1) return null as N;
    return this.read(this.offsets[i] as number, this.offsets[i + 1] as number);
  }

  /** Entry `i` as a string ('' when null or absent). */
  text(i: number): string {
    return this.at(i) ?? '';
  }

  /**
   * Entries `[start, end)` as a list of their own, saved with only its own bytes: the offsets a rebased
   * copy, the units a view, or a one-byte copy when the list is UTF-16 but these entries are Latin-1
   * (one name in another script would otherwise double every slice of a list cut in pages).
   * @example StringList.of(['a', 'bc', 'd']).slice(1, 3).at(0) // → 'bc'
   */
  slice(start: number, end: number): StringList<N> {
    const from = this.offsets[start] as number;
    const offsets = this.offsets.slice(start, end + 1);
    for (let i = 0; i < offsets.length; i++) offsets[i]! -= from;
    let units = this.units.subarray(from, this.offsets[end] as number);
    if (units instanceof Uint16Array && units.every((u) => u <= 0xff)) units = Uint8Array.from(units);
    const nulls = this.nulls.length > 0 ? this.nulls.slice(start, end) : this.nulls;
    return new StringList<N>(units, offsets, nulls);
  }

  /** Bytes held by the arrays. */
  get byteLength(): number {
    return this.units.byteLength + this.offsets.byteLength + this.nulls.byteLength;
  }

  toSections(): { units: Uint8Array | Uint16Array; offsets: Uint32Array; nulls: Uint8Array } {
    return { units: this.units, offsets: this.offsets, nulls: this.nulls };
  }

  /** A list over saved arrays, wrapped as they are (shape checks only: O(1)). */
  static fromSections(s: Record<string, unknown>): StringList<null> {
    const { units, offsets, nulls } = s;
    if (!(units instanceof Uint8Array || units instanceof Uint16Array))
      throw new Error('StringList: units must be a Uint8Array or Uint16Array');
    if (!(offsets instanceof Uint32Array) || offsets.length < 1)
      throw new Error('StringList: offsets must be a non-empty Uint32Array');
    if (!(nulls instanceof Uint8Array) || (nulls.length !== 0 && nulls.length !== offsets.length - 1))
      throw new Error('StringList: nulls must hold one byte per entry or none');
    if (offsets[0] !== 0 || offsets[offsets.length - 1] !== units.length)
      throw new Error('StringList: offsets do not span the units');
    return new StringList<null>(units, offsets, nulls);
  }
}

/** Decodes code units `[start, end)` of one buffer into a string. */
export type UnitReader = (start: number, end: number) => string;

/**
 * A decoder of `units` through a `Buffer` view of the same bytes (no copy): Node's Latin-1 / UTF-16
 * slices make a flat string in one native call, several times faster than building it from char codes.
 */
export function unitReader(units: Uint8Array | Uint16Array): UnitReader {
  const bytes = Buffer.from(units.buffer, units.byteOffset, units.byteLength);
  if (units instanceof Uint8Array) return (start, end) => bytes.toString('latin1', start, end);
  // UTF-16 units are stored in the machine's order, little-endian on every platform Node runs on.
  return (start, end) => bytes.toString('utf16le', start * 2, end * 2);
}

registerCodec({
  name: 'StringList',
  type: StringList,
  toTree: (v) => v.toSections(),
  fromTree: (t) => StringList.fromSections(t as Record<string, unknown>),
});

/** Pages read as they are asked for (a saved field's parts, see `SavedForm.listed` in `persist.ts`). */
export interface Pages<T> {
  readonly length: number;
  at(i: number): T;
  isRead(i: number): boolean;
}

/**
 * A column cut in pages of 2^`bits` entries, each read on first access: what {@link PagedStrings} and
 * `PagedInts` (`ints.ts`) share.
 */
export abstract class PagedColumn<P> {
  protected readonly mask: number;

  constructor(
    readonly length: number,
    protected readonly pages: Pages<P>,
    protected readonly bits: number,
  ) {
    this.mask = 2 ** bits - 1;
  }

  /** How many pages are in memory (read so far). */
  get pagesRead(): number {
    let n = 0;
    for (let p = 0; p < this.pages.length; p++) if (this.pages.isRead(p)) n++;
    return n;
  }
}

/**
 * A string column in pages: a first match that reads the names of a few hundred candidates reads their
 * pages, not the column (83 MB of prospect names at 5M). Saved by {@link stringPages}.
 */
export class PagedStrings extends PagedColumn<StringList> implements NullableStringColumn {
  at(i: number): string | null | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    return this.pages.at(i >>> this.bits).at(i & this.mask);
  }
}

/** `column` cut in pages of 2^`bits` entries (the last one shorter), for {@link PagedStrings}. */
export function stringPages(column: NullableStringColumn, bits: number): StringList[] {
  const size = 2 ** bits;
  const out: StringList[] = [];
  for (let from = 0; from < column.length; from += size) {
    const to = Math.min(column.length, from + size);
    out.push(
      column instanceof StringList
        ? column.slice(from, to)
        : StringList.of(Array.from({ length: to - from }, (_, i) => column.at(from + i))),
    );
  }
  return out;
}

/**
 * A column of few distinct values (legal forms, countries): a code per entry — one byte, or two or four
 * when there are more values — into the list of its distinct values. At 1M businesses the legal forms
 * are 1 MB instead of 6.8 MB as a {@link StringList}, so a first match that checks the forms of the
 * candidates it keeps reads them whole for the price of a page or two of a list.
 */
export class CodedStrings<N extends null = null> implements NullableStringColumn {
  readonly length: number;
  /** The distinct values decoded once, by code (a few hundred at most in practice). */
  private readonly decoded: (string | null)[];

  constructor(
    private readonly codes: Uint8Array | Uint16Array | Uint32Array,
    private readonly values: StringList,
  ) {
    this.length = codes.length;
    this.decoded = Array.from({ length: values.length }, (_, k) => values.at(k) ?? null);
  }

  /**
   * The entries of `values` (null kept as null), coded in the order their values first appear.
   * @example CodedStrings.of(['gmbh', '', 'gmbh', null]).at(2) // → 'gmbh'
   */
  static of(values: ArrayLike<string>): CodedStrings<never>;
  static of(values: ArrayLike<string | null | undefined>): CodedStrings;
  static of(values: ArrayLike<string | null | undefined>): CodedStrings {
    const codeOf = new Map<string | null, number>();
    const codes = new Uint32Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i] ?? null;
      let code = codeOf.get(v);
      if (code === undefined) codeOf.set(v, (code = codeOf.size));
      codes[i] = code;
    }
    const distinct = StringList.of([...codeOf.keys()]);
    const narrow =
      codeOf.size <= 0x100
        ? Uint8Array.from(codes)
        : codeOf.size <= 0x10000
          ? Uint16Array.from(codes)
          : codes;
    return new CodedStrings(narrow, distinct);
  }

  /** Entry `i` (undefined past the end, like an array). */
  at(i: number): string | N | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    return this.decoded[this.codes[i] as number] as string | N | undefined;
  }

  /** Bytes held by the arrays. */
  get byteLength(): number {
    return this.codes.byteLength + this.values.byteLength;
  }

  toSections(): { codes: Uint8Array | Uint16Array | Uint32Array; values: StringList } {
    return { codes: this.codes, values: this.values };
  }
}

registerCodec({
  name: 'CodedStrings',
  type: CodedStrings,
  toTree: (v) => v.toSections(),
  fromTree: (t) => {
    const { codes, values } = t as Record<string, unknown>;
    if (!(codes instanceof Uint8Array || codes instanceof Uint16Array || codes instanceof Uint32Array))
      throw new Error('CodedStrings: codes must be an unsigned typed array');
    if (!(values instanceof StringList)) throw new Error('CodedStrings: values must be a StringList');
    return new CodedStrings(codes, values);
  },
});
