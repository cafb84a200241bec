/**
 * Load throughput (rows/s, indexes included) for 100k and 1M generated prospects, and the time to re-open
 * a built database. Baseline in the same run: reading and JSON-parsing the same files without validating
 * or storing them (the I/O + parse upper bound). Snapshots are cached under bench/.data/.
 *
 *   node --expose-gc --import tsx bench/load.bench.ts [--sizes 100000,1000000] [--runs 3]
 *
 * On a shared machine, `--runs N` runs each task N times and keeps the fastest of each; the load average
 * at the end of each size is printed beside the figures.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { openEngine } from '../src/engine.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { STREAMS } from '../src/snapshot/files.js';
import { readBatches } from '../src/snapshot/read.js';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '100000,1000000' }, runs: { type: 'string', default: '1' } },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Math.max(1, Number(values.runs));
const DATA = join(import.meta.dirname, '.data');
mkdirSync(DATA, { recursive: true });

async function snapshotOf(prospects: number): Promise<string> {
  const dir = join(DATA, `snapshot-${prospects}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    const started = performance.now();
    await generateSnapshot({
      dir,
      businesses: Math.round(prospects / 5),
      prospects,
      events: Math.round(prospects / 10),
      seed: 7,
      format: 'jsonl.gz',
    });
    console.error(`generated ${dir} in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  }
  return dir;
}

async function parseOnly(dir: string): Promise<number> {
  let rows = 0;
  for (const stream of STREAMS) {
    const path = join(dir, `${stream}.jsonl.gz`);
    if (!existsSync(path)) continue;
    for await (const batch of readBatches(path, 'jsonl.gz')) rows += batch.length;
  }
  return rows;
}

const table: Record<string, string | number>[] = [];
for (const size of sizes) {
  const dir = await snapshotOf(size);
  const dbPath = join(DATA, `load-${size}.db`);
  let rows = 0;
  let loadMs = Infinity;
  let loadSingleMs = Infinity;
  let parseMs = Infinity;
  const bench = new Bench({ iterations: runs, warmupIterations: 0, time: 0, warmup: false });
  bench
    .add(`parse only (baseline) ${size}`, async () => {
      const t = performance.now();
      rows = await parseOnly(dir);
      parseMs = Math.min(parseMs, performance.now() - t);
    })
    .add(`load ${size}`, async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
      const engine = openEngine({ path: dbPath });
      const t = performance.now();
      await engine.load(dir);
      loadMs = Math.min(loadMs, performance.now() - t);
      engine.close();
    })
    .add(`load ${size} (threads: 1)`, async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
      const engine = openEngine({ path: dbPath });
      const t = performance.now();
      await engine.load(dir, { threads: 1 });
      loadSingleMs = Math.min(loadSingleMs, performance.now() - t);
      engine.close();
    });
  await bench.run();
  const reopen = new Bench({ time: 500 });
  reopen.add(`re-open ${size}`, () => {
    const engine = openEngine({ path: dbPath });
    engine.info();
    engine.close();
  });
  await reopen.run();
  const reopenMs =
    reopen.tasks[0]?.result && 'latency' in reopen.tasks[0].result
      ? reopen.tasks[0].result.latency.mean
      : NaN;
  table.push({
    prospects: size,
    'rows (all streams)': rows,
    'load s': +(loadMs / 1000).toFixed(2),
    'load rows/s': Math.round(rows / (loadMs / 1000)),
    'load rows/s (threads: 1)': Math.round(rows / (loadSingleMs / 1000)),
    'parse-only rows/s': Math.round(rows / (parseMs / 1000)),
    'load / parse-only': +(parseMs / loadMs).toFixed(3),
    're-open ms': +reopenMs.toFixed(2),
    runs,
    'load average (1 min)': +(loadavg()[0] ?? 0).toFixed(2),
  });
}
console.table(table);
