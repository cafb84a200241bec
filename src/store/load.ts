/**
 * Snapshot → SQLite. Each stream is replaced in one transaction (all streams in one when `strict`), so a
 * crash or a refused snapshot leaves the previous state intact. Bad lines are validated, reported with
 * file and line, and skipped; strict mode rolls everything back when any line is bad.
 *
 * This module is the orchestration (transactions, pragmas, the snapshot id); the parts are modules of
 * their own: `load-stream.ts` (one stream), `load-journal.ts` (WAL ↔ rollback journal),
 * `load-columns.ts` and `load-insert.ts` (the bulk INSERTs), `load-companies.ts` (company fields of
 * prospects), `load-pool.ts` and `load-worker.ts` (threaded preparation).
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { EngineError } from '../errors.js';
import {
  resolveSnapshot,
  STREAMS,
  type SnapshotSource,
  type StreamFile,
  type StreamName,
} from '../snapshot/files.js';
import { isDeltaManifest } from '../snapshot/delta.js';
import { refreshProspectCompanies } from './load-companies.js';
import { leaveWal, restoreWal } from './load-journal.js';
import { emptyKeys, handOffProspectKeys } from './load-keys.js';
import { LoadPool, threadable } from './load-pool.js';
import { loadStream } from './load-stream.js';
import { snapshotIdOf } from './snapshot-id.js';
import type { LoadIssue, LoadOptions, LoadReport, StreamReport } from './load-report.js';
import { recordWrite, setMeta, type Db } from './open.js';

export type { LoadIssue, LoadOptions, LoadProgress, LoadReport, StreamReport } from './load-report.js';

const ORDER = (s: StreamName) => STREAMS.indexOf(s);

/**
 * Input below which a load whose `threads` are not given runs on one thread: bytes of the stream files,
 * a gzipped file counted as {@link GZIP_RATIO} times its size. A worker costs 0.5–1 s of CPU to start
 * (it loads its modules), more than it saves on a small snapshot: the demo's 17k rows (5 MB gzipped)
 * took 5.1–6.4 s of CPU on one thread and 8.4–8.7 s on two, in no less wall time. 64 MiB is ~25k
 * generated prospects, several seconds of work per thread.
 */
export const AUTO_THREADS_MIN_BYTES = 64 << 20;
/** About how much a snapshot's JSON Lines shrink gzipped (generated and demo files: 5–7×). */
const GZIP_RATIO = 6;
/** Rows (businesses and prospects) below which an index build whose `threads` are not given stays here. */
export const AUTO_THREADS_MIN_ROWS = 30_000;

/**
 * The threads a load (or the index build after it) works on: `threads` when given (0 is read as 1, and
 * more than the cores available as the cores available: more threads only compete for them, and each
 * worker costs memory; a count in the millions started workers until the process ran out of it),
 * else the cores available, or 1 when the work is too small to repay starting workers (`work()` below
 * `min`: input bytes for a load, rows for an index build; only measured when `threads` is not given).
 */
export function loadThreads(
  threads: number | undefined,
  work: () => number = () => Infinity,
  min = 0,
): number {
  if (threads !== undefined) {
    if (!Number.isInteger(threads) || threads < 0) {
      throw EngineError.validation([
        {
          loc: ['threads'],
          msg: `threads must be a whole number ≥ 0 (0 is read as 1), not ${String(threads)}`,
          type: 'value_error',
        },
      ]);
    }
    return Math.min(Math.max(1, threads), availableParallelism());
  }
  return work() >= min ? availableParallelism() : 1;
}

/** The input size {@link AUTO_THREADS_MIN_BYTES} is compared with. */
function inputBytes(files: readonly StreamFile[]): number {
  let bytes = 0;
  for (const f of files) bytes += statSync(f.path).size * (f.format === 'jsonl.gz' ? GZIP_RATIO : 1);
  return bytes;
}

/** Loads a snapshot into `db`. Streams absent from the snapshot keep their current rows. */
export async function loadSnapshot(
  db: Db,
  source: SnapshotSource,
  options: LoadOptions = {},
): Promise<LoadReport> {
  const started = performance.now();
  const snapshot = resolveSnapshot(source);
  if (isDeltaManifest(snapshot.manifest)) {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      'this folder is a delta (its manifest says "kind": "delta"): apply it to its base with applyDelta (CLI: load --base)',
    );
  }
  const files = [...snapshot.files].sort((a, b) => ORDER(a.stream) - ORDER(b.stream));
  const asOf = snapshot.manifest?.as_of ?? new Date((options.now ?? Date.now)()).toISOString();
  const asOfYear = new Date(asOf).getUTCFullYear();
  const maxIssues = options.maxIssues ?? 1000;
  const issues: LoadIssue[] = [];
  let issueCount = 0;
  const report = (issue: LoadIssue) => {
    issueCount++;
    if (issues.length < maxIssues) issues.push(issue);
  };
  const streams: StreamReport[] = [];
  const strict = options.strict ?? false;

  // `threads` counts this thread: N threads are this one and N - 1 workers (0 is read as 1).
  const workers = loadThreads(options.threads, () => inputBytes(files), AUTO_THREADS_MIN_BYTES) - 1;
  let poolStart: Promise<LoadPool | undefined> | undefined;
  const pool = () => (poolStart ??= workers > 0 ? LoadPool.start(workers) : Promise.resolve(undefined));
  // Workers boot (load their modules) while this thread clears the first stream's rows and indexes.
  if (files.some(threadable)) void pool();

  const hashes = new Map<StreamName, string>();
  const keys = emptyKeys();
  const run = async (file: StreamFile) => {
    const { result, digest } = await loadStream(db, file, {
      asOfYear,
      report,
      onProgress: options.onProgress,
      pool,
      keys: file.stream === 'prospects' ? keys : undefined,
    });
    hashes.set(file.stream, digest);
    streams.push(result);
  };

  const begin = () => db.exec('BEGIN IMMEDIATE');
  const rollback = () => {
    if (db.inTransaction) db.exec('ROLLBACK');
  };
  // Bulk-load pragmas, restored afterwards. `synchronous = OFF` skips the fsyncs of the commit's WAL
  // checkpoint (measured at 20k prospects: COMMIT 0.93 s → 0.36 s); atomicity is kept (the WAL still
  // holds each stream's transaction), only durability against power loss is traded until the next sync.
  const previousSync = db.pragma('synchronous', { simple: true }) as number;
  if (!db.inTransaction) db.pragma('synchronous = OFF');
  const wal = !db.inTransaction && leaveWal(db);
  try {
    if (strict) begin();
    for (const file of files) {
      if (!strict) begin();
      await run(file);
      if (!strict) {
        if (file.stream === 'businesses' && !files.some((f) => f.stream === 'prospects')) {
          refreshProspectCompanies(db);
        }
        db.exec('COMMIT');
      }
    }
    if (strict && issueCount > 0) {
      rollback();
      throw new EngineError('SNAPSHOT_INVALID', `snapshot refused: ${issueCount} invalid line(s)`, {
        detail: { streams, issues, issueCount },
      });
    }
    if (strict) {
      if (files.some((f) => f.stream === 'businesses') && !files.some((f) => f.stream === 'prospects')) {
        refreshProspectCompanies(db);
      }
    } else {
      begin();
    }
    // The snapshot id hashes the content of every stream now in the database: same files, same id.
    for (const [stream, digest] of hashes) setMeta(db, `hash_${stream}`, digest);
    const snapshotId = snapshotIdOf(db);
    // A load of events alone leaves the entities, and so every saved index, as they were.
    recordWrite(db, { entities: files.some((f) => f.stream !== 'events'), snapshotId });
    setMeta(db, 'format_version', String(snapshot.manifest?.format_version ?? 1));
    setMeta(db, 'as_of', asOf);
    db.exec('COMMIT');
    const prospects = hashes.get('prospects');
    if (prospects !== undefined) handOffProspectKeys(db, prospects, keys);
    return { snapshotId, asOf, streams, issues, issueCount, elapsedMs: performance.now() - started };
  } catch (e) {
    rollback();
    throw e;
  } finally {
    if (!db.inTransaction) db.pragma(`synchronous = ${previousSync}`);
    if (wal && !db.inTransaction) restoreWal(db);
    if (poolStart) await (await poolStart)?.close();
  }
}
