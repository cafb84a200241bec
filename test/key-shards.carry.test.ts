/**
 * A key table carried shard by shard after a delta (`carryShards`) answers every key as a table built
 * from the surviving and added pairs does (the oracle), and is saved in the shards it holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carryShards, KeyIndex, KeyIndexBuilder, KeyShards, splitKeys } from '../src/indexes/hash/index.js';

/** Shards of ~1 KB: a few hundred pairs make several. */
const SHARD_BYTES = 1024;

const key = fc.stringMatching(/^[a-e]{1,3}(@x\.com)?$/);
const pair = fc.tuple(key, fc.nat({ max: 399 }));

describe('carryShards', () => {
  it('answers every key as a build from the pairs kept and added does, positions ascending', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(pair, { minLength: 50, maxLength: 600 }),
        fc.array(pair, { maxLength: 80 }),
        fc.array(fc.boolean(), { minLength: 400, maxLength: 400 }),
        (base, added, dropped) => {
          const parts = splitKeys(KeyIndex.of(base), SHARD_BYTES);
          fc.pre(parts.length > 1);
          // Positions left alone keep their order, renumbered past the dropped ones; added pairs
          // take positions after the last kept one, or between (a delta's new rows come last, its
          // replaced ones keep their place: both happen).
          const moved = new Int32Array(400).fill(-1);
          let next = 0;
          for (let p = 0; p < 400; p++) if (!dropped[p]) moved[p] = next++ * 2;
          const addedKeys = added.map(([k]) => k);
          const addedPositions = added.map(([, p]) => p * 2 + 1);
          const carried = carryShards(
            parts,
            (p) => moved[p] as number,
            addedKeys,
            addedPositions,
            SHARD_BYTES,
          );

          const oracle = new KeyIndexBuilder();
          for (const [k, p] of base) if ((moved[p] as number) >= 0) oracle.add(k, moved[p] as number);
          for (let i = 0; i < added.length; i++) oracle.add(addedKeys[i]!, addedPositions[i]!);
          const expected = oracle.finish(true);
          // Refused when the carried shards' size calls for another number of them (the caller then
          // builds the whole table): nothing to compare.
          if (carried === undefined) return;
          compared++;
          expect(carried).toBeInstanceOf(KeyShards);
          expect(carried.size).toBe(expected.size);
          for (const [k, positions] of expected.entries()) {
            const sorted = [...positions].sort((a, b) => a - b);
            expect(carried.get(k), k).toEqual(sorted);
            expect(expected.get(k), k).toEqual(sorted);
          }
          for (const k of ['zz', 'a@y.com']) expect(carried.get(k)).toEqual([]);
          // Saved as they are: the same shards, which a reopened table reads by the same hash bits.
          expect(splitKeys(carried, SHARD_BYTES)).toEqual(carried.parts());
        },
      ),
      { numRuns: Number(process.env.CARRY_RUNS ?? 200) },
    );
    // Most runs carry (about two in three of the 200 here): the comparison above is not vacuous.
    expect(compared).toBeGreaterThan(40);
  });

  it('orders sparse positions by comparison and dense ones by counting, the same way', () => {
    const pairs: [string, number][] = [];
    for (let i = 0; i < 300; i++) pairs.push([`k${i % 37}`, (i * 7919) % 1_000_003]);
    const sparse = new KeyIndexBuilder();
    const dense = new KeyIndexBuilder();
    for (const [k, p] of pairs) {
      sparse.add(k, p);
      dense.add(k, p % 1000);
    }
    const a = sparse.finish(true);
    const b = dense.finish(true);
    for (const [k, positions] of a.entries())
      expect(positions, k).toEqual([...positions].sort((x, y) => x - y));
    for (const [k, positions] of b.entries())
      expect(positions, k).toEqual([...positions].sort((x, y) => x - y));
  });
});
