/**
 * Stored MessagePack records (the `wire` column) → typed column buffers (Arrow layout: validity bitmap,
 * int32 offsets, UTF-8 bytes), without decoding them into JavaScript values.
 *
 * Why not `wireCodec.unpack` then columns: measured at 200k full prospect records, decoding a record
 * into an object costs ~5 µs and building the columns from its strings again (UTF-8 encoding each
 * one) as much; this walk copies each string's UTF-8 bytes straight from the stored buffer into its
 * column (~1 µs per record), which is what lets the Parquet export run faster than a plain decode of
 * the same rows. Keys are matched against the column names byte by byte (the stored order first, so
 * a record in column order costs one comparison per key); a key that is not a column is skipped (a
 * preview export reads the full stored record); a column missing from a record is null.
 *
 * A stored record is the array of its values in `WIRE_KEYS` order (schema 5; the key list is the one
 * holding every column), or a map with its keys.
 *
 * Values of an unexpected MessagePack type are not dropped: a string column receives their JSON text,
 * a list column a one-element list of it, an integer column null for a non-integer.
 *
 * Over 400 lines on purpose: one MessagePack walker specialised per column kind; the walk and the
 * buffers it fills must stay in one module for the JIT to inline them.
 */
import { WIRE_KEYS, wireCodec } from '../store/wire.js';
import type { Column } from './columns.js';

const utf8 = new TextEncoder();

/** A validity bitmap (bit set = present), grown as values are appended. */
class Validity {
  bits = new Uint8Array(1024);
  nulls = 0;
  set(i: number, present: boolean): void {
    if (i >>> 3 >= this.bits.length) {
      const next = new Uint8Array(this.bits.length * 2);
      next.set(this.bits);
      this.bits = next;
    }
    if (present) this.bits[i >>> 3]! |= 1 << (i & 7);
    else this.nulls++;
  }
  /** The bitmap of the first `length` values; the builder is then reset for reuse. */
  take(length: number): Uint8Array {
    return this.bits.subarray(0, (length + 7) >>> 3);
  }
  reset(length: number): void {
    this.bits.fill(0, 0, (length + 7) >>> 3);
    this.nulls = 0;
  }
}

/** The buffers of one finished column (Arrow's layout; `child` for lists). They are views of the
 * builder's own buffers, valid until the next record is added (copy them before). */
export interface ColumnData {
  length: number;
  nulls: number;
  validity: Uint8Array;
  offsets?: Int32Array;
  bytes?: Uint8Array;
  ints?: Int32Array;
  child?: ColumnData;
  children?: ColumnData[];
}

/** Strings: int32 offsets into UTF-8 bytes. */
export class StringBuilder {
  length = 0;
  private offsets = new Int32Array(1024);
  private bytes = new Uint8Array(1 << 16);
  private end = 0;
  private readonly validity = new Validity();

  private room(values: number, bytes: number): void {
    if (this.length + values >= this.offsets.length) {
      const next = new Int32Array(Math.max(this.offsets.length * 2, this.length + values + 1));
      next.set(this.offsets);
      this.offsets = next;
    }
    if (this.end + bytes > this.bytes.length) {
      const next = new Uint8Array(Math.max(this.bytes.length * 2, this.end + bytes));
      next.set(this.bytes.subarray(0, this.end));
      this.bytes = next;
    }
  }

  appendBytes(src: Uint8Array, start: number, end: number): void {
    this.room(1, end - start);
    // Short strings byte by byte: `subarray` allocates a view per call (on a Buffer, a whole Buffer),
    // which cost more than the copy itself (~40 strings per prospect record).
    if (end - start <= 64) {
      const dst = this.bytes;
      let at = this.end;
      for (let i = start; i < end; i++) dst[at++] = src[i]!;
    } else this.bytes.set(src.subarray(start, end), this.end);
    this.end += end - start;
    this.validity.set(this.length, true);
    this.offsets[++this.length] = this.end;
  }

  appendString(s: string): void {
    this.room(1, s.length * 3);
    this.end += utf8.encodeInto(s, this.bytes.subarray(this.end)).written;
    this.validity.set(this.length, true);
    this.offsets[++this.length] = this.end;
  }

  appendNull(): void {
    this.room(1, 0);
    this.validity.set(this.length, false);
    this.offsets[++this.length] = this.end;
  }

  finish(): ColumnData {
    return {
      length: this.length,
      nulls: this.validity.nulls,
      validity: this.validity.take(this.length),
      offsets: this.offsets.subarray(0, this.length + 1),
      bytes: this.bytes.subarray(0, this.end),
    };
  }

  reset(): void {
    this.validity.reset(this.length);
    this.length = 0;
    this.end = 0;
  }
}

/** 32-bit integers. */
class IntBuilder {
  length = 0;
  private ints = new Int32Array(1024);
  private readonly validity = new Validity();

  append(v: number | null): void {
    if (this.length === this.ints.length) {
      const next = new Int32Array(this.ints.length * 2);
      next.set(this.ints);
      this.ints = next;
    }
    this.validity.set(this.length, v !== null);
    this.ints[this.length++] = v ?? 0;
  }

  finish(): ColumnData {
    return {
      length: this.length,
      nulls: this.validity.nulls,
      validity: this.validity.take(this.length),
      ints: this.ints.subarray(0, this.length),
    };
  }

  reset(): void {
    this.validity.reset(this.length);
    this.length = 0;
  }
}

/** Lists: int32 offsets into a child column (strings, or structs of strings). */
class ListBuilder<C extends { length: number; finish(): ColumnData; reset(): void }> {
  length = 0;
  private offsets = new Int32Array(1024);
  private readonly validity = new Validity();
  constructor(readonly child: C) {}

  /** Closes the list whose items were appended to `child` since the previous one (null: none were). */
  close(present: boolean): void {
    if (this.length + 1 >= this.offsets.length) {
      const next = new Int32Array(this.offsets.length * 2);
      next.set(this.offsets);
      this.offsets = next;
    }
    this.validity.set(this.length, present);
    this.offsets[++this.length] = this.child.length;
  }

  finish(): ColumnData {
    return {
      length: this.length,
      nulls: this.validity.nulls,
      validity: this.validity.take(this.length),
      offsets: this.offsets.subarray(0, this.length + 1),
      child: this.child.finish(),
    };
  }

  reset(): void {
    this.validity.reset(this.length);
    this.length = 0;
    this.child.reset();
  }
}

/** Structs of nullable string fields (never null themselves). */
class StructBuilder {
  length = 0;
  readonly fields: StringBuilder[];
  constructor(readonly names: readonly string[]) {
    this.fields = names.map(() => new StringBuilder());
  }
  finish(): ColumnData {
    return {
      length: this.length,
      nulls: 0,
      validity: new Uint8Array(0),
      children: this.fields.map((f) => f.finish()),
    };
  }
  reset(): void {
    this.length = 0;
    for (const f of this.fields) f.reset();
  }
}

// ---- MessagePack reading (https://github.com/msgpack/msgpack/blob/master/spec.md) ----

/** Position just after the value that starts at `p`. */
function skip(b: Uint8Array, p: number): number {
  const t = b[p]!;
  if (t < 0x80 || t >= 0xe0) return p + 1; // fixint
  if (t < 0x90) return skipEntries(b, p + 1, (t & 0x0f) * 2); // fixmap
  if (t < 0xa0) return skipEntries(b, p + 1, t & 0x0f); // fixarray
  if (t < 0xc0) return p + 1 + (t & 0x1f); // fixstr
  switch (t) {
    case 0xc0:
    case 0xc2:
    case 0xc3:
      return p + 1;
    case 0xc4:
    case 0xd9:
      return p + 2 + b[p + 1]!;
    case 0xc5:
    case 0xda:
      return p + 3 + u16(b, p + 1);
    case 0xc6:
    case 0xdb:
      return p + 5 + u32(b, p + 1);
    case 0xc7:
      return p + 3 + b[p + 1]!;
    case 0xc8:
      return p + 4 + u16(b, p + 1);
    case 0xc9:
      return p + 6 + u32(b, p + 1);
    case 0xca:
      return p + 5;
    case 0xcb:
      return p + 9;
    case 0xcc:
    case 0xd0:
      return p + 2;
    case 0xcd:
    case 0xd1:
      return p + 3;
    case 0xce:
    case 0xd2:
      return p + 5;
    case 0xcf:
    case 0xd3:
      return p + 9;
    case 0xd4:
      return p + 3;
    case 0xd5:
      return p + 4;
    case 0xd6:
      return p + 6;
    case 0xd7:
      return p + 10;
    case 0xd8:
      return p + 18;
    case 0xdc:
      return skipEntries(b, p + 3, u16(b, p + 1));
    case 0xdd:
      return skipEntries(b, p + 5, u32(b, p + 1));
    case 0xde:
      return skipEntries(b, p + 3, u16(b, p + 1) * 2);
    case 0xdf:
      return skipEntries(b, p + 5, u32(b, p + 1) * 2);
  }
  throw new Error(`export: not a MessagePack value (type byte 0x${t.toString(16)})`);
}

function skipEntries(b: Uint8Array, p: number, n: number): number {
  for (let i = 0; i < n; i++) p = skip(b, p);
  return p;
}

const u16 = (b: Uint8Array, p: number) => (b[p]! << 8) | b[p + 1]!;
const u32 = (b: Uint8Array, p: number) =>
  ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;

/**
 * Start and end of the string at `p`, or -1 when the value there is not a string. The start comes back
 * through `strStart` (documented module scratch: a second return value without allocating an object per
 * string; synchronous, so no two walks interleave).
 */
let strStart = 0;
function stringEnd(b: Uint8Array, p: number): number {
  const t = b[p]!;
  if (t >= 0xa0 && t < 0xc0) return (strStart = p + 1) + (t & 0x1f);
  if (t === 0xd9) return (strStart = p + 2) + b[p + 1]!;
  if (t === 0xda) return (strStart = p + 3) + u16(b, p + 1);
  if (t === 0xdb) return (strStart = p + 5) + u32(b, p + 1);
  return -1;
}

/**
 * Appends the `n` items of a list starting at `q` to `child`: strings as their bytes, nil as null, any
 * other value as its JSON text. Returns the position after the list.
 */
function appendStringItems(child: StringBuilder, b: Uint8Array, q: number, n: number): number {
  for (let i = 0; i < n; i++) {
    const end = stringEnd(b, q);
    if (end >= 0) {
      child.appendBytes(b, strStart, end);
      q = end;
    } else {
      if (b[q] === 0xc0) child.appendNull();
      else child.appendString(jsonText(b, q));
      q = skip(b, q);
    }
  }
  return q;
}

/** Count and first-entry position of the array (or map) at `p`, or -1 when it is not one (scratch as above). */
let headerEnd = 0;
function arrayLength(b: Uint8Array, p: number): number {
  const t = b[p]!;
  if (t >= 0x90 && t < 0xa0) return ((headerEnd = p + 1), t & 0x0f);
  if (t === 0xdc) return ((headerEnd = p + 3), u16(b, p + 1));
  if (t === 0xdd) return ((headerEnd = p + 5), u32(b, p + 1));
  return -1;
}
function mapLength(b: Uint8Array, p: number): number {
  const t = b[p]!;
  if (t >= 0x80 && t < 0x90) return ((headerEnd = p + 1), t & 0x0f);
  if (t === 0xde) return ((headerEnd = p + 3), u16(b, p + 1));
  if (t === 0xdf) return ((headerEnd = p + 5), u32(b, p + 1));
  return -1;
}

/** The 32-bit integer at `p`, or null (nil, a float that is not an integer, anything else). */
function int32(b: Uint8Array, p: number): number | null {
  const t = b[p]!;
  if (t < 0x80) return t;
  if (t >= 0xe0) return t - 0x100;
  if (t === 0xc0) return null;
  const v = wireCodec.unpack(b.subarray(p, skip(b, p))) as unknown;
  return typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff ? v : null;
}

/** The JSON text of the value at `p` (for a value that is not of its column's type). */
function jsonText(b: Uint8Array, p: number): string {
  return JSON.stringify(wireCodec.unpack(b.subarray(p, skip(b, p))));
}

function equalBytes(b: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (b[start + i] !== key[i]) return false;
  return true;
}

type Builder = StringBuilder | IntBuilder | ListBuilder<StringBuilder> | ListBuilder<StructBuilder>;
const STRING = 0;
const INT = 1;
const LIST = 2;

/**
 * Appends stored records to typed column builders; `finish` hands the buffers over (as views: the
 * builders' memory is reused for the next row group, so steady state allocates nothing).
 */
export class ColumnarBatch {
  private readonly builders: Builder[];
  /** The same builders by kind (one array per kind keeps each call site monomorphic). */
  private readonly kinds: Uint8Array;
  private readonly strings: StringBuilder[];
  private readonly lists: ListBuilder<StringBuilder>[];
  private readonly keys: Uint8Array[];
  private readonly fieldKeys: (Uint8Array[] | undefined)[];
  /** `seen[i] === stamp` when column `i` was filled by the current record. */
  private readonly seen: Int32Array;
  /** Column of each value of a stored value array (`WIRE_KEYS` order), -1 when not a column. */
  private readonly positions: Int32Array;
  private stamp = 0;
  length = 0;

  constructor(readonly columns: readonly Column[]) {
    this.keys = columns.map((c) => utf8.encode(c.name));
    const names = columns.map((c) => c.name);
    const stored: readonly string[] =
      Object.values(WIRE_KEYS).find((keys: readonly string[]) => names.every((n) => keys.includes(n))) ?? [];
    this.positions = Int32Array.from(stored, (k) => names.indexOf(k));
    this.fieldKeys = columns.map((c) => c.fields?.map((f) => utf8.encode(f)));
    this.seen = new Int32Array(columns.length);
    this.builders = columns.map((c) => {
      if (c.kind === 'string') return new StringBuilder();
      if (c.kind === 'int') return new IntBuilder();
      if (c.kind === 'list') return new ListBuilder(new StringBuilder());
      return new ListBuilder(new StructBuilder(c.fields ?? []));
    });
    this.kinds = Uint8Array.from(columns, (c) =>
      c.kind === 'string' ? STRING : c.kind === 'int' ? INT : c.kind === 'list' ? LIST : 3,
    );
    this.strings = this.builders.map((b) => b as StringBuilder);
    this.lists = this.builders.map((b) => b as ListBuilder<StringBuilder>);
  }

  /** Appends one stored record (a value array or a map); `replace` holds values that override stored ones. */
  add(b: Uint8Array, replace?: Record<string, unknown>): void {
    const stamp = ++this.stamp;
    const { seen, columns } = this;
    if (arrayLength(b, 0) >= 0) this.addValues(b, stamp, replace);
    else this.addMap(b, stamp, replace);
    for (let i = 0; i < columns.length; i++) {
      if (seen[i] === stamp) continue;
      const name = columns[i]!.name;
      this.appendValue(i, replace && name in replace ? replace[name] : null);
    }
    this.length++;
  }

  /** A stored value array: value `e` is column `positions[e]`. */
  private addValues(b: Uint8Array, stamp: number, replace?: Record<string, unknown>): void {
    const { positions, seen } = this;
    const n = arrayLength(b, 0);
    let p = headerEnd;
    for (let e = 0; e < n; e++) {
      const col = e < positions.length ? positions[e]! : -1;
      if (col < 0) {
        p = skip(b, p);
        continue;
      }
      seen[col] = stamp;
      p = this.appendField(col, b, p, replace);
    }
  }

  /** The value at `p` into column `col`, or its replacement when `replace` has one; the end of the value. */
  private appendField(col: number, b: Uint8Array, p: number, replace?: Record<string, unknown>): number {
    const name = this.columns[col]!.name;
    if (replace && name in replace) {
      this.appendValue(col, replace[name]);
      return skip(b, p);
    }
    return this.appendStored(col, b, p);
  }

  /** A stored map: keys matched against the column names. */
  private addMap(b: Uint8Array, stamp: number, replace?: Record<string, unknown>): void {
    const { keys, seen } = this;
    const n = mapLength(b, 0);
    if (n < 0) throw new Error('export: a stored record is not a MessagePack map or array');
    let p = headerEnd;
    let expect = 0;
    for (let e = 0; e < n; e++) {
      const kEnd = stringEnd(b, p);
      if (kEnd < 0) {
        p = skip(b, skip(b, p));
        continue;
      }
      const kStart = strStart;
      let col = -1;
      if (expect < keys.length && equalBytes(b, kStart, kEnd, keys[expect]!)) col = expect;
      else {
        for (let i = 0; i < keys.length; i++) {
          if (equalBytes(b, kStart, kEnd, keys[i]!)) {
            col = i;
            break;
          }
        }
      }
      p = kEnd;
      if (col < 0 || seen[col] === stamp) {
        p = skip(b, p);
        continue;
      }
      expect = col + 1;
      seen[col] = stamp;
      p = this.appendField(col, b, p, replace);
    }
  }

  /** Appends the stored value at `p` to column `col`; returns the position after it. */
  private appendStored(col: number, b: Uint8Array, p: number): number {
    const kind = this.kinds[col];
    const t = b[p]!;
    if (kind === STRING) {
      const builder = this.strings[col]!;
      const end = stringEnd(b, p);
      if (end >= 0) {
        builder.appendBytes(b, strStart, end);
        return end;
      }
      if (t === 0xc0) builder.appendNull();
      else builder.appendString(jsonText(b, p));
      return skip(b, p);
    }
    if (kind === LIST) {
      const list = this.lists[col]!;
      const child = list.child;
      const n = t === 0xc0 ? -2 : arrayLength(b, p);
      if (n >= 0) {
        const q = appendStringItems(child, b, headerEnd, n);
        list.close(true);
        return q;
      }
    }
    if (kind === INT) {
      (this.builders[col] as IntBuilder).append(int32(b, p));
      return skip(b, p);
    }
    // Lists of structs, and the rare cases of lists (null, or not an array).
    const builder = this.builders[col] as ListBuilder<StringBuilder> | ListBuilder<StructBuilder>;
    if (t === 0xc0) {
      builder.close(false);
      return p + 1;
    }
    const n = arrayLength(b, p);
    if (n < 0) {
      // Not a list: a one-element list of its text (or, for structs, of nothing).
      if (builder.child instanceof StringBuilder) {
        const end = stringEnd(b, p);
        if (end >= 0) builder.child.appendBytes(b, strStart, end);
        else builder.child.appendString(jsonText(b, p));
      }
      builder.close(true);
      return skip(b, p);
    }
    let q = headerEnd;
    if (builder.child instanceof StringBuilder) q = appendStringItems(builder.child, b, q, n);
    else {
      for (let i = 0; i < n; i++) q = this.appendStruct(builder.child, this.fieldKeys[col]!, b, q);
    }
    builder.close(true);
    return q;
  }

  /** Appends the map at `p` as a struct of string fields (missing fields and non-maps: nulls). */
  private appendStruct(s: StructBuilder, keys: Uint8Array[], b: Uint8Array, p: number): number {
    const filled = new Array<boolean>(keys.length).fill(false);
    const n = mapLength(b, p);
    let q = n < 0 ? skip(b, p) : headerEnd;
    for (let e = 0; e < n; e++) {
      const kEnd = stringEnd(b, q);
      let f = -1;
      if (kEnd >= 0) {
        const kStart = strStart;
        f = keys.findIndex((k) => equalBytes(b, kStart, kEnd, k));
        q = kEnd;
      } else q = skip(b, q);
      if (f < 0 || filled[f]) {
        q = skip(b, q);
        continue;
      }
      filled[f] = true;
      const end = stringEnd(b, q);
      if (end >= 0) s.fields[f]!.appendBytes(b, strStart, end);
      else if (b[q] === 0xc0) s.fields[f]!.appendNull();
      else s.fields[f]!.appendString(jsonText(b, q));
      q = skip(b, q);
    }
    for (let f = 0; f < keys.length; f++) if (!filled[f]) s.fields[f]!.appendNull();
    s.length++;
    return q;
  }

  /** Appends a JavaScript value (a replaced or missing one) to column `col`. */
  private appendValue(col: number, v: unknown): void {
    const builder = this.builders[col]!;
    if (builder instanceof StringBuilder) {
      if (v === null || v === undefined) builder.appendNull();
      else builder.appendString(typeof v === 'string' ? v : JSON.stringify(v));
    } else if (builder instanceof IntBuilder) {
      builder.append(typeof v === 'number' && Number.isInteger(v) ? v : null);
    } else if (v === null || v === undefined) builder.close(false);
    else {
      // Through MessagePack, so a replaced value takes the path of a stored one.
      const packed = wireCodec.pack(Array.isArray(v) ? v : [v]);
      const n = arrayLength(packed, 0);
      let q = headerEnd;
      for (let i = 0; i < n; i++) {
        if (builder.child instanceof StringBuilder) {
          const end = stringEnd(packed, q);
          if (end >= 0) builder.child.appendBytes(packed, strStart, end);
          else if (packed[q] === 0xc0) builder.child.appendNull();
          else builder.child.appendString(jsonText(packed, q));
          q = skip(packed, q);
        } else q = this.appendStruct(builder.child, this.fieldKeys[col]!, packed, q);
      }
      builder.close(true);
    }
  }

  /** The columns of the records added since the last call, in `columns` order. */
  finish(): ColumnData[] {
    return this.builders.map((b) => b.finish());
  }

  /** Starts the next row group in the same memory (the views `finish` returned are then stale). */
  reset(): void {
    for (const b of this.builders) b.reset();
    this.length = 0;
  }
}
