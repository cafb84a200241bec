/**
 * A delta applied vs a full load of the same merged data, in one run with interleaved rounds (a busy
 * shared machine slows both alike), and their ratio:
 * - full load: `prospectdb load` of the merged snapshot into a new file (load, build and save every
 *   index, settle), default worker threads;
 * - delta: `prospectdb load --base` (`applyDeltaFile`): copy the base file, apply the delta, build and
 *   save every index, settle, rename; its parts (copy, apply, index build) printed beside it;
 * - the three ways to copy the base file (byte copy, SQLite backup, VACUUM INTO).
 * The base (`--prospects`, a fifth as many businesses, a tenth as many events), a delta of `--fraction`
 * of each stream and the merged snapshot are generated once into a temp folder, deleted at the end.
 *
 *   node --import tsx bench/delta.bench.ts [--prospects 100000] [--fraction 0.01] [--rounds 2]
 *
 * Each figure is the best of its rounds; the ratios are of those bests.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { applyDeltaFile } from '../src/api/delta.js';
import { buildIndexes } from '../src/core/warm.js';
import { openEngine } from '../src/engine.js';
import { COPY_METHODS, copySnapshotFile, type CopyMethod } from '../src/store/delta-copy.js';
import { settleSnapshotFile } from '../src/store/open.js';
import { generateDelta } from '../tools/generate/delta.js';
import { generateSnapshot } from '../tools/generate/index.js';

const { values } = parseArgs({
  options: {
    prospects: { type: 'string', default: '100000' },
    fraction: { type: 'string', default: '0.01' },
    rounds: { type: 'string', default: '2' },
  },
});
const prospects = Number(values.prospects);
const fraction = Number(values.fraction);
const rounds = Math.max(1, Number(values.rounds));

const work = mkdtempSync(join(tmpdir(), 'pdb-delta-bench-'));
const snap = join(work, 'base');
const delta = join(work, 'delta');
const merged = join(work, 'merged');
const started = performance.now();
await generateSnapshot({
  dir: snap,
  businesses: Math.round(prospects / 5),
  prospects,
  events: Math.round(prospects / 10),
  seed: 7,
});
const generated = await generateDelta({ base: snap, dir: delta, merged, fraction });
console.error(
  `generated base, delta and merged snapshot in ${((performance.now() - started) / 1000).toFixed(1)}s`,
);

/** What `prospectdb load` does; returns its parts. */
async function fullLoad(dir: string, path: string): Promise<{ load: number; index: number }> {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  const engine = openEngine({ path, state: ':memory:' });
  const t0 = performance.now();
  await engine.load(dir);
  const t1 = performance.now();
  buildIndexes(engine);
  const t2 = performance.now();
  await engine.state.close();
  engine.close();
  settleSnapshotFile(path);
  return { load: t1 - t0, index: t2 - t1 };
}

const base = join(work, 'base.db');
await fullLoad(snap, base);

interface Round {
  full: number;
  fullLoad: number;
  fullIndex: number;
  delta: number;
  deltaCopy: number;
  deltaApply: number;
  deltaIndex: number;
  copy: Record<CopyMethod, number>;
}
const results: Round[] = [];
for (let r = 0; r < rounds; r++) {
  const t0 = performance.now();
  const full = await fullLoad(merged, join(work, 'full.db'));
  const fullMs = performance.now() - t0;
  const out = join(work, 'next.db');
  rmSync(out, { force: true });
  const t1 = performance.now();
  const report = await applyDeltaFile({ base, delta, out });
  const deltaMs = performance.now() - t1;
  const copy = {} as Record<CopyMethod, number>;
  for (const m of COPY_METHODS) {
    const to = join(work, `copy-${m}.db`);
    rmSync(to, { force: true });
    const t = performance.now();
    await copySnapshotFile(base, to, m);
    copy[m] = performance.now() - t;
    rmSync(to, { force: true });
  }
  results.push({
    full: fullMs,
    fullLoad: full.load,
    fullIndex: full.index,
    delta: deltaMs,
    deltaCopy: report.copy.ms,
    deltaApply: report.elapsedMs,
    deltaIndex: report.indexMs,
    copy,
  });
  const full2 = openEngine({ path: join(work, 'full.db'), readonly: true, state: ':memory:' });
  const next = openEngine({ path: out, readonly: true, state: ':memory:' });
  const same = JSON.stringify(full2.info().counts) === JSON.stringify(next.info().counts);
  await full2.state.close();
  await next.state.close();
  full2.close();
  next.close();
  if (!same) throw new Error('the delta and the full load hold different counts');
}

const best = <K extends keyof Round>(k: K) => Math.min(...results.map((r) => r[k] as number));
const bestCopy = (m: CopyMethod) => Math.min(...results.map((r) => r.copy[m]));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const pct = (ms: number) => `${((100 * ms) / best('full')).toFixed(1)} %`;
const c = generated.counts;
const size = (p: string) => `${(statSync(p).size / 1e6).toFixed(0)} MB`;
console.log(
  `delta vs full load: ${prospects.toLocaleString('en-US')} prospects, ${Math.round(prospects / 5).toLocaleString('en-US')} businesses, ` +
    `${Math.round(prospects / 10).toLocaleString('en-US')} events; delta of ${fraction * 100} % per stream ` +
    `(${c.businesses} businesses, ${c.prospects} prospects, ${c.events} events, ${c.deletions} deletions); ` +
    `base file ${size(base)}; best of ${rounds} round(s); load average ${loadavg()[0]!.toFixed(1)}`,
);
const rows: [string, number][] = [
  ['full load (load + index build + settle)', best('full')],
  ['  load', best('fullLoad')],
  ['  index build', best('fullIndex')],
  ['delta (copy + apply + index build + settle)', best('delta')],
  ['  copy of the base', best('deltaCopy')],
  ['  delta applied (SQL)', best('deltaApply')],
  ['  index build', best('deltaIndex')],
  ['delta without the index build', best('delta') - best('deltaIndex')],
  ...COPY_METHODS.map((m) => [`copy the base: ${m}`, bestCopy(m)] as [string, number]),
];
for (const [name, ms] of rows)
  console.log(`${name.padEnd(46)} ${s(ms).padStart(9)}  ${pct(ms).padStart(7)} of a full load`);
rmSync(work, { recursive: true, force: true });
