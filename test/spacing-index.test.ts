/**
 * The spacing index finds every name whose joined form (words without spaces) is at most one edit from
 * the query's, when either has 8 or more characters: the only names the scorer's joined similarity
 * can score.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { osaDistance } from '../src/normalise/similarity.js';
import { buildSpacingIndex, joinedEnds, spacingCandidates } from '../src/indexes/match/spacing-index.js';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 6 });
const name = fc.array(word, { minLength: 1, maxLength: 4 });

/** One random edit (substitute, delete, insert, transpose) of a string. */
const edited = (s: string, kind: number, at: number, ch: string): string => {
  const i = at % (s.length + 1);
  if (kind === 0) return s.slice(0, i) + ch + s.slice(i + 1);
  if (kind === 1) return s.slice(0, i) + s.slice(i + 1);
  if (kind === 2) return s.slice(0, i) + ch + s.slice(i);
  return i + 1 < s.length ? s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2) : s;
};

describe('spacing index', () => {
  it('finds every name within one edit of the query written without spaces', () => {
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 0, max: 4 }),
        fc.nat(),
        fc.constantFrom('a', 'b', 'x'),
        (docs, pick, kind, at, ch) => {
          const joined = Uint16Array.from(docs.map((d) => d.join('').length));
          const head = new Int32Array(docs.length);
          const tail = new Int32Array(docs.length);
          docs.forEach((d, i) => joinedEnds(d, i, head, tail));
          const index = buildSpacingIndex(joined, head, tail);
          const base = (docs[pick % docs.length] as string[]).join('');
          const text = kind === 4 ? base : edited(base, kind, at, ch);
          const found = new Set<number>();
          spacingCandidates(index, text, (doc) => found.add(doc));
          docs.forEach((d, i) => {
            const j = d.join('');
            if (Math.max(j.length, text.length) >= 8 && osaDistance(j, text, 1) <= 1)
              expect(found).toContain(i);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
