/**
 * The saved-index container (`indexes/format/*`): every section type round trips, arrays come back as
 * aligned views over the saved bytes (no copy), and bytes that are not a whole saved index are refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset } from '../src/indexes/bitset.js';
import { alignedCopy, decodeIndex, encodeIndex } from '../src/indexes/format/container.js';
import { intPages, Ints, PagedInts } from '../src/indexes/format/ints.js';
import { PagedStrings, StringList, stringPages } from '../src/indexes/format/strings.js';
import { Ids, NearTable } from '../src/indexes/format/tables.js';
import { KeyIndex } from '../src/indexes/hash/index.js';
import '../src/indexes/persist.js'; // registers the Bitset codec

const roundTrip = (tree: unknown) => decodeIndex(alignedCopy([encodeIndex(tree)]));

const EVERY_ARRAY = {
  u8: Uint8Array.from([0, 1, 255]),
  i8: Int8Array.from([-128, 0, 127]),
  u16: Uint16Array.from([0, 65535]),
  i16: Int16Array.from([-32768, 32767]),
  u32: Uint32Array.from([0, 0xffffffff]),
  i32: Int32Array.from([-1, 2 ** 31 - 1]),
  f32: Float32Array.from([1.5, -0.25]),
  f64: Float64Array.from([Math.PI, -1e300, Number.NaN]),
};

describe('index container', () => {
  it('round trips every typed array, empty ones, numbers, booleans, strings and nesting', () => {
    const empty = Object.fromEntries(
      Object.entries(EVERY_ARRAY).map(([k, a]) => [k, new (a.constructor as new (n: number) => unknown)(0)]),
    );
    const tree = {
      arrays: EVERY_ARRAY,
      empty,
      // An odd-length array first: the next section must still start 8-byte aligned.
      odd: Uint8Array.from([1, 2, 3]),
      after: Float64Array.from([2.5]),
      numbers: [0, -0, 1.25, Number.NaN, Infinity, -Infinity, 2 ** 53],
      flags: [true, false],
      text: ['', 'ascii', 'zürich', '東京', '😀 emoji', 'a"quoted\\back\nslash'],
      nothing: [null, undefined],
      nested: { deeper: { list: [Int32Array.from([7]), { x: 1 }] } },
      // No typed form: stored through V8 serialisation.
      map: new Map([['k', Uint32Array.from([1, 2])]]),
    };
    const back = roundTrip(tree) as typeof tree;
    expect(back).toEqual(tree);
    expect(Object.is(back.numbers[1], -0)).toBe(true);
    for (const [k, a] of Object.entries(back.arrays)) {
      expect(a.constructor).toBe(EVERY_ARRAY[k as keyof typeof EVERY_ARRAY].constructor);
    }
    expect(back.map).toBeInstanceOf(Map);
  });

  it('keeps a class with a codec in a list of any length; refuses one inside a V8 section', () => {
    // A facet's postings: sorted rows while sparse, a bitset once dense; more than 256 of them.
    const postings = Array.from({ length: 300 }, (_, i) => {
      if (i % 10 !== 0) return Uint32Array.from([i, i + 1]);
      const b = new Bitset(1000);
      b.add(i);
      return b;
    });
    const back = roundTrip({ postings }) as { postings: (Uint32Array | Bitset)[] };
    expect(back.postings).toHaveLength(300);
    back.postings.forEach((p, i) => {
      if (i % 10 !== 0) expect(Array.from(p as Uint32Array)).toEqual([i, i + 1]);
      else {
        expect(p).toBeInstanceOf(Bitset);
        expect((p as Bitset).has(i)).toBe(true);
      }
    });
    // Typed arrays alone still take one V8 section.
    const rows = Array.from({ length: 300 }, (_, i) => Uint32Array.from([i]));
    expect((roundTrip({ rows }) as { rows: Uint32Array[] }).rows).toEqual(rows);
    expect(() => encodeIndex({ map: new Map([['k', new Bitset(8)]]) })).toThrow(
      'index format: a Bitset cannot be saved inside a V8 section',
    );
    // Nor any other class: V8 would give it back without its prototype.
    class Point {
      constructor(readonly x: number) {}
    }
    expect(() => encodeIndex({ point: new Point(1) })).toThrow(
      'index format: a Point without a codec cannot be saved',
    );
    expect(() => encodeIndex({ map: new Map([['k', [new Point(2)]]]) })).toThrow('a Point without a codec');
  });

  it('wraps the saved bytes: every array is an 8-byte-aligned view, nothing is copied', () => {
    const bytes = alignedCopy([
      encodeIndex({ a: Uint8Array.from([1]), b: Float64Array.from([1, 2]), c: EVERY_ARRAY }),
    ]);
    const back = decodeIndex(bytes) as { a: Uint8Array; b: Float64Array; c: Record<string, ArrayBufferView> };
    for (const v of [back.a, back.b, ...Object.values(back.c)]) {
      expect(v.buffer).toBe(bytes.buffer);
      expect(v.byteOffset % 8).toBe(0);
    }
    // A write through the view lands in the saved bytes (a view, not a copy).
    back.b[0] = 42;
    expect((decodeIndex(bytes) as { b: Float64Array }).b[0]).toBe(42);
  });

  it('slices string lists into lists of their own, one byte a unit where the slice is Latin-1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.constantFrom('', 'a', 'zürich', 'İzmir', 'ﬃ', 'park'), { nil: null })),
        fc.nat(),
        fc.nat(),
        (values, x, y) => {
          const list = StringList.of(values);
          const [a, b] = [x % (values.length + 1), y % (values.length + 1)].sort((p, q) => p - q) as [
            number,
            number,
          ];
          const slice = (roundTrip({ s: list.slice(a, b) }) as { s: StringList }).s;
          expect(Array.from({ length: slice.length }, (_, i) => slice.at(i))).toEqual(values.slice(a, b));
          const wide = values.slice(a, b).some((v) => v !== null && /[^\u0000-\u00ff]/.test(v));
          const units = slice.toSections().units;
          expect(units.BYTES_PER_ELEMENT).toBe(wide ? 2 : 1);
          expect(slice.byteLength).toBe(
            units.byteLength + 4 * (b - a + 1) + (values.includes(null) ? b - a : 0),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('round trips string lists (nulls, empty strings, non-Latin-1) and the hash tables', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 6 }), { nil: null })),
        fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 6 })),
        fc.array(fc.tuple(fc.string({ maxLength: 4 }), fc.nat({ max: 50 }))),
        (values, keys, pairs) => {
          const near = NearTable.builder();
          for (const [k, v] of pairs) near.add(k, v);
          const tree = {
            list: StringList.of(values),
            ids: Ids.of(keys),
            near: near.finish(),
            keys: KeyIndex.of(pairs),
            bits: new Bitset(70, Uint32Array.from([1, 0, 0x20])),
          };
          const back = roundTrip(tree) as typeof tree;
          expect(back.list).toBeInstanceOf(StringList);
          expect(Array.from({ length: back.list.length }, (_, i) => back.list.at(i))).toEqual(values);
          expect(back.list.at(values.length)).toBeUndefined();
          expect(Array.from({ length: back.ids.length }, (_, i) => back.ids.at(i))).toEqual(keys);
          keys.forEach((k, i) => expect(back.ids.get(k)).toBe(i));
          expect(back.ids.get('\u0000absent')).toBeUndefined();
          for (const [k] of pairs) {
            expect(back.near.get(k)).toEqual(tree.near.get(k));
            expect(back.keys.get(k)).toEqual(tree.keys.get(k));
          }
          expect(back.bits).toBeInstanceOf(Bitset);
          expect(back.bits.has(69)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('deserialises a V8 field on its first read; a damaged one throws then, or takes the fallback', () => {
    const tree = { size: 2, facets: { name: { keys: new Map([['acme', 0]]), ids: Int32Array.from([4]) } } };
    const bytes = alignedCopy([encodeIndex(tree)]);
    // The section's bytes: the header's `v` node under facets.name.keys (offset past the header).
    const headerBytes = new DataView(bytes.buffer).getUint32(8, true);
    const header = JSON.parse(Buffer.from(bytes.subarray(16, 16 + headerBytes)).toString()) as {
      root: ['o', { facets: ['o', { name: ['o', { keys: ['v', number, number] }] }] }];
    };
    const [, at, length] = header.root[1].facets[1].name[1].keys;
    const base = 16 + Math.ceil(headerBytes / 8) * 8;
    const damaged = bytes.slice();
    damaged.fill(0xff, base + at, base + at + length);

    type Tree = typeof tree;
    const back = decodeIndex(damaged) as Tree; // not read yet: no error
    expect(Array.from(back.facets.name.ids)).toEqual([4]);
    expect(Object.keys(back.facets.name)).toEqual(['keys', 'ids']);
    expect(() => back.facets.name.keys).toThrow();

    const asked: (readonly string[])[] = [];
    const fixed = decodeIndex(damaged, (path) => {
      asked.push(path);
      return new Map([['rebuilt', 1]]);
    }) as Tree;
    expect(fixed.facets.name.keys).toEqual(new Map([['rebuilt', 1]]));
    expect(fixed.facets.name.keys).toBe(fixed.facets.name.keys); // read once
    expect(asked).toEqual([['facets', 'name', 'keys']]);

    const whole = decodeIndex(bytes) as Tree;
    expect(whole).toEqual(tree);
    whole.facets.name.keys = new Map([['other', 2]]);
    expect(whole.facets.name.keys).toEqual(new Map([['other', 2]]));
  });

  it('refuses bytes that are not a whole saved index', () => {
    const bytes = encodeIndex({ a: Int32Array.from([1, 2, 3]), s: StringList.of(['x', 'y']) });
    // Truncated anywhere (the header records the total length).
    for (const cut of [0, 8, 20, bytes.length - 8, bytes.length - 1]) {
      expect(() => decodeIndex(alignedCopy([bytes.slice(0, cut)]))).toThrow(/index format/);
    }
    // A bad magic.
    const magic = bytes.slice();
    magic[0] = 0x58;
    expect(() => decodeIndex(magic)).toThrow(/bad magic/);
    // A damaged header (not JSON, or a section pointing past the end).
    const header = bytes.slice();
    header[17] = 0x7b;
    expect(() => decodeIndex(header)).toThrow();
    const text = Buffer.from(bytes).toString('latin1');
    const moved = Buffer.from(text.replace('["a","i32",0,3]', '["a","i32",8,9]'), 'latin1');
    expect(() => decodeIndex(alignedCopy([new Uint8Array(moved)]))).toThrow(/out of bounds/);
    // Bytes at an unaligned offset are refused rather than read misaligned.
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(() => decodeIndex(shifted.subarray(1))).toThrow(/aligned/);
  });

  it('joins parts into one aligned buffer (one copy), and keeps one aligned part as it is', () => {
    const bytes = encodeIndex({ a: Float64Array.from([1, 2, 3]) });
    const parts = [bytes.subarray(0, 5), bytes.subarray(5, 30), bytes.subarray(30)];
    expect(decodeIndex(alignedCopy(parts))).toEqual({ a: Float64Array.from([1, 2, 3]) });
    expect(alignedCopy([bytes])).toBe(bytes);
  });
});

describe('paged string columns', () => {
  it('read every entry as the whole list does, page by page, each page through the container', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 6 }), { nil: null }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.integer({ min: -2, max: 210 }), { maxLength: 20 }),
        (values, bits, probes) => {
          const list = StringList.of(values);
          const saved = stringPages(list, bits).map((p) => decodeIndex(encodeIndex(p)) as StringList);
          expect(saved.length).toBe(Math.ceil(values.length / 2 ** bits));
          const read = new Set<number>();
          const paged = new PagedStrings(
            list.length,
            {
              length: saved.length,
              at: (i) => (read.add(i), saved[i] as StringList),
              isRead: (i) => read.has(i),
            },
            bits,
          );
          const first = probes.find((i) => i >= 0 && i < values.length);
          if (first !== undefined) {
            paged.at(first);
            expect(paged.pagesRead).toBe(1); // one entry, one page
          }
          for (const i of [...probes, ...values.keys()]) expect(paged.at(i)).toBe(list.at(i));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('paged integer columns', () => {
  it('read every entry and every range as the whole array does, each page through the container', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 300 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.tuple(fc.nat(310), fc.nat(310)), { maxLength: 20 }),
        (values, bits, ranges) => {
          const whole = new Ints(Int32Array.from(values));
          const saved = intPages(whole, bits).map(
            (p) => decodeIndex(encodeIndex({ p })) as { p: Int32Array },
          );
          const read = new Set<number>();
          const paged = new PagedInts(
            values.length,
            {
              length: saved.length,
              at: (i) => (read.add(i), (saved[i] as { p: Int32Array }).p),
              isRead: (i) => read.has(i),
            },
            bits,
          );
          if (values.length > 0) {
            paged.at(values.length - 1);
            expect(paged.pagesRead).toBe(1); // one entry, one page
          }
          for (let i = 0; i < values.length; i++) expect(paged.at(i)).toBe(values[i]);
          for (const [a, b] of ranges) {
            const lo = Math.min(a, b, values.length);
            const hi = Math.min(Math.max(a, b), values.length);
            expect(Array.from(paged.range(lo, hi))).toEqual(values.slice(lo, hi));
            expect(Array.from(whole.range(lo, hi))).toEqual(values.slice(lo, hi));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
