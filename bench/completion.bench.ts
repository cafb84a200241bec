/**
 * Company-name autocomplete: the engine's own completion index (`src/indexes/completion.ts`) beside
 * FlexSearch and Orama over the same candidates and the same queries, in the same run. This is the
 * measurement that decided what the two libraries are for: neither is imported by the package; they
 * stay as development peers of this bench (see the commit that added it).
 *
 * Candidates: the names of N generated businesses, weighted by how many businesses carry the name.
 * Queries: the workload of `search.bench.ts` (a word of a random name cut to 1–4 characters, every
 * third one with two letters swapped), plus whole words with one typo. Quality: of the top 20 answers,
 * how many hold a word starting with the intended (typo-free) prefix. The engine's index is measured
 * twice: as built in this process (its columns one page in memory) and saved in a file then reopened
 * (its columns in saved pages, read on first use: `completion-pages.ts`), so the cost of the paged
 * accessors shows beside the built one.
 *
 *   node --import tsx bench/completion.bench.ts [--businesses 50000] [--queries 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { Charset, Index } from 'flexsearch';
import { Bench } from 'tinybench';
import { businessRecord, makePlan } from '../tools/generate/index.js';
import { openEngine } from '../src/engine.js';
import { COMPLETION_FORM, CompletionIndex, type CompletionCandidate } from '../src/indexes/completion.js';
import { buildingIndexes, savedIndex } from '../src/indexes/persist.js';
import { foldText } from '../src/normalise/text.js';

const { values } = parseArgs({
  options: { businesses: { type: 'string', default: '50000' }, queries: { type: 'string', default: '2000' } },
});
const N = Number(values.businesses);
const Q = Number(values.queries);
const LIMIT = 20;

const plan = makePlan({ businesses: N, prospects: 0, events: 0 });
const counts = new Map<string, number>();
for (let i = 0; i < N; i++) {
  const name = businessRecord(plan, i).name as string;
  counts.set(name, (counts.get(name) ?? 0) + 1);
}
const candidates: CompletionCandidate[] = [...counts].map(([label, weight]) => ({
  label,
  value: label,
  weight,
}));
const labels = candidates.map((c) => c.label);

// Deterministic workload (LCG), drawn like search.bench.ts's autocomplete queries.
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
interface Query {
  text: string;
  intended: string;
}
const queries: Query[] = [];
for (let i = 0; i < Q; i++) {
  const ws = foldText(labels[Math.floor(rand() * labels.length)]!)
    .split(' ')
    .filter((w) => /^[a-z]+$/.test(w));
  const word = ws[Math.floor(rand() * ws.length)] ?? 'a';
  const whole = i % 4 === 3 && word.length >= 5;
  const intended = whole ? word : word.slice(0, 1 + (i % 4));
  let text = intended;
  if ((whole || i % 3 === 0) && text.length >= 3) text = text.slice(0, -2) + text.at(-1) + text.at(-2);
  queries.push({ text, intended });
}

const time = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
};
const [ours, oursBuild] = time(() => new CompletionIndex(candidates, LIMIT));
// The same index saved in a file and reopened by another engine, as a later process reads it.
const dir = mkdtempSync(join(tmpdir(), 'pdb-completion-bench-'));
const file = join(dir, 'completion.db');
const writer = openEngine({ path: file });
const kind = (build: () => CompletionIndex) => savedIndex('bench.completion', build, COMPLETION_FORM);
buildingIndexes(writer, () => writer.indexes.get(kind(() => ours)));
writer.close();
const reader = openEngine({ path: file, readonly: true });
const [reopened, reopenMs] = time(() =>
  reader.indexes.get(
    kind(() => {
      throw new Error('rebuilt instead of read back');
    }),
  ),
);
const [flex, flexBuild] = time(() => {
  // Forward tokenizer = prefix search on every word; LatinBalance folds case and accents.
  const index = new Index({ tokenize: 'forward', encoder: Charset.LatinBalance });
  labels.forEach((label, id) => index.add(id, label));
  return index;
});
const orama = create({ schema: { name: 'string', weight: 'number' } as const });
const [, oramaBuild] = time(() =>
  insertMultiple(
    orama,
    candidates.map((c) => ({ name: c.label, weight: c.weight })),
  ),
);

const engines: Record<string, (q: string) => string[]> = {
  'prospectdb completion index': (q) => ours.search(q, LIMIT).map((i) => i.label),
  'prospectdb, reopened (paged)': (q) => reopened.search(q, LIMIT).map((i) => i.label),
  'FlexSearch (forward, suggest)': (q) =>
    (flex.search(q, { limit: LIMIT, suggest: true }) as number[]).map((id) => labels[id]!),
  'Orama (tolerance 1)': (q) => {
    const r = oramaSearch(orama, { term: q, properties: ['name'], tolerance: 1, limit: LIMIT }) as {
      hits: { document: { name: string } }[];
    };
    return r.hits.map((h) => h.document.name);
  },
};

const quality: Record<string, { answers: number; onTarget: number }> = {};
for (const [name, run] of Object.entries(engines)) {
  let answers = 0;
  let onTarget = 0;
  for (const q of queries) {
    const got = run(q.text);
    answers += got.length;
    onTarget += got.filter((label) =>
      foldText(label)
        .split(' ')
        .some((w) => w.startsWith(q.intended)),
    ).length;
  }
  quality[name] = { answers: answers / queries.length, onTarget: onTarget / queries.length };
}

// One pass over every query per engine, as a cross-check of tinybench's per-call figures.
const pass: Record<string, number> = {};
for (const [name, run] of Object.entries(engines))
  pass[name] = time(() => {
    for (const q of queries) run(q.text);
  })[1];

const bench = new Bench({ time: 2_000, warmup: true });
let i = 0;
for (const [name, run] of Object.entries(engines))
  bench.add(name, () => {
    run(queries[i++ % queries.length]!.text);
  });
await bench.run();

const built: Record<string, number> = {
  'prospectdb completion index': oursBuild,
  'prospectdb, reopened (paged)': reopenMs,
  'FlexSearch (forward, suggest)': flexBuild,
  'Orama (tolerance 1)': oramaBuild,
};
const oursP50 = (bench.tasks[0]!.result as { latency: { p50: number } }).latency.p50;
console.table(
  bench.tasks.map((t) => {
    const latency = (t.result as { latency: { p50: number; p99: number } }).latency;
    return {
      engine: t.name,
      'build (open) ms': Math.round(built[t.name]!),
      'query p50 µs': Math.round(latency.p50 * 1000),
      'query p99 µs': Math.round(latency.p99 * 1000),
      'p50 × ours': (latency.p50 / oursP50).toFixed(2),
      'all queries ms': Math.round(pass[t.name]!),
      'answers / query': quality[t.name]!.answers.toFixed(1),
      'on target / query': quality[t.name]!.onTarget.toFixed(1),
    };
  }),
);
console.log(
  `${candidates.length} distinct names of ${N} generated businesses; ${Q} queries (1–4 letters, a third with swapped letters; whole words with one typo).`,
);
console.log(`Reopened: ${JSON.stringify(reopened.pages)} pages read after every query (build ms = open).`);
reader.close();
rmSync(dir, { recursive: true, force: true });
