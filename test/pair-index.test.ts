/**
 * The token-pair postings hold, for every two distinct tokens, exactly the documents having both, in
 * ascending order; a pair no document has has no entry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPairIndex, pairEntry } from '../src/indexes/match/pair-index.js';

describe('pair index', () => {
  it('lists exactly the documents holding both tokens of each pair', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 12 })
          .chain((vocab) =>
            fc.tuple(
              fc.constant(vocab),
              fc.array(fc.uniqueArray(fc.nat({ max: vocab - 1 }), { maxLength: 6 }), { maxLength: 60 }),
            ),
          ),
        ([vocab, docs]) => {
          const docStart = new Int32Array(docs.length + 1);
          docs.forEach((d, i) => (docStart[i + 1] = docStart[i]! + d.length));
          const index = buildPairIndex(vocab, docs.length, docStart, Int32Array.from(docs.flat()));
          for (let a = 0; a < vocab; a++) {
            for (let b = 0; b < vocab; b++) {
              if (a === b) continue;
              const expected = docs.flatMap((d, i) => (d.includes(a) && d.includes(b) ? [i] : []));
              const e = pairEntry(index, a, b);
              const got =
                e < 0 ? [] : [...index.post.range(index.postStart.at(e), index.postStart.at(e + 1))];
              expect(got).toEqual(expected);
              if (expected.length === 0) expect(e).toBe(-1);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
