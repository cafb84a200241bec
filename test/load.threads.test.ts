/** A load and its index build on one thread or on several give the same file. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndexes, buildIndexesThreaded } from '../src/core/warm.js';
import {
  autocomplete,
  fetchProspects,
  matchBusinesses,
  matchProspects,
  openEngine,
  type Engine,
} from '../src/index.js';
import { AUTO_THREADS_MIN_BYTES, AUTO_THREADS_MIN_ROWS, loadThreads } from '../src/store/load.js';
import { LoadPool } from '../src/store/load-pool.js';
import { preparer, prepareLines, type PreparedBatch, type StreamSetup } from '../src/store/load-worker.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { DEMO_DIR } from './support/demo.js';
import { rowDigest, rowDigests } from './support/rows.js';
import { tempDir } from './support/temp.js';

const engines: Engine[] = [];
afterAll(() => engines.forEach((e) => e.closed || e.close()));

/**
 * Every row of every table the load and the index build write, in rowid order, each as a digest of its
 * values (comparing megabytes of blobs value by value is slow): a difference names the table and row.
 */
function dump(e: Engine) {
  const all = (sql: string) => rowDigests(e.db, sql);
  return {
    businesses: all('SELECT * FROM businesses ORDER BY rowid'),
    prospects: all('SELECT * FROM prospects ORDER BY rowid'),
    // `ingested_at` is the time of the load.
    events: all(
      'SELECT event_id, event_name, entity_type, entity_id, event_time, doc FROM events ORDER BY rowid',
    ),
    // The cursor secret is random per file.
    meta: e.db.prepare("SELECT key, value FROM meta WHERE key NOT LIKE '%secret%' ORDER BY key").all(),
    indexes: (
      e.db.prepare('SELECT name, part, stamp, data FROM index_cache ORDER BY name, part').raw().all() as [
        string,
        number,
        string,
        Buffer,
      ][]
    ).map(([name, part, stamp, data]) => [name, part, stamp, rowDigest([data])]),
  };
}

describe('threads', () => {
  it('default to the cores available, or to 1 for work too small to repay a worker; a given count stands', () => {
    const cores = availableParallelism();
    expect(loadThreads(undefined, () => AUTO_THREADS_MIN_BYTES, AUTO_THREADS_MIN_BYTES)).toBe(cores);
    expect(loadThreads(undefined, () => AUTO_THREADS_MIN_BYTES - 1, AUTO_THREADS_MIN_BYTES)).toBe(1);
    expect(loadThreads(undefined, () => AUTO_THREADS_MIN_ROWS - 1, AUTO_THREADS_MIN_ROWS)).toBe(1);
    expect(loadThreads(undefined)).toBe(cores);
    expect(loadThreads(2, () => 10, AUTO_THREADS_MIN_BYTES)).toBe(2);
    expect(loadThreads(0, () => Infinity, 0)).toBe(1);
  });

  it('read a count above the cores as the cores, and refuse one that is not a whole number ≥ 0, naming it', async () => {
    expect(loadThreads(1e9)).toBe(availableParallelism());
    for (const threads of [-1, 1.5, Number.NaN, 'x'] as never[]) {
      expect(() => loadThreads(threads)).toThrow(
        `threads must be a whole number ≥ 0 (0 is read as 1), not ${String(threads)}`,
      );
    }
    // Through the library, before a row is read or written.
    const engine = openEngine();
    try {
      await expect(engine.load(DEMO_DIR, { threads: -1 })).rejects.toMatchObject({
        code: 'VALIDATION',
        issues: [{ loc: ['threads'], type: 'value_error' }],
      });
      await expect(buildIndexesThreaded(engine, { threads: 2.5 })).rejects.toMatchObject({
        code: 'VALIDATION',
      });
    } finally {
      engine.close();
    }
  });

  it('load and build the indexes into the same rows and the same saved index bytes on 1 thread and on 2', async () => {
    const root = tempDir('pdb-threads-');
    const dir = join(root, 'snapshot');
    // Streams above 1 MiB, so the prospects and businesses go through the workers.
    await generateSnapshot({ dir, businesses: 200, prospects: 1000, events: 100, seed: 11, format: 'jsonl' });
    const load = async (threads: number) => {
      const engine = openEngine({ path: join(root, `t${threads}.db`) });
      engines.push(engine);
      const report = await engine.load(dir, { threads });
      if (threads === 1) buildIndexes(engine);
      else await buildIndexesThreaded(engine, { threads });
      return { engine, report };
    };
    const one = await load(1);
    const three = await load(2);
    expect(three.report.streams).toEqual(one.report.streams);
    expect(three.report.snapshotId).toBe(one.report.snapshotId);
    const expected = dump(one.engine);
    expect(expected.prospects.length).toBe(1000);
    expect(expected.indexes.length).toBeGreaterThan(20);
    expect(dump(three.engine)).toEqual(expected);
    // The engine that built on workers answers (from the saved indexes) as the other does (from memory).
    const page = { mode: 'preview', page_size: 25 } as const;
    expect(fetchProspects(three.engine, page)).toEqual(fetchProspects(one.engine, page));
    const [b] = one.engine.db.prepare('SELECT name FROM businesses LIMIT 1').raw().get() as [string];
    const businesses = [{ name: b }, { name: b.slice(0, -1) }];
    expect(matchBusinesses(three.engine, businesses)).toEqual(matchBusinesses(one.engine, businesses));
    const [p] = one.engine.db.prepare('SELECT full_name FROM prospects LIMIT 1').raw().get() as [string];
    const prospects = [{ full_name: p, company_name: b }];
    expect(matchProspects(three.engine, prospects)).toEqual(matchProspects(one.engine, prospects));
    const query = { field: 'company_name', query: b.slice(0, 3) } as const;
    expect(autocomplete(three.engine, query)).toEqual(autocomplete(one.engine, query));
  }, 600_000);

  it('prepares every batch on the loading thread, in order, when the pool worker fails while it starts', async () => {
    const root = tempDir('pdb-threads-');
    const dir = join(root, 'snapshot');
    await generateSnapshot({ dir, businesses: 400, prospects: 0, events: 0, seed: 5, format: 'jsonl' });
    const path = join(dir, 'businesses.jsonl');
    const setup: StreamSetup = { stream: 'businesses', asOfYear: 2026, loadedAt: 0 };
    const digest = (batches: PreparedBatch[]) =>
      batches.flatMap((b) =>
        b.items.map((item, i) => {
          const h = createHash('sha256').update(String(b.lines[i]));
          if (typeof item === 'string') return h.update(item).digest('hex');
          for (const v of item.values) h.update(v instanceof Uint8Array ? v : `${String(v)}\0`);
          return h.digest('hex');
        }),
      );
    const expected = digest([
      prepareLines(preparer(setup), { seq: 0, firstLine: 1, bytes: readFileSync(path) }),
    ]);
    expect(expected.length).toBe(400);

    const pool = await LoadPool.start(1, () => new Worker('throw new Error("cannot load")', { eval: true }));
    expect(pool).toBeDefined();
    const batches: PreparedBatch[] = [];
    await pool!.run(
      { stream: 'businesses', path, format: 'jsonl' },
      setup,
      () => undefined,
      (b) => {
        batches.push(b);
      },
    );
    await pool!.close();
    // Several batches (the file is ~3 MB, cut at 1 MiB), all prepared here, same rows and line numbers.
    expect(batches.length).toBeGreaterThan(1);
    expect(digest(batches)).toEqual(expected);
  });
});
