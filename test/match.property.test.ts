/**
 * Property tests: the indexed fuzzy name search (token blocking + deletion neighbourhood) returns
 * exactly what a brute-force scan of every name with the same scorer returns.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoredName, sharesNearToken } from '../src/core/match/company-score.js';
import { fuzzyHits, NAME_THRESHOLD, scanHits, withKnown } from '../src/core/match/company-search.js';
import { nearTokens, osaDistance } from '../src/normalise/similarity.js';
import { buildTokenIndex, candidates, nearVocabulary } from '../src/indexes/match/token-index.js';

/** Tokens over a tiny alphabet, so near neighbours (one edit apart) are common. */
const token = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 2, maxLength: 8 });
const name = fc.array(token, { minLength: 1, maxLength: 4 });

/** One random edit (substitute, delete, insert, transpose) of a token. */
const edit = (t: string, kind: number, at: number, ch: string): string => {
  const i = t.length === 0 ? 0 : at % t.length;
  switch (kind) {
    case 0:
      return t.slice(0, i) + ch + t.slice(i + 1);
    case 1:
      return t.length > 1 ? t.slice(0, i) + t.slice(i + 1) : t;
    case 2:
      return t.slice(0, i) + ch + t.slice(i);
    default:
      return i + 1 < t.length ? t.slice(0, i) + (t[i + 1] as string) + (t[i] as string) + t.slice(i + 2) : t;
  }
};

const perturbed = (corpus: string[][]) =>
  fc
    .tuple(
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 0, max: 3 }),
      fc.nat(),
      fc.constantFrom('a', 'b', 'x'),
      fc.boolean(),
    )
    .map(([doc, tok, kind, at, ch, reverse]) => {
      const q = [...(corpus[doc % corpus.length] as string[])];
      const k = tok % q.length;
      q[k] = edit(q[k] as string, kind, at, ch);
      return reverse ? q.reverse() : q;
    });

describe('fuzzy name index', () => {
  it('finds every vocabulary token within the typo budget (1 edit from 4 characters, 2 from 8), and only those', () => {
    const long = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 6, maxLength: 11 });
    const tok = fc.oneof(token, long);
    fc.assert(
      fc.property(fc.uniqueArray(tok, { minLength: 1, maxLength: 60 }), tok, (vocab, q) => {
        const index = buildTokenIndex(vocab.length, (i) => [vocab[i] as string]);
        const found = new Set(nearVocabulary(index, q).map((v) => index.vocab.at(v)));
        const budget = (v: string) => {
          const n = Math.min(v.length, q.length);
          return n < 4 ? 0 : n < 5 ? 1 : 2;
        };
        const expected = vocab.filter(
          (v) => v === q || (budget(v) > 0 && osaDistance(v, q, budget(v)) <= budget(v)),
        );
        expect([...found].sort()).toEqual(expected.sort());
      }),
      { numRuns: 500 },
    );
  });

  it('ranks candidates exactly as a brute-force scan with the same scorer', () => {
    fc.assert(
      fc.property(
        fc
          .array(name, { minLength: 1, maxLength: 80 })
          .chain((corpus) => fc.tuple(fc.constant(corpus), fc.oneof(perturbed(corpus), name))),
        ([corpus, query]) => {
          const index = buildTokenIndex(corpus.length, (i) => corpus[i] as string[]);
          const scored = corpus.map((c) => scoredName(c));
          const scoredOf = (pos: number) => scored[pos]!;
          const q = scoredName(query);
          expect(candidates(index, query).complete).toBe(true);
          expect(fuzzyHits(index, scoredOf, q)).toEqual(scanHits(corpus.length, scoredOf, q));
          // The same with the query's known words taken as written (as the matcher scores them).
          const k = withKnown(q, index);
          expect(fuzzyHits(index, scoredOf, k)).toEqual(scanHits(corpus.length, scoredOf, k));
        },
      ),
      { numRuns: 300 },
    );
  });

  // Large corpora over a small vocabulary: a common query token touches hundreds of names, so the
  // candidate set is pruned to the names that near-match the most query tokens. The name a query was
  // typed from near-matches all of its tokens, so pruning keeps it; a name that near-matches fewer tokens
  // can still win a low score (found by this test), so the promise is made from the decision threshold on.
  it('keeps the brute-force best that a decision could use when candidates are pruned', () => {
    const pool = ['acme', 'robotics', 'global', 'media', 'cloud', 'north', 'group', 'labs'];
    const bigName = fc.array(
      fc.oneof(
        fc.constantFrom(...pool),
        fc
          .tuple(fc.constantFrom(...pool), fc.nat(), fc.constantFrom('e', 'o', 'x'))
          .map(([t, at, ch]) => edit(t, 0, at, ch)),
        token,
      ),
      { minLength: 2, maxLength: 4 },
    );
    let pruned = 0;
    fc.assert(
      fc.property(
        fc
          .array(bigName, { minLength: 800, maxLength: 1000 })
          .chain((corpus) => fc.tuple(fc.constant(corpus), perturbed(corpus))),
        ([corpus, query]) => {
          const index = buildTokenIndex(corpus.length, (i) => corpus[i] as string[]);
          const scored = corpus.map((c) => scoredName(c));
          const scoredOf = (pos: number) => scored[pos]!;
          const q = scoredName(query);
          const found = candidates(index, query);
          // The pruned set is exactly the names near-matching the most query tokens (read from the
          // rarest tokens' postings, not by walking them all).
          const counts = corpus.map(
            (c) =>
              new Set(query).size -
              [...new Set(query)].filter((t) => !c.some((u) => nearTokens(t, u))).length,
          );
          const most = Math.max(...counts);
          const postings = [...new Set(query)].reduce(
            (n, t) =>
              n +
              nearVocabulary(index, t).reduce((m, v) => m + index.postStart[v + 1]! - index.postStart[v]!, 0),
            0,
          );
          if (postings > 256 && most > 0) {
            const expected = counts.flatMap((n, pos) => (n === most ? [pos] : []));
            expect([...found.positions].sort((a, b) => a - b)).toEqual(expected);
          }
          const all = scanHits(corpus.length, scoredOf, q);
          const hits = fuzzyHits(index, scoredOf, q);
          const blocked = corpus.filter((c) => sharesNearToken(query, c)).length;
          if (found.positions.length < blocked) pruned++;
          // Pruning drops candidates, never changes a score: every indexed hit is a scan hit.
          const byPos = new Map(all.map((h) => [h.pos, h.score]));
          for (const h of hits) expect(byPos.get(h.pos)).toBe(h.score);
          // Decisions need NAME_THRESHOLD: above it, the indexed best is the scan's best.
          const best = all[0];
          if (best !== undefined && best.score >= NAME_THRESHOLD) expect(hits[0]).toEqual(best);
        },
      ),
      { numRuns: 100 },
    );
    expect(pruned).toBeGreaterThan(20);
  });
});
