/** The range index: a `{gte, lte}` range gives exactly the rows a scan of the values gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { take } from '../src/indexes/bitset.js';
import { buildRange, rangeRows } from '../src/indexes/range.js';

const scan = (values: (number | null)[], gte: number | null, lte: number | null) =>
  values.flatMap((v, row) =>
    v !== null && (gte === null || v >= gte) && (lte === null || v <= lte) ? [row] : [],
  );

const bound = fc.option(fc.integer({ min: -5, max: 130 }), { nil: null });

describe('range index', () => {
  it('equals a scan for any bounds, with and without slice cuts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 70 }),
        bound,
        bound,
        (values, buckets, gte, lte) => {
          const entries = values.flatMap((value, row) => (value === null ? [] : [{ row, value }]));
          const size = values.length + 1;
          const index = buildRange(entries, size, buckets);
          expect(take(rangeRows(index, size, gte, lte), 0, size)).toEqual(scan(values, gte, lte));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('orders entries by value then row whatever their order, span or kind of number', () => {
    // One kind of value per column (small integers take the counting sort), or a mix of them.
    const small = fc.integer({ min: -3, max: 50 });
    const wide = fc.integer({ min: -(2 ** 40), max: 2 ** 40 });
    const fraction = fc.double({ min: -100, max: 100, noNaN: true });
    const column = (value: fc.Arbitrary<number>) =>
      fc.array(fc.tuple(fc.nat(1000), value), { maxLength: 300 });
    fc.assert(
      fc.property(
        fc.oneof(column(small), column(wide), column(fraction), column(fc.oneof(small, wide, fraction))),
        fc.boolean(),
        (pairs, ascending) => {
          // Each row once, as the index builds take them; in row order or shuffled by the generator.
          const seen = new Set<number>();
          const entries = pairs.flatMap(([row, v]) =>
            seen.has(row) ? [] : (seen.add(row), [{ row, value: v }]),
          );
          if (ascending) entries.sort((a, b) => a.row - b.row);
          const oracle = [...entries].sort((a, b) => a.value - b.value || a.row - b.row);
          const index = buildRange(entries, 1001, 1);
          expect([...index.rows]).toEqual(oracle.map((e) => e.row));
          expect([...index.values]).toEqual([...Int32Array.from(oracle, (e) => e.value)]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('cuts large columns into slices whose prefix sets hold exactly the rows before each cut', () => {
    const n = 80_000;
    const values = Array.from({ length: n }, (_, row) => (row % 7 === 0 ? null : (row * 7919) % 400));
    const entries = values.flatMap((value, row) => (value === null ? [] : [{ row, value }]));
    const index = buildRange(entries, n);
    expect(index.cuts.length).toBe(65);
    for (const [gte, lte] of [
      [null, null],
      [10, 390],
      [0, 0],
      [123, 124],
      [399, null],
      [null, 57],
    ] as const) {
      expect(take(rangeRows(index, n, gte, lte), 0, n)).toEqual(scan(values, gte, lte));
    }
  });
});
