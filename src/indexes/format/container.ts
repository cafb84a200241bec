/**
 * The saved-index container: one index as a tree of typed arrays, numbers, booleans and short strings,
 * written as a small JSON header (the tree, each typed array replaced by its type, byte offset and
 * length) followed by the arrays' raw bytes, each 8-byte aligned. Opening reads the header and wraps
 * every array as a view over the given bytes: nothing is copied or decoded per entry, so the cost of
 * opening does not grow with the number of entries (only with the number of sections).
 *
 * Classes register a codec ({@link registerCodec}) that turns an instance into a tree and back (the hash
 * tables and string columns do: `fromTree` only wraps arrays). A value the format has no typed form for
 * (a `Map`, a long array of objects) is stored as one section of V8 structured serialisation: the search
 * indexes' dictionaries still take that path. Such a section that is a field of an object is
 * deserialised on the field's first read, not on open (a request reads the few dictionaries it needs:
 * a filter on the country never deserialises the 100,000 names of the name facet).
 *
 * Layout: `magic (8) | header bytes (u32) | reserved (u32) | header JSON (padded to 8) | sections`.
 * The header records the total length: a truncated blob, a bad magic, an unparsable header or a section
 * out of bounds throws, and the caller rebuilds the index.
 */
import { deserialize, serialize } from 'node:v8';

const MAGIC = 'PDBIDX\u0000\u0002';
const PREFIX = 16;

type TypedArray =
  Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

const ARRAY_TYPES = {
  u8: Uint8Array,
  i8: Int8Array,
  u16: Uint16Array,
  i16: Int16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;
type ArrayCode = keyof typeof ARRAY_TYPES;

function arrayCode(a: ArrayBufferView): ArrayCode | undefined {
  for (const [code, type] of Object.entries(ARRAY_TYPES)) {
    // Exact class: a Buffer is a Uint8Array subclass but comes back as a plain Uint8Array.
    if (a.constructor === type || (type === Uint8Array && a instanceof Uint8Array)) return code as ArrayCode;
  }
  return undefined;
}

/** How a class is written as a tree and read back (`fromTree` must wrap, not copy or decode). */
export interface Codec<T> {
  readonly name: string;
  /** The class (its constructor may be private). */
  readonly type: { readonly prototype: T };
  toTree(value: T): unknown;
  fromTree(tree: unknown): T;
}

const codecs: Codec<unknown>[] = [];

/** Lets instances of a class be saved through `codec` (names are part of the saved format). */
export function registerCodec<T>(codec: Codec<T>): void {
  if (codecs.some((c) => c.name === codec.name)) return;
  codecs.push(codec as Codec<unknown>);
}

/** The codec of `v`'s class, if it has one. */
const codecOf = (v: object): Codec<unknown> | undefined =>
  codecs.find((c) => v instanceof (c.type as unknown as new () => unknown));

/**
 * Throws when `v` holds an instance of a class with a codec: V8's serialisation would give it back as
 * a plain object without its methods (a `Bitset` posting read back as `{ words, size }` matched no row:
 * the prospect NAICS facet, 269 values at 1M prospects, lost its 27 dense codes that way).
 */
function assertNoCodecInside(v: unknown): void {
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x)) return;
    const codec = codecOf(x);
    if (codec !== undefined)
      throw new TypeError(`index format: a ${codec.name} cannot be saved inside a V8 section`);
    // Any other class would come back as a plain object too.
    if (!V8_KEEPS.has(Object.getPrototypeOf(x) as object | null)) {
      const name = (x as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new TypeError(`index format: a ${name} without a codec cannot be saved`);
    }
    if (x instanceof Map) {
      for (const [k, y] of x) {
        walk(k);
        walk(y);
      }
    } else if (x instanceof Set) for (const y of x) walk(y);
    else if (Array.isArray(x)) for (const y of x) walk(y);
    else for (const y of Object.values(x)) walk(y);
  };
  walk(v);
}

/** Prototypes whose objects V8's serialisation gives back as they were (typed arrays aside). */
const V8_KEEPS: ReadonlySet<object | null> = new Set([
  null,
  Object.prototype,
  Array.prototype,
  Map.prototype,
  Set.prototype,
  Date.prototype,
  RegExp.prototype,
  ArrayBuffer.prototype,
]);

/** Arrays of more objects than this go to a V8 section rather than one header node each. */
const MAX_LISTED = 256;

/** A header node: a JSON literal, or a tagged array. */
type Node =
  | null
  | boolean
  | number
  | string
  | ['a', ArrayCode, number, number] // typed array: type, byte offset, element count
  | ['o', Record<string, Node>]
  | ['l', Node[]]
  | ['c', string, Node] // registered class: codec name, its tree
  | ['v', number, number] // V8 structured serialisation: byte offset, byte length
  | ['n', string] // a number JSON cannot spell (NaN, ±Infinity, -0)
  | ['u'];

interface Section {
  bytes: Uint8Array;
  at: number;
}

/**
 * The saved bytes of `tree`.
 * @example const bytes = encodeIndex({ size: 3, ids: new Int32Array([4, 5, 6]) });
 */
export function encodeIndex(tree: unknown): Uint8Array {
  const sections: Section[] = [];
  let data = 0;
  const place = (bytes: Uint8Array): number => {
    const at = data;
    sections.push({ bytes, at });
    data += align8(bytes.byteLength);
    return at;
  };
  const node = (v: unknown): Node => {
    if (v === null) return null;
    if (v === undefined) return ['u'];
    if (typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') {
      if (Object.is(v, -0)) return ['n', '-0'];
      return Number.isFinite(v) ? v : ['n', String(v)];
    }
    if (ArrayBuffer.isView(v)) {
      const code = arrayCode(v);
      if (code === undefined) return v8Node(v);
      const a = v as TypedArray;
      return ['a', code, place(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)), a.length];
    }
    if (typeof v !== 'object') throw new TypeError(`index format: cannot save a ${typeof v}`);
    const codec = codecOf(v);
    if (codec !== undefined) return ['c', codec.name, node(codec.toTree(v))];
    if (Array.isArray(v)) {
      let objects = 0;
      let classes = false;
      for (const x of v) {
        if (x === null || typeof x !== 'object') continue;
        objects++;
        classes ||= codecOf(x) !== undefined;
      }
      // V8 gives a class instance back as a plain object: a list holding one is always listed.
      return objects > MAX_LISTED && !classes ? v8Node(v) : ['l', v.map(node)];
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return v8Node(v);
    const out: Record<string, Node> = {};
    for (const [k, x] of Object.entries(v)) out[k] = node(x);
    return ['o', out];
  };
  const v8Node = (v: unknown): Node => {
    assertNoCodecInside(v);
    const bytes = serialize(v);
    return ['v', place(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)), bytes.byteLength];
  };
  const root = node(tree);
  const start = (total: number) => ({ root, bytes: total });
  // The header holds the total length, which depends on the header's own length: settle it in two rounds.
  let headerBytes = Buffer.byteLength(JSON.stringify(start(0)));
  let header = '';
  for (let round = 0; round < 3; round++) {
    const total = PREFIX + align8(headerBytes) + data;
    header = JSON.stringify(start(total));
    if (Buffer.byteLength(header) === headerBytes) break;
    headerBytes = Buffer.byteLength(header);
  }
  const headerBuf = Buffer.from(header);
  const base = PREFIX + align8(headerBuf.byteLength);
  const out = new Uint8Array(base + data);
  out.set(Buffer.from(MAGIC, 'latin1'), 0);
  new DataView(out.buffer).setUint32(8, headerBuf.byteLength, true);
  out.set(headerBuf, PREFIX);
  for (const s of sections) out.set(s.bytes, base + s.at);
  return out;
}

/**
 * What a V8 section read on first use gives when it cannot be deserialised (damaged bytes): `path` is
 * the field's place in the tree (`['facets', 'name', 'keys']`), `error` what deserialising threw. It
 * returns the value to use instead (from a rebuild of the index) or throws. Without it, the read throws.
 */
export type LazyFallback = (path: readonly string[], error: unknown) => unknown;

/**
 * The tree saved in `bytes`, every typed array a view over them (`bytes.byteOffset` must be a multiple
 * of 8; see {@link alignedCopy}). Throws when the bytes are not a whole saved index. A V8 section that
 * is an object's field becomes a getter that deserialises it on first read and leaves the value in its
 * place (assigning the field first replaces it). `fallback` answers a section found damaged then.
 */
export function decodeIndex(bytes: Uint8Array, fallback?: LazyFallback): unknown {
  if (bytes.byteOffset % 8 !== 0) throw new Error('index format: bytes not 8-byte aligned');
  if (bytes.byteLength < PREFIX || Buffer.from(bytes.subarray(0, 8)).toString('latin1') !== MAGIC)
    throw new Error('index format: not a saved index (bad magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerBytes = view.getUint32(8, true);
  if (PREFIX + headerBytes > bytes.byteLength) throw new Error('index format: truncated header');
  const header = JSON.parse(
    Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset + PREFIX, headerBytes).toString('utf8'),
  ) as { root: Node; bytes: number };
  if (header.bytes !== bytes.byteLength)
    throw new Error(`index format: ${bytes.byteLength} bytes, the header says ${header.bytes}`);
  const base = PREFIX + align8(headerBytes);
  const section = (at: number, length: number): number => {
    if (!(Number.isInteger(at) && Number.isInteger(length) && at >= 0 && length >= 0 && at % 8 === 0))
      throw new Error('index format: bad section');
    if (base + at + length > bytes.byteLength) throw new Error('index format: section out of bounds');
    return bytes.byteOffset + base + at;
  };
  const v8Section = (n: ['v', number, number]) =>
    deserialize(new Uint8Array(bytes.buffer, section(n[1], n[2]), n[2])) as unknown;
  /**
   * `out[k]` as a getter over the V8 section `n` (bounds checked now), deserialised on first read; the
   * field then becomes a plain data property (no getter call on later reads).
   */
  const lazyField = (out: Record<string, unknown>, k: string, n: ['v', number, number], path: string[]) => {
    section(n[1], n[2]);
    const settle = (value: unknown) =>
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(out, k, {
      enumerable: true,
      configurable: true,
      get() {
        let value: unknown;
        try {
          value = v8Section(n);
        } catch (e) {
          if (!fallback) throw e;
          value = fallback(path, e);
        }
        settle(value);
        return value;
      },
      set: settle,
    });
  };
  // `path` is undefined inside a class's tree: its fields are read at once (`fromTree` wraps them).
  const read = (n: Node, path?: string[]): unknown => {
    if (n === null || typeof n !== 'object') return n;
    switch (n[0]) {
      case 'a': {
        const type = ARRAY_TYPES[n[1]];
        if (type === undefined) throw new Error(`index format: unknown array type ${n[1]}`);
        return new type(bytes.buffer as ArrayBuffer, section(n[2], n[3] * type.BYTES_PER_ELEMENT), n[3]);
      }
      case 'o': {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(n[1])) {
          if (path && x !== null && typeof x === 'object' && x[0] === 'v') lazyField(out, k, x, [...path, k]);
          else out[k] = read(x, path && [...path, k]);
        }
        return out;
      }
      case 'l':
        // A list of JSON literals (the labels of a facet: 100,000 names) is the parsed array itself.
        if (n[1].every((x) => x === null || typeof x !== 'object')) return n[1];
        return n[1].map((x, i) => read(x, path && [...path, String(i)]));
      case 'c': {
        const codec = codecs.find((c) => c.name === n[1]);
        if (codec === undefined) throw new Error(`index format: unknown class ${n[1]}`);
        return codec.fromTree(read(n[2], undefined));
      }
      case 'v':
        return v8Section(n);
      case 'n':
        return Number(n[1]);
      case 'u':
        return undefined;
      default:
        throw new Error('index format: bad node');
    }
  };
  return read(header.root, []);
}

/** `parts` joined into one 8-byte-aligned buffer (the only copy an open makes; none for one aligned part). */
export function alignedCopy(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1 && (parts[0] as Uint8Array).byteOffset % 8 === 0) return parts[0] as Uint8Array;
  let n = 0;
  for (const p of parts) n += p.byteLength;
  // A fresh ArrayBuffer starts 8-byte aligned.
  const out = new Uint8Array(new ArrayBuffer(n));
  n = 0;
  for (const p of parts) {
    out.set(p, n);
    n += p.byteLength;
  }
  return out;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
