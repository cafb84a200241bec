/**
 * The key index files positions under keys exactly as a `Map` of key → distinct positions in the order
 * added: `get` lists them, `only` gives the one position (-1 none, -2 several), and it reads back the
 * same from its sections copied into another buffer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KeyIndex,
  KeyIndexBuilder,
  KeyShards,
  splitKeys,
  type KeyLookup,
} from '../src/indexes/hash/index.js';
import { copiedSections, hashKey } from './support/hash-keys.js';

const pairs = fc.array(fc.tuple(hashKey, fc.nat({ max: 40 })), { maxLength: 300 });

function oracleOf(ps: readonly (readonly [string, number])[]): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const [k, p] of ps) {
    const cur = m.get(k);
    if (cur === undefined) m.set(k, [p]);
    else if (!cur.includes(p)) cur.push(p);
  }
  return m;
}

function expectSame(index: KeyLookup, oracle: Map<string, number[]>, probes: readonly string[]): void {
  expect(index.size).toBe(oracle.size);
  // Shards list their keys shard by shard: the same entries, keys in another order.
  const entries = [...index.entries()];
  if (index instanceof KeyShards) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const want = [...oracle.entries()];
  if (index instanceof KeyShards) want.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  expect(entries).toEqual(want);
  for (const k of [...oracle.keys(), ...probes]) {
    const want = oracle.get(k) ?? [];
    expect(index.get(k)).toEqual(want);
    expect(index.only(k)).toBe(want.length === 0 ? -1 : want.length === 1 ? want[0] : -2);
    expect(index.has(k)).toBe(want.length > 0);
    expect(index.onlyFolded(`(${k})`, 1, k.length + 1)).toBe(
      index.only(k.replace(/[A-Z]/g, (c) => c.toLowerCase())),
    );
  }
}

describe('KeyIndex', () => {
  it('files distinct positions per key in the order added, as a Map does', () => {
    fc.assert(
      fc.property(pairs, fc.array(hashKey, { maxLength: 60 }), (ps, probes) => {
        expectSame(KeyIndex.of(ps), oracleOf(ps), probes);
      }),
      { numRuns: 200 },
    );
  });

  it('answers the same from its sections copied into another buffer', () => {
    fc.assert(
      fc.property(pairs, fc.array(hashKey, { maxLength: 40 }), (ps, probes) => {
        const back = KeyIndex.fromSections(copiedSections(KeyIndex.of(ps).toSections()));
        expectSame(back, oracleOf(ps), probes);
      }),
      { numRuns: 100 },
    );
  });

  it('answers the same cut into shards by key hash, each shard read only when a key hashes to it', () => {
    fc.assert(
      fc.property(
        pairs,
        fc.array(hashKey, { maxLength: 40 }),
        fc.integer({ min: 1, max: 4096 }),
        (ps, probes, shardBytes) => {
          const parts = splitKeys(KeyIndex.of(ps), shardBytes).map((p) =>
            KeyIndex.fromSections(copiedSections(p.toSections())),
          );
          expect(parts.length & (parts.length - 1)).toBe(0);
          const read = new Set<number>();
          const shards = new KeyShards({
            length: parts.length,
            at: (i) => (read.add(i), parts[i] as KeyIndex),
            isRead: (i) => read.has(i),
          });
          const key = ps[0]?.[0];
          if (key !== undefined) {
            shards.get(key);
            expect(shards.shardsRead).toBe(1); // one lookup, one shard
          }
          expectSame(shards, oracleOf(ps), probes);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('cuts itself into the shards a builder per shard makes: same keys, order, positions and arrays', () => {
    fc.assert(
      fc.property(pairs, fc.integer({ min: 1, max: 4096 }), (ps, shardBytes) => {
        const index = KeyIndex.of(ps);
        const fast = splitKeys(index, shardBytes);
        // The other path: every key added again to the builder of its shard.
        const slow = splitKeys(new KeyShards({ length: 1, at: () => index, isRead: () => true }), shardBytes);
        expect(fast.length).toBe(slow.length);
        fast.forEach((part, s) => {
          const other = slow[s] as KeyIndex;
          expect([...part.entries()]).toEqual([...other.entries()]);
          // Slots may sit elsewhere (a builder rehashes as it grows); every other array is the same.
          const { slots: _a, ...mine } = part.toSections();
          const { slots: _b, ...theirs } = other.toSections();
          expect(mine).toEqual(theirs);
          expect((part.toSections().slots as Uint32Array).length).toBe(
            (other.toSections().slots as Uint32Array).length,
          );
        });
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a key added twice with one position as a single-position key', () => {
    const index = KeyIndex.of([
      ['acme.com', 3],
      ['acme.com', 3],
      ['beta.io', 1],
      ['beta.io', 2],
      ['beta.io', 1],
    ]);
    expect(index.only('acme.com')).toBe(3);
    expect(index.get('beta.io')).toEqual([1, 2]);
    expect(index.only('beta.io')).toBe(-2);
    expect(index.toSections().values).toEqual(Uint32Array.from([1, 2]));
  });

  it('drops repeats among many positions of one key', () => {
    const ps: [string, number][] = [];
    for (let i = 0; i < 100; i++) ps.push(['shared', i % 30]);
    expect(KeyIndex.of(ps).get('shared')).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('hands out fresh arrays', () => {
    const index = KeyIndex.of([
      ['a', 1],
      ['a', 2],
    ]);
    index.get('a').push(9);
    expect(index.get('a')).toEqual([1, 2]);
  });

  it('rejects positions outside 0..2^31-1 and damaged sections', () => {
    const b = new KeyIndexBuilder();
    expect(() => b.add('a', -1)).toThrow('KeyIndex: position -1 out of range');
    expect(() => b.add('a', 2 ** 31)).toThrow('out of range');
    expect(() => b.add('a', 1.5)).toThrow('out of range');
    const s = KeyIndex.of([['a', 1]]).toSections();
    expect(() => KeyIndex.fromSections({ ...s, one: new Int32Array(2) })).toThrow(
      'KeyIndex: one must hold one entry per key (1)',
    );
    expect(() => KeyIndex.fromSections({ ...s, start: Uint32Array.from([0, 5]) })).toThrow(
      'start does not span values',
    );
  });
});
