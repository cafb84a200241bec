/**
 * Same-run comparison of this tree's matcher with another checkout's (the base of a change). The parent
 * generates one snapshot and draws the mixed rows (every perturbation kind, plus rows for entities not
 * in the database) once; then child processes, base and this in turn (`--rounds` each, interleaved),
 * load the snapshot with their own code and time plain batch runs (best of `--reps`). One process per
 * tree: two trees in one process share a heap and JIT state, which skews whichever runs second. Prints
 * each round, the median rows/s of each and the ratio, and the listed-name self-match misses of each
 * when `shared/data/real` is there.
 *
 *   node --import tsx bench/match/self-match-compare.ts --base /path/to/base/checkout [--businesses 20000]
 *     [--prospects 20000] [--per-kind 200] [--reps 5] [--rounds 3]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { listedCompanyNames, realDataDir } from './real-data.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    child: { type: 'string' },
    work: { type: 'string' },
    businesses: { type: 'string', default: '20000' },
    prospects: { type: 'string', default: '20000' },
    'per-kind': { type: 'string', default: '200' },
    reps: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
});
const log = (s: string) => process.stdout.write(s + '\n');

interface Engine {
  load(dir: string, o?: object): Promise<unknown>;
  close(): void;
}
type Rows = (e: Engine, rows: readonly object[], o?: object) => { business_id?: string | null }[];

/** In a child: the tree's timings as one JSON line. */
async function child(root: string, work: string): Promise<void> {
  const at = (p: string) => pathToFileURL(join(root, p)).href;
  const { openEngine } = (await import(at('src/engine.ts'))) as { openEngine: () => Engine };
  const m = (await import(at('src/core/match/index.ts'))) as {
    matchBusinessRows: Rows;
    matchProspectRows: Rows;
  };
  const { b, p } = JSON.parse(readFileSync(join(work, 'rows.json'), 'utf8')) as { b: object[]; p: object[] };
  const engine = openEngine();
  await engine.load(join(work, 'snapshot'));
  m.matchBusinessRows(engine, b);
  m.matchProspectRows(engine, p);
  let bMs = Infinity;
  let pMs = Infinity;
  for (let r = 0; r < Number(values.reps); r++) {
    let t0 = performance.now();
    m.matchBusinessRows(engine, b);
    bMs = Math.min(bMs, performance.now() - t0);
    t0 = performance.now();
    m.matchProspectRows(engine, p);
    pMs = Math.min(pMs, performance.now() - t0);
  }
  engine.close();
  let listed: { none: number; wrong: number; total: number } | null = null;
  if (existsListed(work)) {
    const names = JSON.parse(readFileSync(join(work, 'listed.json'), 'utf8')) as string[];
    const e = openEngine();
    await e.load(join(work, 'listed'), { strict: true });
    const got = m.matchBusinessRows(
      e,
      names.map((name) => ({ name })),
    );
    let none = 0;
    let wrong = 0;
    got.forEach((row, i) => {
      if (row.business_id === null) none++;
      else if (row.business_id !== hexId(i)) wrong++;
    });
    listed = { none, wrong, total: names.length };
    e.close();
  }
  log(JSON.stringify({ b: (b.length / bMs) * 1000, p: (p.length / pMs) * 1000, listed }));
}

const hexId = (i: number) => i.toString(16).padStart(32, '0');
const existsListed = (work: string) => {
  try {
    readFileSync(join(work, 'listed.json'));
    return true;
  } catch {
    return false;
  }
};

async function parent(base: string): Promise<void> {
  const { generateSnapshot } = await import('../../tools/generate/index.js');
  const { benchRows, exactMaps } = await import('../../tools/bench/match-rows.js');
  const { openEngine } = await import('../../src/engine.js');
  const work = mkdtempSync(join(tmpdir(), 'self-match-compare-'));
  await generateSnapshot({
    dir: join(work, 'snapshot'),
    businesses: Number(values.businesses),
    prospects: Number(values.prospects),
    events: 0,
    seed: 7,
    format: 'jsonl',
  });
  const engine = openEngine();
  await engine.load(join(work, 'snapshot'));
  const rows = benchRows(engine, exactMaps(engine), 0, Number(values['per-kind']), 3);
  engine.close();
  const b = rows.mixedBusinesses.map((r) => r.input);
  const p = rows.mixedProspects.map((r) => r.input);
  writeFileSync(join(work, 'rows.json'), JSON.stringify({ b, p }));
  log(`${b.length} mixed business rows, ${p.length} mixed prospect rows`);
  const real = realDataDir();
  if (real !== null) {
    const names = listedCompanyNames(real);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(work, 'listed'));
    const records = names.map((name, i) => ({
      business_id: hexId(i),
      name,
      country_code: 'US',
      number_of_employees_range: '11-50',
      is_public_company: false,
    }));
    writeFileSync(
      join(work, 'listed', 'businesses.jsonl'),
      records.map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    writeFileSync(
      join(work, 'listed', 'manifest.json'),
      JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
    );
    writeFileSync(join(work, 'listed.json'), JSON.stringify(names));
  }
  const here = join(import.meta.dirname, '../..');
  const runs: Record<string, { b: number; p: number; listed: unknown }[]> = { base: [], this: [] };
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const [label, root] of (r % 2 === 0
      ? [
          ['base', base],
          ['this', here],
        ]
      : [
          ['this', here],
          ['base', base],
        ]) as [string, string][]) {
      const out = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          import.meta.filename,
          '--child',
          root,
          '--work',
          work,
          '--reps',
          values.reps as string,
        ],
        { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 },
      );
      const got = JSON.parse(out.trim().split('\n').pop() as string) as {
        b: number;
        p: number;
        listed: unknown;
      };
      runs[label]!.push(got);
      log(
        `round ${r + 1} ${label}: businesses ${Math.round(got.b)} rows/s, prospects ${Math.round(got.p)} rows/s`,
      );
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
  const med = (label: string, k: 'b' | 'p') => median(runs[label]!.map((x) => x[k]));
  for (const label of ['base', 'this'])
    log(
      `${label}: median businesses ${Math.round(med(label, 'b'))} rows/s, prospects ${Math.round(med(label, 'p'))} rows/s; listed names ${JSON.stringify(runs[label]![0]!.listed)}`,
    );
  log(
    `ratio this/base: businesses ${(med('this', 'b') / med('base', 'b')).toFixed(3)}x, prospects ${(med('this', 'p') / med('base', 'p')).toFixed(3)}x`,
  );
}

if (values.child !== undefined) await child(values.child, values.work as string);
else if (values.base === undefined) throw new Error('--base: the checkout to compare with');
else await parent(values.base);
