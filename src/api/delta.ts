/**
 * The library's delta functions: a delta applied to an engine's snapshot in place (`applyDelta`), or a
 * new snapshot file made from a base file and a delta, the base left as it is (`applyDeltaFile`, what
 * `prospectdb load --base` runs). Options are checked by zod first; misspelled ones are refused.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { buildIndexesThreaded } from '../core/warm.js';
import { openEngine, type Engine } from '../engine.js';
import { EngineError } from '../errors.js';
import { COPY_METHODS, type CopyMethod } from '../store/delta-copy.js';
import type { DeltaOptions, DeltaReport } from '../store/delta.js';
import { getMeta, openDatabase, settleSnapshotFile, walWithoutSync } from '../store/open.js';
import { checkEngine, parseOptions, refused } from './parse.js';

const DeltaOptionsSchema = z.strictObject({
  strict: z.boolean().optional(),
  maxIssues: z.number().int().nonnegative().optional(),
  now: z.custom<() => number>((v) => typeof v === 'function', 'expected a function').optional(),
  threads: z.number().int().nonnegative().optional(),
});

const DeltaFileSchema = DeltaOptionsSchema.extend({
  base: z.string().min(1),
  delta: z.string().min(1),
  out: z.string().min(1),
  copy: z.enum(['auto', ...COPY_METHODS]).optional(),
});

/** What {@link applyDeltaFile} takes: the base file, the delta folder, the new file, and the delta options. */
export interface DeltaFileOptions extends DeltaOptions {
  /** The base snapshot file (left unchanged). */
  base: string;
  /** The delta folder. */
  delta: string;
  /** The new snapshot file (replaced atomically when it exists). */
  out: string;
  /** How the base is copied; `auto` (default): a byte copy, or a SQLite backup when the base has a WAL. */
  copy?: CopyMethod | 'auto';
  /**
   * Threads the delta's records are prepared on and the index build runs on, as for a load (default:
   * the cores available; 1 for the index build of a small file).
   */
  threads?: number;
}

/** A delta made into a new file: the delta's report, and what the copy and the index build took. */
export interface DeltaFileResult extends DeltaReport {
  out: string;
  copy: { method: CopyMethod; ms: number };
  /** Building and saving every index of the new file (see `buildIndexesThreaded`). */
  indexMs: number;
}

const checkDelta = (delta: unknown) => {
  if (typeof delta !== 'string' || delta === '') {
    throw refused([{ loc: ['delta'], msg: 'expected the path of a delta folder', type: 'type_error.str' }]);
  }
};

/**
 * Applies a delta folder to the snapshot an engine holds, in place and in one transaction: the engine
 * then answers as a full load of the base's records with the delta applied would. Refused
 * (`SNAPSHOT_INVALID`) when the delta's `base_snapshot_id` is not the engine's snapshot id.
 * @example const report = await applyDelta(engine, 'deltas/2026-11-02'); console.log(report.rows.prospects);
 */
export async function applyDelta(
  engine: Engine,
  delta: string,
  options: DeltaOptions = {},
): Promise<DeltaReport> {
  checkEngine(engine);
  checkDelta(delta);
  parseOptions(DeltaOptionsSchema, options);
  return engine.applyDelta(delta, options);
}

/**
 * Makes the snapshot file `out` from the file `base` and the delta folder `delta`: the base copied, the
 * delta applied, every index built and saved, the file settled and renamed into place (a server's
 * `--watch` or SIGHUP swap picks it up). The base is never written. Refused before anything is written
 * when the base is missing or is not the snapshot the delta names.
 * @example await applyDeltaFile({ base: 'current.db', delta: 'deltas/2026-11-02', out: 'next.db' });
 */
export async function applyDeltaFile(options: DeltaFileOptions): Promise<DeltaFileResult> {
  const {
    base,
    delta,
    out,
    copy = 'auto',
    threads,
    ...deltaOptions
  } = parseOptions(DeltaFileSchema, options);
  if (!existsSync(base))
    throw new EngineError('SNAPSHOT_NOT_FOUND', `${base}: no such file (the base snapshot)`);
  if (resolve(base) === resolve(out)) {
    throw refused([
      { loc: ['options', 'out'], msg: 'the new file must not be the base', type: 'value_error' },
    ]);
  }
  if (existsSync(`${out}-wal`)) {
    throw new EngineError(
      'CONFLICT',
      `${out}-wal exists: ${out} is open in WAL mode; settle it (prospectdb load) or remove it first`,
    );
  }
  // The delta reader and the file copy are imported by the first call (not with the package). So is
  // the apply (`store/delta.js`, which the engine would import after the copy): loading it then (and
  // msgpackr's native addon with it, whose loader probes the file system) waited on the copy's
  // background sync for up to 2 s at 1M prospects (ext4 holds metadata updates behind a sync).
  const [{ resolveDelta }, { copySnapshotFile, flushInBackground }, { leaveWal, restoreWal }] =
    await Promise.all([
      import('../snapshot/delta.js'),
      import('../store/delta-copy.js'),
      import('../store/load-journal.js'),
      import('../store/delta.js'),
    ]);
  // The cheap refusals first: a wrong base is named before the base is copied.
  const manifest = resolveDelta(delta).manifest;
  const baseDb = openDatabase(base, { readonly: true });
  let baseId: string | undefined;
  try {
    baseId = getMeta(baseDb, 'snapshot_id');
  } finally {
    baseDb.close();
  }
  if (baseId !== manifest.base_snapshot_id) {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `the delta in ${delta} applies to snapshot ${manifest.base_snapshot_id}, but ${base} holds snapshot ${baseId ?? '(none)'}`,
      { detail: { base_snapshot_id: manifest.base_snapshot_id, snapshot_id: baseId ?? null } },
    );
  }
  const tmp = `${out}.delta-${process.pid}.tmp`;
  const clean = () => {
    for (const f of [tmp, `${tmp}-journal`, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  };
  clean();
  try {
    const copyStarted = performance.now();
    const method = await copySnapshotFile(base, tmp, copy);
    const copyMs = performance.now() - copyStarted;
    const flushed = flushInBackground(tmp);
    walWithoutSync(tmp);
    // The state is not this file's business: kept in memory for the build.
    const engine = openEngine({ path: tmp, state: ':memory:' });
    let report: DeltaReport;
    let indexMs: number;
    try {
      // A file nobody reads until it is renamed into place: no syncs while it is written (a crash
      // leaves a temp file to delete, never a damaged snapshot); settling it below writes it whole.
      engine.db.pragma('synchronous = OFF');
      // A rollback journal while the rows change, as a load does (`load-journal.ts`): each page the
      // delta writes goes to the file once, not to the log and then to the file (1M prospects: the
      // apply 6.0–6.4 → 5.5 s, closing the file 0.4–0.7 s → 0.02 s). WAL again for the index build,
      // whose workers read the file while this thread writes it.
      const journal = leaveWal(engine.db);
      report = await engine.applyDelta(delta, { ...deltaOptions, threads });
      if (journal) restoreWal(engine.db);
      indexMs = await buildIndexesThreaded(engine, { threads });
    } finally {
      await engine.state.close();
      engine.close();
    }
    await flushed;
    settleSnapshotFile(tmp);
    renameSync(tmp, out);
    return { ...report, out, copy: { method, ms: copyMs }, indexMs };
  } catch (e) {
    clean();
    throw e;
  }
}
