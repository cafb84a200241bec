/**
 * A word's document frequency (`docFrequency`), the one helper every match site uses to weigh a word or
 * find the rarest one: the number of documents holding the word, against a count over the documents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTokenIndex, docFrequency } from '../src/indexes/match/token-index.js';

const word = fc.constantFrom('acme', 'robotics', 'zenith', 'media', 'abc', 'holdings', 'nord', 'x');
const docs = fc.array(fc.array(word, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 40 });

describe('docFrequency', () => {
  it('counts the documents holding a word (a word twice in one document counts once), 0 when none does', () => {
    fc.assert(
      fc.property(docs, (tokens) => {
        const index = buildTokenIndex(tokens.length, (i) => tokens[i]!);
        for (const w of ['acme', 'robotics', 'zenith', 'media', 'abc', 'holdings', 'nord', 'x', 'absent']) {
          const expected = tokens.filter((t) => (t as readonly string[]).includes(w)).length;
          expect(docFrequency(index, index.vocabId.get(w)), w).toBe(expected);
        }
        expect(docFrequency(index, -1)).toBe(0);
        expect(docFrequency(index, undefined)).toBe(0);
      }),
    );
  });
});
