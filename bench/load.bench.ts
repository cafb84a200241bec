/**
 * Load throughput in rows/s (all streams), measured in one run with interleaved rounds so a busy shared
 * machine slows every task alike, and their ratios:
 * - parse only: read every file and `JSON.parse` each line on one thread (the floor of any JSON loader);
 * - DuckDB `read_json` into one table per stream (a columnar engine's bulk load, same files);
 * - `prospectdb load` end to end as the command runs it (load, build and save every index, settle the
 *   file) with 0, 1 and 2 worker threads.
 * The snapshot (20k businesses, 200k prospects, 2k events by default) is generated once into a temp
 * folder outside the repo and deleted at the end.
 *
 *   node --import tsx bench/load.bench.ts [--prospects 200000] [--rounds 3] [--threads 0,1,2]
 *
 * Each figure is the best of its rounds; the ratios are of those bests.
 */
import type * as DuckDB from '@duckdb/node-api';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildIndexes } from '../src/core/warm.js';
import { openEngine } from '../src/engine.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { STREAMS } from '../src/snapshot/files.js';
import { readBatches } from '../src/snapshot/read.js';
import { settleSnapshotFile } from '../src/store/open.js';

const { values } = parseArgs({
  options: {
    prospects: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '0,1,2' },
  },
});
const prospects = Number(values.prospects);
const rounds = Math.max(1, Number(values.rounds));
const threadCounts = values.threads.split(',').map(Number);

const work = mkdtempSync(join(tmpdir(), 'pdb-load-bench-'));
const dir = join(work, 'snapshot');
await generateSnapshot({
  dir,
  businesses: Math.round(prospects / 10),
  prospects,
  events: Math.round(prospects / 100),
  seed: 7,
  format: 'jsonl',
});
const files = STREAMS.map((s) => ({ stream: s, path: join(dir, `${s}.jsonl`) }));

async function parseOnly(): Promise<number> {
  let rows = 0;
  for (const f of files) for await (const batch of readBatches(f.path, 'jsonl')) rows += batch.length;
  return rows;
}

type DuckModule = typeof DuckDB;
let duck: DuckModule | null = null;
try {
  duck = (await import('@duckdb/node-api')) as DuckModule;
} catch {
  console.error('@duckdb/node-api not installed: no DuckDB baseline');
}

async function duckdbLoad(): Promise<void> {
  const path = join(work, 'duck.db');
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
  const instance = await duck!.DuckDBInstance.create(path);
  const connection = await instance.connect();
  for (const f of files) {
    await connection.run(
      `CREATE TABLE ${f.stream} AS SELECT * FROM read_json('${f.path}', format = 'newline_delimited')`,
    );
  }
  connection.closeSync();
  instance.closeSync();
}

/** What `prospectdb load` does: load, build and save every index, close, settle the file. */
async function prospectdbLoad(threads: number): Promise<void> {
  const path = join(work, 'load.db');
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
  const engine = openEngine({ path });
  await engine.load(dir, { threads });
  buildIndexes(engine);
  await engine.state.close();
  engine.close();
  settleSnapshotFile(path);
}

const rows = await parseOnly();
const tasks: [string, () => Promise<unknown>][] = [
  ['parse only (read + JSON.parse, 1 thread)', parseOnly],
  ...(duck ? [['DuckDB read_json into tables', duckdbLoad] as [string, () => Promise<void>]] : []),
  ...threadCounts.map(
    (t) => [`prospectdb load, threads ${t}`, () => prospectdbLoad(t)] as [string, () => Promise<void>],
  ),
];
const best = new Map<string, number>();
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of tasks) {
    const started = performance.now();
    await run();
    const ms = performance.now() - started;
    best.set(name, Math.min(best.get(name) ?? Infinity, ms));
  }
}
const rate = (name: string) => rows / ((best.get(name) ?? NaN) / 1000);
const duckRate = duck ? rate('DuckDB read_json into tables') : NaN;
const oneThread = rate('prospectdb load, threads 1');
console.table(
  tasks.map(([name]) => ({
    task: name,
    'rows/s': Math.round(rate(name)),
    's (best)': +((best.get(name) ?? NaN) / 1000).toFixed(2),
    '× DuckDB': +(rate(name) / duckRate).toFixed(2),
    '× threads 1': +(rate(name) / oneThread).toFixed(2),
  })),
);
const bytes = files.reduce((n, f) => n + statSync(f.path).size, 0);
console.log(
  `${rows.toLocaleString('en-US')} rows (${(bytes / 1e6).toFixed(0)} MB of JSON Lines), best of ${rounds} ` +
    `interleaved rounds; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(2)}`,
);
rmSync(work, { recursive: true, force: true });
