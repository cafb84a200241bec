/**
 * The string key table answers exactly as a `Map` from each key to the order it was first added, for
 * any keys (empty, long, non-Latin-1, sharing prefixes, repeated), and reads back the same from its
 * sections copied into another buffer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KeyIndex,
  KeyIndexBuilder,
  MAX_LOAD,
  StringKeyTable,
  StringKeyTableBuilder,
} from '../src/indexes/hash/index.js';
import { copiedSections, hashKey } from './support/hash-keys.js';

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function build(keys: readonly string[]): {
  table: StringKeyTable;
  oracle: Map<string, number>;
  ids: number[];
} {
  const b = new StringKeyTableBuilder();
  const oracle = new Map<string, number>();
  const ids = keys.map((k) => {
    if (!oracle.has(k)) oracle.set(k, oracle.size);
    return b.add(k);
  });
  return { table: b.finish(), oracle, ids };
}

function expectSame(table: StringKeyTable, oracle: Map<string, number>, probes: readonly string[]): void {
  expect(table.size).toBe(oracle.size);
  for (const [k, id] of oracle) {
    expect(table.get(k)).toBe(id);
    expect(table.keyAt(id)).toBe(k);
  }
  for (const p of probes) expect(table.get(p)).toBe(oracle.get(p) ?? -1);
}

describe('StringKeyTable', () => {
  it('gives each distinct key its first-insertion id and -1 to keys never added', () => {
    fc.assert(
      fc.property(
        fc.array(hashKey, { maxLength: 300 }),
        fc.array(hashKey, { maxLength: 100 }),
        (keys, probes) => {
          const { table, oracle, ids } = build(keys);
          expect(ids).toEqual(keys.map((k) => oracle.get(k)));
          expectSame(table, oracle, probes);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers the same from its sections copied into another buffer', () => {
    fc.assert(
      fc.property(
        fc.array(hashKey, { maxLength: 200 }),
        fc.array(hashKey, { maxLength: 50 }),
        (keys, probes) => {
          const { table, oracle } = build(keys);
          const back = StringKeyTable.fromSections(copiedSections(table.toSections()));
          expectSame(back, oracle, probes);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('finds a range of a string with ASCII capitals folded as the lower-cased slice', () => {
    const probe = fc.tuple(
      fc.oneof(hashKey, fc.string({ unit: fc.constantFrom('A', 'a', 'B', 'b', '.'), maxLength: 8 })),
      fc.nat(),
      fc.nat(),
    );
    fc.assert(
      fc.property(
        fc.array(hashKey, { maxLength: 100 }),
        fc.array(probe, { maxLength: 60 }),
        (keys, probes) => {
          const { table, oracle } = build(keys);
          for (const k of keys)
            expect(table.getFolded(`<${k}>`, 1, k.length + 1)).toBe(oracle.get(asciiLower(k)) ?? -1);
          for (const [s, a, b] of probes) {
            const start = a % (s.length + 1);
            const end = start + (b % (s.length - start + 1));
            expect(table.getFolded(s, start, end)).toBe(oracle.get(asciiLower(s.slice(start, end))) ?? -1);
          }
        },
      ),
      { numRuns: 150 },
    );
    const { table } = build(['www.acme.com', 'acme.com']);
    expect(table.getFolded('https://WWW.Acme.COM/about', 8, 20)).toBe(0);
    expect(table.getFolded('https://WWW.Acme.COM/about', 12, 20)).toBe(1);
  });

  it('keeps Latin-1 keys as bytes and wider keys as UTF-16 units', () => {
    const latin = build(['acme.com', 'café.fr', 'ÿ']).table.toSections();
    expect(latin.units).toBeInstanceOf(Uint8Array);
    expect(latin.units).toEqual(Uint8Array.from([...'acme.comcafé.frÿ'].map((c) => c.charCodeAt(0))));
    const wide = build(['acme.com', 'мир.рф', '😀']).table;
    expect(wide.toSections().units).toBeInstanceOf(Uint16Array);
    expect(wide.get('мир.рф')).toBe(1);
    expect(wide.get('😀')).toBe(2);
    expect(wide.get('\ud83d')).toBe(-1);
  });

  it('grows past many keys and keeps at most 70% of its slots used', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `company-${i}.example`);
    const { table, oracle } = build(keys);
    expectSame(table, oracle, ['company-20000.example', 'company-1.exampl', '']);
    const s = table.toSections();
    // A slot is two uint32 (hash, id + 1): where a key's characters are is read from the offsets.
    const capacity = (s.slots as Uint32Array).length / 2;
    expect(capacity).toBe(32_768);
    expect(table.size / capacity).toBeLessThanOrEqual(MAX_LOAD);
    expect((s.offsets as Uint32Array).length).toBe(20_001);
  });

  it('answers the same with a size hint, smaller or larger than the keys added', () => {
    fc.assert(
      fc.property(fc.array(hashKey, { maxLength: 100 }), fc.nat({ max: 300 }), (keys, hint) => {
        const b = new StringKeyTableBuilder(hint);
        const oracle = new Map<string, number>();
        for (const k of keys) {
          if (!oracle.has(k)) oracle.set(k, oracle.size);
          expect(b.add(k)).toBe(oracle.get(k));
        }
        expectSame(b.finish(), oracle, ['zz', '']);
      }),
      { numRuns: 50 },
    );
  });

  it('answers -1 for everything when empty', () => {
    const empty = new StringKeyTableBuilder().finish();
    expect(empty.size).toBe(0);
    expect(empty.get('')).toBe(-1);
    expect(empty.get('acme.com')).toBe(-1);
    expect(StringKeyTable.fromSections(copiedSections(empty.toSections())).get('x')).toBe(-1);
  });

  it('wraps the given arrays without copying them', () => {
    const s = copiedSections(build(['a', 'b']).table.toSections());
    const back = StringKeyTable.fromSections(s).toSections();
    for (const k of ['slots', 'units', 'offsets']) expect(back[k]).toBe(s[k]);
  });

  it('rejects sections of the wrong shape with a message', () => {
    const s = build(['a', 'b', 'c']).table.toSections();
    expect(() => StringKeyTable.fromSections({ ...s, slots: new Int32Array(8) })).toThrow(
      'StringKeyTable: section "slots" must be a Uint32Array',
    );
    expect(() => StringKeyTable.fromSections({ ...s, slots: new Uint32Array(12) })).toThrow(
      'slot count must be a power of two',
    );
    expect(() => StringKeyTable.fromSections({ ...s, size: 2 })).toThrow(
      'offsets must hold size + 1 = 3 entries',
    );
    expect(() => StringKeyTable.fromSections({ ...s, units: new Uint8Array(1) })).toThrow(
      'offsets do not span the key units',
    );
    expect(() => StringKeyTable.fromSections({ ...s, units: new Float64Array(3) })).toThrow(
      'section "units" must be a Uint8Array or Uint16Array',
    );
  });

  it('ends a lookup in a table without an empty slot (damaged bytes) instead of probing forever', () => {
    const s = build(['a']).table.toSections();
    const slots = new Uint32Array(8).fill(1); // two slots, both "used", none matching
    expect(StringKeyTable.fromSections({ ...s, slots }).get('zzz')).toBe(-1);
  });

  it('refuses keys after finish', () => {
    const b = new StringKeyTableBuilder();
    b.add('a');
    b.finish();
    expect(() => b.add('b')).toThrow('StringKeyTable: add after finish');
  });
});

describe('KeyIndex.carryInto', () => {
  it('moves every key to new positions without strings: as adding the moved pairs in position order', () => {
    // Pairs of a base index; each position moved (or dropped, -1); then keys added at new positions.
    const pair = fc.tuple(hashKey, fc.nat({ max: 60 }));
    fc.assert(
      fc.property(
        fc.array(pair, { maxLength: 120 }),
        fc.array(fc.integer({ min: -1, max: 80 }), { minLength: 61, maxLength: 61 }),
        fc.array(fc.tuple(hashKey, fc.nat({ max: 80 })), { maxLength: 40 }),
        (pairs, moves, added) => {
          const base = KeyIndex.of(pairs);
          const builder = new KeyIndexBuilder();
          base.carryInto(builder, (p) => moves[p]!);
          for (const [k, p] of added) builder.add(k, p);
          const carried = builder.finish(true);
          // The oracle: every key's positions, moved, added, deduplicated and ascending.
          const expected = new Map<string, Set<number>>();
          const put = (k: string, p: number) => {
            if (p < 0) return;
            if (!expected.has(k)) expected.set(k, new Set());
            expected.get(k)!.add(p);
          };
          for (const [k, p] of pairs) put(k, moves[p]!);
          for (const [k, p] of added) put(k, p);
          expect(carried.size).toBe(expected.size);
          for (const [k, ps] of expected) {
            const want = [...ps].sort((a, b) => a - b);
            expect(carried.get(k)).toEqual(want);
            expect(carried.only(k)).toBe(want.length === 1 ? want[0] : -2);
          }
          for (const [k] of pairs) if (!expected.has(k)) expect(carried.has(k)).toBe(false);
        },
      ),
    );
  });
});
