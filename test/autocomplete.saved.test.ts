/**
 * Completion indexes saved in pages (`src/indexes/completion-pages.ts`): reopened from a file they
 * answer exactly like the freshly built index, a first short query reads only the root and the pages
 * it needs, and a damaged page is taken from a rebuild.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/engine.js';
import {
  CompletionIndex,
  completionForm,
  tagWord,
  type CompletionCandidate,
  type CompletionPaging,
} from '../src/indexes/completion.js';
import { buildingIndexes, savedIndex } from '../src/indexes/persist.js';
import { tempDir } from './support/temp.js';

let path: string;
let writer: Engine;
let reader: Engine;
const engines: Engine[] = [];
const open = (readonly: boolean) => {
  // No job or webhook worker: they are imported after the open, and this file may end first.
  const e = openEngine({ path, readonly, jobs: { worker: false }, webhooks: { worker: false } });
  engines.push(e);
  return e;
};
beforeAll(() => {
  path = join(tempDir('pdb-completion-pages-'), 'ac.db');
  writer = open(false);
  reader = open(true);
});
afterAll(() => engines.forEach((e) => e.closed || e.close()));

const notBuilt = (): never => {
  throw new Error('rebuilt instead of read back');
};
let saves = 0;

/** `build()` saved in the file with `paging`, and its name: the writer builds it and saves it. */
function save(build: () => CompletionIndex, paging: CompletionPaging): string {
  const name = `test.completion.${saves++}`;
  buildingIndexes(writer, () => writer.indexes.get(savedIndex(name, build, completionForm(paging))));
  return name;
}

/** The index saved as `name`, reopened from the file by `engine` (never built). */
const reopen = (
  name: string,
  paging: CompletionPaging,
  engine = reader,
  build: () => CompletionIndex = notBuilt,
) => engine.indexes.get(savedIndex<CompletionIndex>(name, build, completionForm(paging)));

// Few distinct words, so prefixes, typos and shared words collide; one word is not Latin-1.
const WORDS = ['park', 'parker', 'parks', 'pack', 'acme', 'acne', 'north', 'nord', 'zeta', 'ärzte', 'İzmir'];
const FORMS = ['gmbh', 'nv', 'bv'];
const candidateArb: fc.Arbitrary<CompletionCandidate> = fc
  .record({
    words: fc.array(fc.constantFrom(...WORDS, ...FORMS), { minLength: 1, maxLength: 4 }),
    n: fc.nat({ max: 999 }),
    weight: fc.nat({ max: 6 }),
    code: fc.boolean(),
    aliases: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }),
    tags: fc.subarray(FORMS),
  })
  .map(({ words, n, weight, code, aliases, tags }) => {
    const label = `${words.join(' ')} ${n}`;
    return { label, value: code ? `v${n}` : label, weight, aliases, tags };
  });
const candidatesArb = fc.uniqueArray(candidateArb, { maxLength: 60, selector: (c) => c.label });
const pagingArb = fc.record({
  candidates: fc.integer({ min: 1, max: 7 }),
  pairs: fc.integer({ min: 1, max: 13 }),
  words: fc.integer({ min: 1, max: 9 }),
});

/** One way of asking an index, named for the failure message. */
type Ask = [string, (index: CompletionIndex) => unknown];

const typo = (w: string, at: number) =>
  w.length < 2 ? w : w.slice(0, at % w.length) + 'x' + w.slice((at % w.length) + 1);
const askArb: fc.Arbitrary<Ask> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...WORDS, ...FORMS),
      fc.integer({ min: 0, max: 7 }),
      fc.integer({ min: 1, max: 30 }),
    )
    .map(([w, n, limit]): Ask => {
      const q = w.slice(0, n);
      return [`search(${q}, ${limit})`, (i) => i.search(q, limit)];
    }),
  fc
    .tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS, ...FORMS), fc.nat(), fc.boolean())
    .map(([a, b, at, withTypo]): Ask => {
      const q = `${withTypo ? typo(a, at) : a} ${b.slice(0, 1 + (at % b.length))}`;
      return [`search(${q})`, (i) => i.search(q)];
    }),
  fc.tuple(fc.constantFrom(...WORDS), fc.nat()).map(([w, at]): Ask => {
    const q = typo(w, at);
    return [`search(${q})`, (i) => i.search(q)];
  }),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...FORMS)).map(([w, form]): Ask => {
    const tiers = [
      [
        [w, form],
        [w, tagWord(form)],
      ],
      [[w]],
    ];
    return [`searchReadings(${w} ${form})`, (i) => i.searchReadings(tiers, 10)];
  }),
  fc.constant<Ask>(['search()', (i) => i.search('')]),
  fc.tuple(fc.constantFrom(...WORDS), fc.nat()).map(([w, at]): Ask => {
    const q = typo(w, at);
    return [`similar(${q})`, (i) => i.similar(q, 15, ['nord'])];
  }),
);

describe('completion indexes saved in pages', () => {
  it('answer every query exactly like the freshly built index', () => {
    fc.assert(
      fc.property(
        candidatesArb,
        pagingArb,
        fc.array(askArb, { minLength: 1, maxLength: 12 }),
        (cs, paging, asks) => {
          const built = new CompletionIndex(cs, 20);
          const saved = reopen(
            save(() => built, paging),
            paging,
          );
          expect(saved.size).toBe(built.size);
          for (const [what, ask] of asks) expect(ask(saved), what).toEqual(ask(built));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('are saved again in other pages from a reopened index (a rebuild that was itself read back)', () => {
    fc.assert(
      fc.property(candidatesArb, pagingArb, pagingArb, (cs, a, b) => {
        const built = new CompletionIndex(cs, 20);
        const first = reopen(
          save(() => built, a),
          a,
        );
        const second = reopen(
          save(() => first, b),
          b,
        );
        for (const q of ['', 'p', 'park', 'parkx', 'acme nv', 'nort', 'ärz'])
          expect(second.search(q, 30), q).toEqual(built.search(q, 30));
        expect(second.similar('zeta')).toEqual(built.similar('zeta'));
      }),
      { numRuns: 30 },
    );
  });
});

/** Occurrences of `text` in `bytes` read as `encoding` (pages holding non-Latin-1 text are UTF-16). */
const found = (bytes: Buffer, encoding: BufferEncoding, text: string) =>
  bytes.toString(encoding).split(text).length - 1;

describe('a reopened completion index', () => {
  // 3,000 names of one to three words; rank r has weight 3000 - r, so the rank of a label is known.
  const names = Array.from({ length: 3000 }, (_, r) => {
    const words = [WORDS[r % WORDS.length]!, `word${(r * 7919) % 1000}`, ...(r % 3 === 0 ? ['gmbh'] : [])];
    return { label: `${words.join(' ')} ${r}`, value: `${words.join(' ')} ${r}`, weight: 3000 - r };
  });
  const rank = new Map(names.map((c, r) => [c.label, r]));
  const paging = { candidates: 128, pairs: 256, words: 64 };
  let name: string;
  let built: CompletionIndex;
  beforeAll(() => {
    built = new CompletionIndex(names, 20);
    name = save(() => built, paging);
  });
  const fresh = () => reopen(name, paging, open(true));
  const pagesOf = (labels: string[]) =>
    new Set(labels.map((l) => Math.floor(rank.get(l)! / paging.candidates))).size;

  it('answers a first short prefix from the root and the pages of the candidates it returns', () => {
    const index = fresh();
    expect(index.pages.candidates).toEqual({ read: 0, of: 24 });
    expect(index.pages.pairs.read).toBe(0);
    const labels = index.search('park').map((i) => i.label);
    expect(labels).toEqual(built.search('park').map((i) => i.label));
    expect(labels).toHaveLength(20);
    // Up to 5 characters the root's prefix table answers: no pair or word page is read.
    expect(index.pages.candidates.read).toBe(pagesOf(labels));
    expect(index.pages.pairs.read).toBe(0);
    expect(index.pages.words.read).toBe(0);
    expect(pagesOf(labels)).toBe(1);
    const empty = fresh();
    expect(empty.search('').map((i) => i.label)).toEqual(names.slice(0, 20).map((c) => c.label));
    expect(empty.pages.candidates.read).toBe(1);
  });

  it('finds a longer prefix in one or two pages of pairs', () => {
    const index = fresh();
    const labels = index.search('word12').map((i) => i.label);
    expect(labels).toEqual(built.search('word12').map((i) => i.label));
    expect(labels.length).toBeGreaterThan(0);
    expect(index.pages.pairs.read).toBeGreaterThanOrEqual(1);
    expect(index.pages.pairs.read).toBeLessThanOrEqual(2);
    expect(index.pages.candidates.read).toBe(pagesOf(labels));
    const longer = fresh();
    expect(longer.search('parker').map((i) => i.label)).toEqual(built.search('parker').map((i) => i.label));
    expect(longer.pages.pairs.read).toBeLessThanOrEqual(2);
  });

  it('keeps each value once where it is the label', () => {
    const values = new CompletionIndex(
      names.map((c) => ({ ...c, value: `code-${rank.get(c.label)}` })),
      20,
    );
    const withValues = save(() => values, paging);
    const bytes = (n: string) =>
      writer.db
        .prepare(`SELECT sum(length(data)) FROM index_cache WHERE name GLOB ? || '/candidates#*'`)
        .pluck()
        .get(n) as number;
    const count = (n: string, text: string) =>
      (
        writer.db
          .prepare(`SELECT data FROM index_cache WHERE name GLOB ? || '/candidates#*'`)
          .pluck()
          .all(n) as Buffer[]
      ).reduce((k, b) => k + found(b, 'latin1', text) + found(b, 'utf16le', text), 0);
    expect(count(name, 'park word0 gmbh 0')).toBe(1); // the label, no value beside it
    expect(count(withValues, 'park word0 gmbh 0')).toBe(1);
    expect(count(withValues, 'code-0')).toBe(1);
    expect(bytes(withValues)).toBeGreaterThan(bytes(name));
    expect(reopen(withValues, paging).search('park')[0]).toEqual({
      label: 'park word0 gmbh 0',
      value: 'code-0',
    });
  });

  it('takes a page saved for other data (a stale stamp) from a rebuild', () => {
    const stale = save(() => built, paging);
    writer.db.prepare(`UPDATE index_cache SET stamp = 'old' WHERE name GLOB ? || '/pairs#*'`).run(stale);
    let builds = 0;
    const index = reopen(stale, paging, open(true), () => {
      builds++;
      return built;
    });
    expect(index.search('park').map((i) => i.label)).toEqual(built.search('park').map((i) => i.label));
    expect(builds).toBe(0); // the root and the first candidate page are current, no pair page is read
    expect(index.search('parker')).toEqual(built.search('parker'));
    expect(builds).toBe(1);
    for (const q of ['word12', 'word5', 'ärzte', 'zeta word2'])
      expect(index.search(q), q).toEqual(built.search(q));
  });

  it('takes a damaged page from a rebuild, and reads the others from the file', () => {
    const damaged = save(() => built, paging);
    writer.db
      .prepare(`UPDATE index_cache SET data = zeroblob(64) WHERE name = ?`)
      .run(`${damaged}/candidates#1`);
    let builds = 0;
    const index = reopen(damaged, paging, open(true), () => {
      builds++;
      return built;
    });
    expect(index.search('').map((i) => i.label)).toEqual(built.search('').map((i) => i.label));
    expect(builds).toBe(0); // page 0 is whole
    const all = Array.from({ length: 300 }, (_, r) => names[r]!.label);
    for (const label of all) expect(index.search(label, 1)).toEqual(built.search(label, 1));
    expect(builds).toBe(1); // page 1 (ranks 128–255) came from the rebuild
  });
});
