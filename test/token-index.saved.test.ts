/**
 * A token index saved and reopened answers as the one built in memory: its postings, its pair index's
 * per-pair columns and its spacing index's documents come back in pages read by range, each page
 * through the container, and every query reads the same lists, candidates and words as the whole
 * arrays give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeIndex, encodeIndex } from '../src/indexes/format/container.js';
import { CodedStrings, StringList } from '../src/indexes/format/strings.js';
import { pairPostings } from '../src/indexes/match/pair-index.js';
import {
  buildTokenIndex,
  candidates,
  documentWords,
  sameJoined,
  tokenIndexForm,
} from '../src/indexes/match/token-index.js';
import type { PartList, SavedForm } from '../src/indexes/persist.js';
import '../src/indexes/persist.js'; // registers the Bitset codec

/**
 * `index` saved with `form` and opened again as `persist.ts` does: the root, each lazy field and each
 * part of a listed field encoded apart and decoded; `read` names the parts read so far.
 */
function reopen<T>(form: SavedForm<T>, index: T): { index: T; read: Set<string> } {
  const saved = form.save(index) as Record<string, unknown>;
  const lazy = Object.keys(form.lazy ?? {});
  const listed = Object.keys(form.listed ?? {});
  const root: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(saved)) if (!lazy.includes(k) && !listed.includes(k)) root[k] = v;
  const tree = decodeIndex(encodeIndex(root)) as Record<string, unknown>;
  const read = new Set<string>();
  for (const k of lazy) {
    const bytes = encodeIndex(saved[k]);
    Object.defineProperty(tree, k, {
      enumerable: true,
      configurable: true,
      get() {
        read.add(k);
        const value = decodeIndex(bytes);
        expect(form.lazy?.[k]?.(value)).toBe(true);
        Object.defineProperty(tree, k, { value, enumerable: true });
        return value;
      },
    });
  }
  for (const k of listed) {
    const parts = (saved[k] as unknown[]).map((p) => encodeIndex(p));
    const got: unknown[] = [];
    const list: PartList<unknown> = {
      length: parts.length,
      at: (i) => {
        read.add(`${k}#${i}`);
        return (got[i] ??= decodeIndex(parts[i] as Uint8Array));
      },
      isRead: (i) => got[i] !== undefined,
    };
    tree[k] = list;
  }
  return { index: form.open(tree), read };
}

const wordArb = fc.constantFrom(
  'acme',
  'acne',
  'robotics',
  'robotic',
  'day',
  'care',
  'daycare',
  'north',
  'star',
  'northstar',
  'labs',
  'lab',
  'the',
  'holdings',
);
// Up to 400 names: queries of common words then pass the pruning bound and read the pair postings.
const docsArb = fc.array(fc.array(wordArb, { maxLength: 5 }), { minLength: 1, maxLength: 400 });

describe('saved token index', () => {
  it('reads the same postings, pairs, candidates and spaced names from pages as the whole index', () => {
    fc.assert(
      fc.property(
        docsArb,
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.array(wordArb, { minLength: 1, maxLength: 4 }), { maxLength: 8 }),
        (docs, bits, queries) => {
          const whole = buildTokenIndex(docs.length, (i) => docs[i] as string[]);
          const { index: paged, read } = reopen(tokenIndexForm(bits), whole);
          expect(read.size).toBe(0); // opening reads no part
          expect(paged.docStart).toEqual(whole.docStart); // derived from the word counts, not saved
          const v = whole.vocab.length;
          for (let t = 0; t < v; t++) {
            const [lo, hi] = [whole.postStart[t] as number, whole.postStart[t + 1] as number];
            expect([...paged.post.range(lo, hi)]).toEqual([...whole.post.range(lo, hi)]);
            for (let u = t + 1; u < v; u++)
              expect([...pairPostings(paged.pairs, t, u)]).toEqual([...pairPostings(whole.pairs, t, u)]);
          }
          for (const q of queries) {
            expect(candidates(paged, q)).toEqual(candidates(whole, q));
            expect(candidates(paged, q, 3)).toEqual(candidates(whole, q, 3));
            const joined = q.join('');
            expect(sameJoined(paged, joined, q.length)).toEqual(sameJoined(whole, joined, q.length));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads a posting list from its own pages only', () => {
    const docs = Array.from({ length: 64 }, (_, i) => (i === 40 ? ['zenith', 'acme'] : ['acme']));
    const whole = buildTokenIndex(docs.length, (i) => docs[i] as string[]);
    const { index: paged, read } = reopen(tokenIndexForm(2), whole);
    const zenith = paged.vocabId.get('zenith') as number;
    expect([
      ...paged.post.range(paged.postStart[zenith] as number, paged.postStart[zenith + 1] as number),
    ]).toEqual([40]);
    // One posting, one page of four entries (of the 17 pages of postings).
    expect([...read].filter((p) => p.startsWith('post#'))).toHaveLength(1);
  });
});

describe('names written without spaces', () => {
  it('find every name of two words or more and 8 letters or more, a repeated word included', () => {
    fc.assert(
      fc.property(docsArb, (docs) => {
        const index = buildTokenIndex(docs.length, (i) => docs[i] as string[]);
        const { index: paged } = reopen(tokenIndexForm(2), index);
        docs.forEach((words, i) => {
          const joined = words.join('');
          if (words.length < 2 || joined.length < 8) return;
          expect(sameJoined(index, joined, 1)).toContain(i);
          expect(sameJoined(paged, joined, 1)).toContain(i);
        });
      }),
      { numRuns: 100 },
    );
    // "Walla Walla Foods" written "Wallawallafoods".
    const repeated = buildTokenIndex(
      2,
      (i) =>
        [
          ['walla', 'walla', 'foods'],
          ['walla', 'foods'],
        ][i]!,
    );
    expect(sameJoined(repeated, 'wallawallafoods', 1)).toEqual([0]);
  });
});

describe('document words', () => {
  it('are the words of a name in their order, repeats kept, also from a reopened index', () => {
    fc.assert(
      fc.property(docsArb, (docs) => {
        const index = buildTokenIndex(docs.length, (i) => docs[i] as string[]);
        const { index: paged } = reopen(tokenIndexForm(2), index);
        docs.forEach((words, i) => {
          expect(documentWords(index, i)).toEqual(words);
          expect(documentWords(paged, i)).toEqual(words);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('keep a name of 255 words or more whole', () => {
    const long = Array.from({ length: 300 }, (_, i) => `w${i % 260}`);
    const index = buildTokenIndex(2, (i) => (i === 0 ? ['acme'] : long));
    expect(documentWords(index, 1)).toEqual(long);
    expect(documentWords(index, 0)).toEqual(['acme']);
    const { index: paged } = reopen(tokenIndexForm(3), index);
    expect(paged.docStart).toEqual(index.docStart); // 1 + 260 distinct words
    expect(documentWords(paged, 1)).toEqual(long);
  });
});

describe('coded string columns', () => {
  it('read every entry as a string list does, through the container', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.constantFrom('', 'gmbh', 'co+ltd', 'llc', 'σ'), { nil: null }), {
          maxLength: 120,
        }),
        fc.integer({ min: 0, max: 300 }),
        (values, spread) => {
          // `spread` distinct values more: past 256 the codes take two bytes.
          const all = [...values, ...Array.from({ length: spread }, (_, i) => `v${i}`)];
          const coded = decodeIndex(encodeIndex(CodedStrings.of(all))) as CodedStrings;
          const list = StringList.of(all);
          expect(coded.length).toBe(all.length);
          for (let i = -1; i <= all.length; i++) expect(coded.at(i)).toBe(list.at(i));
        },
      ),
      { numRuns: 100 },
    );
  });
});
