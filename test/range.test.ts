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
