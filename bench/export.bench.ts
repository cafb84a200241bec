/**
 * Export throughput and memory: every prospect (full records) to Parquet, JSON Lines and CSV through
 * `exportProspects` + `writeExport`, beside a same-run baseline that reads the same rows with plain
 * SQLite (`SELECT wire … ORDER BY rowid`), decodes them and writes JSON Lines with `JSON.stringify`.
 *
 *   node --expose-gc --import tsx bench/export.bench.ts [--prospects 200000] [--runs 2]
 *
 * Records/s from each task's best run (tinybench, fixed iterations); RSS growth = peak anonymous
 * resident memory during a run (sampled every 5,000 records) minus the same before it, after a GC; it
 * includes SQLite's page cache (the engine sets 256 MiB) and the garbage V8 has not collected yet, so
 * the heap still held after the run (after a GC) is shown beside it. The database is
 * the search bench's (generated and loaded under bench/.data/ on first use).
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { exportProspects } from '../src/core/export.js';
import { openEngine } from '../src/engine.js';
import { exportColumns } from '../src/export/columns.js';
import { writeExport, type ExportFormat } from '../src/export/write.js';
import { generateSnapshot } from '../src/generate/index.js';
import { prospectIndex } from '../src/indexes/prospects.js';
import { buildIndexes } from '../src/core/warm.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';
import { wireCodec } from '../src/store/wire.js';

const { values: args } = parseArgs({
  options: {
    prospects: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '2' },
  },
});
const N = Number(args.prospects);
const RUNS = Number(args.runs);
const DATA = join(import.meta.dirname, '.data');
mkdirSync(DATA, { recursive: true });

/** The search bench's database (same name, same seed), built here when missing. */
async function database(): Promise<string> {
  const file = join(DATA, `search-v${SCHEMA_VERSION}-${N}.db`);
  if (existsSync(file)) return file;
  const dir = join(DATA, `snapshot-${N}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    await generateSnapshot({
      dir,
      businesses: Math.round(N / 5),
      prospects: N,
      events: Math.round(N / 10),
      seed: 7,
      format: 'jsonl.gz',
    });
  }
  const e = openEngine({ path: file });
  await e.load(dir);
  buildIndexes(e); // saved in the file, so readonly opens read them back
  e.close();
  return file;
}

/** Anonymous resident memory (heap, buffers): the mmap-ed database pages a scan touches are file-backed
 * and dropped by the kernel at will, so total RSS mostly measured the file's size. */
const rss = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^RssAnon:\s+(\d+)/m.exec(status)?.[1] ?? NaN) * 1024;
};
const heap = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
let heapBefore = 0;
function settle() {
  global.gc?.();
  global.gc?.();
  heapBefore = heap();
  return rss();
}
function retained(r: Result) {
  global.gc?.();
  global.gc?.();
  r.retained = Math.max(r.retained, heap() - heapBefore);
}

const file = await database();
const engine = openEngine({ path: file, readonly: true });
prospectIndex(engine); // read the saved indexes outside the timers
const count = engine.info().counts.prospects;
const out = (name: string) => join(DATA, `export-${N}.${name}`);
const columns = exportColumns('prospects', 'full');

interface Result {
  bestMs: number;
  growth: number;
  /** JS heap + array buffers still held after the run, after a GC (what the export keeps). */
  retained: number;
  bytes: number;
}
const results = new Map<string, Result>();
function track(name: string) {
  let r = results.get(name);
  if (!r) results.set(name, (r = { bestMs: Infinity, growth: 0, retained: 0, bytes: 0 }));
  return r;
}

async function ours(format: ExportFormat) {
  const r = track(`prospectdb export → ${format}`);
  const before = settle();
  let peak = before;
  const t = performance.now();
  const n = await writeExport(exportProspects(engine, { mode: 'full' }), {
    format,
    out: out(format),
    columns,
    onRecord: (k) => {
      if (k % 5_000 === 0) peak = Math.max(peak, rss());
    },
  });
  r.bestMs = Math.min(r.bestMs, performance.now() - t);
  r.growth = Math.max(r.growth, Math.max(peak, rss()) - before);
  r.bytes = statSync(out(format)).size;
  retained(r);
  if (n !== count) throw new Error(`exported ${n} of ${count}`);
}

/** Baseline: plain SQLite read of the stored records, decoded, JSON.stringify to a file. */
function baseline() {
  const r = track('baseline: SQLite SELECT + decode + JSON.stringify → jsonl');
  const before = settle();
  let peak = before;
  const path = out('baseline.jsonl');
  const fd = openSync(path, 'w');
  const t = performance.now();
  let buffer = '';
  let n = 0;
  for (const wire of engine.db
    .prepare('SELECT wire FROM prospects ORDER BY rowid')
    .pluck()
    .iterate() as Iterable<Buffer>) {
    buffer += JSON.stringify(wireCodec.unpack(wire)) + '\n';
    if (buffer.length >= 1 << 16) {
      writeSync(fd, buffer);
      buffer = '';
    }
    if (++n % 5_000 === 0) peak = Math.max(peak, rss());
  }
  writeSync(fd, buffer);
  closeSync(fd);
  r.bestMs = Math.min(r.bestMs, performance.now() - t);
  r.growth = Math.max(r.growth, Math.max(peak, rss()) - before);
  r.bytes = statSync(path).size;
  retained(r);
  if (n !== count) throw new Error(`read ${n} of ${count}`);
}

const bench = new Bench({ iterations: RUNS, warmupIterations: 0, time: 0, warmup: false });
bench
  .add('baseline', baseline)
  .add('parquet', () => ours('parquet'))
  .add('jsonl', () => ours('jsonl'))
  .add('csv', () => ours('csv'));
await bench.run();

const base = results.get('baseline: SQLite SELECT + decode + JSON.stringify → jsonl')!;
const MB = 1024 * 1024;
console.log(`prospects: ${count.toLocaleString('en-US')}, runs: ${RUNS} (best run shown)`);
console.table(
  [...results].map(([name, r]) => ({
    workload: name,
    'records/s': Math.round((count / r.bestMs) * 1000).toLocaleString('en-US'),
    'vs baseline': `${(base.bestMs / r.bestMs).toFixed(2)}×`,
    'RssAnon growth MB (peak)': (r.growth / MB).toFixed(0),
    'heap retained MB (after GC)': (r.retained / MB).toFixed(1),
    'file MB': (r.bytes / MB).toFixed(1),
    goal: name.includes('parquet') ? '≥ 100k records/s, RSS growth ≤ 200 MB (at 1M)' : '',
  })),
);
for (const f of ['parquet', 'jsonl', 'csv', 'baseline.jsonl']) rmSync(out(f), { force: true });
engine.close();
