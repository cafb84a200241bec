/**
 * A delta applied to a loaded snapshot, in place, in one transaction: deletions first, then the
 * businesses upserted, the company columns of the prospects they employ derived again, then the
 * prospects and events upserted. Every step goes through an id's index, so the cost follows the size of
 * the delta, not of the base (the in-memory indexes are another matter: `bench/delta.bench.ts`).
 *
 * The result equals a full load of the base's records with the delta applied, in this order: the
 * deleted ids removed, an upserted id replaced where it stood, a new id appended after the base's
 * records (in the delta's line order). Rowids say that order: a replaced row keeps its rowid, a new
 * one is numbered after the base's last (never reusing a deleted one).
 */
import { createHash, type Hash } from 'node:crypto';
import { EngineError } from '../errors.js';
import { resolveDelta, type DeletionsFile } from '../snapshot/delta.js';
import { STREAMS, type StreamFile, type StreamFormat, type StreamName } from '../snapshot/files.js';
import { readBatches, type RawRecord } from '../snapshot/read.js';
import { CODEC_META, codecMeta, fileCodec } from './codec.js';
import { refreshCompanies } from './delta-companies.js';
import { DELTA_CHANGES } from './delta-changes.js';
import type { DeltaStreamReport, DeltaOptions, DeltaReport, DeltaRows } from './delta-report.js';
import { ageBucket } from './derive.js';
import { COLUMNS } from './load-columns.js';
import { lineChecker, type LoadIssue } from './load-report.js';
import { addKeys, emptyKeys, handOffProspectKeys, type KeyCarry } from './load-keys.js';
import { LoadPool, threadable } from './load-pool.js';
import { loadThreads } from './load.js';
import { preparer, type Prepared, type StreamSetup } from './load-worker.js';
import { getMeta, recordWrite, setMeta, type Db } from './open.js';
import { snapshotIdOf } from './snapshot-id.js';
import {
  deleteByIdSql,
  DELTA_SQL,
  insertRowSql,
  maxRowidSql,
  rowidOfSql,
  updateRowSql,
} from './sql/delta.js';

export type { DeltaStreamReport, DeltaOptions, DeltaReport, DeltaRows } from './delta-report.js';

/** The page cache of a delta's transaction (SQLite's `cache_size`: negative is KiB): 16 MiB. */
const APPLY_CACHE_SIZE = -16384;

/** What the business steps leave for the company refresh. */
interface Touched {
  /**
   * Rowids of businesses written or deleted: their prospects are found by `business_rowid` (a new
   * rowid has none), and the business search index is patched for them.
   */
  businessRowids: Set<number>;
  /** Ids of businesses added: stored prospects that named them had no company columns yet. */
  newBusinessIds: Set<string>;
}

interface Run {
  db: Db;
  asOfYear: number;
  loadedAt: number;
  report: (issue: LoadIssue) => void;
  rows: Record<StreamName, DeltaRows>;
  /** The first rowid free for a new row of each stream (after the base's last). */
  next: Record<StreamName, number>;
  touched: Touched;
  /** The SHA-256 of each file read, in the order read (what the new snapshot id is made of). */
  digests: string[];
  /** Whether a new `as_of` year moved every company's age bucket (the businesses changed). */
  agesMoved: boolean;
  /**
   * What the match index builds carry over from the base's saved indexes (`KeyCarry`): the stamp they
   * are saved under, the prospect rows replaced or deleted, the keys of the rows written, the prospects
   * given new company fields and the businesses written or deleted.
   */
  keys?: KeyCarry & { gone: Set<number>; refreshed: Set<number> };
}

/**
 * Applies the delta folder `dir` to the snapshot in `db`. Refused (`SNAPSHOT_INVALID`, nothing changed)
 * when the folder is not a delta, when its `base_snapshot_id` is not the snapshot `db` holds, or, with
 * `strict`, when any line is bad; otherwise bad lines are reported with file and line, and skipped.
 * `baseStamp`: the stamp of the base's saved indexes, whose prospect match index holds the keys the
 * next build carries over (see `KeyCarry`).
 */
export async function applyDelta(
  db: Db,
  dir: string,
  options: DeltaOptions = {},
  baseStamp?: string,
): Promise<DeltaReport> {
  const started = performance.now();
  const delta = resolveDelta(dir);
  const base = getMeta(db, 'snapshot_id');
  const wanted = delta.manifest.base_snapshot_id;
  if (!base) {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `the database holds no loaded snapshot; the delta in ${dir} applies to snapshot ${wanted}`,
    );
  }
  if (base !== wanted) {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `the delta in ${dir} applies to snapshot ${wanted}, but the database holds snapshot ${base}`,
      { detail: { base_snapshot_id: wanted, snapshot_id: base } },
    );
  }
  // New rows are encoded with this version's codec: a file written with another cannot take them.
  const codec = codecMeta(fileCodec(db));
  if (codecMeta().some(([k, v], i) => codec[i]?.[0] !== k || codec[i]?.[1] !== v)) {
    throw new EngineError(
      'SCHEMA_OUTDATED',
      `the database's records were written with another ${CODEC_META.dictionary}: load the full snapshot instead`,
    );
  }
  const now = options.now ?? Date.now;
  const asOf = delta.manifest.as_of ?? new Date(now()).toISOString();
  const maxIssues = options.maxIssues ?? 1000;
  const issues: LoadIssue[] = [];
  let issueCount = 0;
  const run: Run = {
    db,
    asOfYear: new Date(asOf).getUTCFullYear(),
    loadedAt: now(),
    report: (issue) => {
      issueCount++;
      if (issues.length < maxIssues) issues.push(issue);
    },
    rows: {
      businesses: { inserted: 0, updated: 0, deleted: 0 },
      prospects: { inserted: 0, updated: 0, deleted: 0 },
      events: { inserted: 0, updated: 0, deleted: 0 },
    },
    next: { businesses: 0, prospects: 0, events: 0 },
    touched: { businessRowids: new Set(), newBusinessIds: new Set() },
    digests: [],
    agesMoved: false,
    keys:
      baseStamp === undefined
        ? undefined
        : {
            baseStamp,
            gone: new Set(),
            added: emptyKeys(),
            refreshed: new Set(),
            businesses: new Set(),
          },
  };
  for (const s of STREAMS) run.next[s] = (db.prepare(maxRowidSql(s)).pluck().get() as number) + 1;

  const files: DeltaStreamReport[] = [];
  const of = (stream: StreamName) => delta.files.find((f) => f.stream === stream);
  const workers = loadThreads(options.threads) - 1;
  let pool: Promise<LoadPool | undefined> | undefined;
  // A delta's rows lie at random across the file: a large page cache misses about as often as a small
  // one, and filling it costs a page fault per 4 KB of fresh memory. 1% delta on 1M prospects, same
  // run: 6.3–6.4 s against 7.2–7.3 s with the engine's 256 MiB, which comes back after.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${APPLY_CACHE_SIZE}`);
  try {
    db.exec('BEGIN IMMEDIATE');
    // Upserted records are prepared (parsed, validated, encoded) on workers while this thread writes
    // the rows before them, as a load does; the workers boot while the deletions apply.
    if (workers > 0 && delta.files.some(threadable)) pool = LoadPool.start(workers);
    const baseAsOf = getMeta(db, 'as_of');
    if (baseAsOf === undefined || new Date(baseAsOf).getUTCFullYear() !== run.asOfYear) {
      moveAges(run);
      run.agesMoved = true;
    }
    if (delta.deletions) files.push(await applyDeletions(run, delta.deletions));
    const businesses = of('businesses');
    if (businesses) files.push(await upsertStream(run, businesses, pool));
    const refreshed = refreshCompanies(db, run.touched.businessRowids, run.touched.newBusinessIds);
    if (run.keys) Object.assign(run.keys, { refreshed, businesses: run.touched.businessRowids });
    for (const stream of ['prospects', 'events'] as const) {
      const file = of(stream);
      if (file) files.push(await upsertStream(run, file, pool));
    }
    if (options.strict && issueCount > 0) {
      throw new EngineError('SNAPSHOT_INVALID', `delta refused: ${issueCount} invalid line(s)`, {
        detail: { files, issues, issueCount },
      });
    }
    // The new snapshot's stream hashes (and so its id) follow from the base's and the delta's files:
    // the same delta on the same base always gives the same id.
    const deltaDigest = sha256([wanted, asOf, ...run.digests].join('\n'));
    for (const s of STREAMS)
      setMeta(db, `hash_${s}`, sha256(`${getMeta(db, `hash_${s}`) ?? ''}\n${deltaDigest}`));
    const snapshotId = snapshotIdOf(db);
    // A delta of events alone (rows unchanged, ages not moved) leaves every saved index current.
    const changed = (r: DeltaRows) => r.inserted + r.updated + r.deleted > 0;
    recordWrite(db, {
      entities: run.agesMoved || changed(run.rows.businesses) || changed(run.rows.prospects),
      snapshotId,
    });
    setMeta(db, 'as_of', asOf);
    db.exec('COMMIT');
    if (run.keys) {
      const hash = getMeta(db, 'hash_prospects')!;
      // The next prospect match index build takes these instead of decoding every stored record …
      handOffProspectKeys(db, hash, run.keys);
      // … the business match index build takes the name keys of the businesses left alone …
      const businessHash = getMeta(db, 'hash_businesses')!;
      DELTA_CHANGES.businessMatch.give(db, businessHash, {
        baseStamp: run.keys.baseStamp,
        rows: run.touched.businessRowids,
      });
      // … and the next search index builds patch the base's for the rows changed (unless every age
      // bucket moved: then every row changed).
      if (!run.agesMoved) {
        const baseStamp = run.keys.baseStamp;
        const prospects = new Set([...run.keys.gone, ...refreshed]);
        DELTA_CHANGES.prospects.give(db, hash, { baseStamp, rows: prospects });
        const businesses = run.touched.businessRowids;
        DELTA_CHANGES.businesses.give(db, getMeta(db, 'hash_businesses')!, { baseStamp, rows: businesses });
      }
    }
    return {
      snapshotId,
      baseSnapshotId: wanted,
      asOf,
      files,
      rows: run.rows,
      refreshedProspects: refreshed.size,
      issues,
      issueCount,
      elapsedMs: performance.now() - started,
    };
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
    await (await pool)?.close();
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A new `as_of` year moves every company's age bucket (a full load derives them from the new year):
 * the one step whose cost follows the base, once a year.
 */
function moveAges(run: Run): void {
  run.db.function('age_bucket', { deterministic: true }, (founded: unknown, year: unknown) =>
    ageBucket(founded as number | null, year as number),
  );
  run.db.prepare(DELTA_SQL.businessAges).run(run.asOfYear);
}

/** The records of a delta file in batches; a file that cannot be read refuses the delta, naming it. */
async function* batchesOf(
  path: string,
  format: StreamFormat,
  onChunk: (chunk: Buffer) => void,
): AsyncGenerator<RawRecord[]> {
  try {
    yield* readBatches(path, format, onChunk);
  } catch (e) {
    throw new EngineError('SNAPSHOT_INVALID', `${path}: cannot be read (${(e as Error).message})`, {
      cause: e,
    });
  }
}

/** Records the SHA-256 of a file read whole (`hash`) among the delta's digests, by the file's name. */
function addDigest(run: Run, path: string, hash: Hash): void {
  run.digests.push(`${path.slice(path.lastIndexOf('/') + 1)}:${hash.digest('hex')}`);
}

/** The lines of a delta file in batches, hashed as they are read. */
async function* linesOf(run: Run, path: string, format: StreamFormat): AsyncGenerator<RawRecord[]> {
  const hash = createHash('sha256');
  yield* batchesOf(path, format, (chunk) => hash.update(chunk));
  addDigest(run, path, hash);
}

const newFileReport = (stream: DeltaStreamReport['stream'], file: string): DeltaStreamReport => ({
  stream,
  file,
  read: 0,
  applied: 0,
  invalid: 0,
  duplicates: 0,
  missing: 0,
});

/**
 * Whole records upserted by id: a stored id is replaced in place, a new one appended. With a worker
 * pool (and a file large enough to repay it) the records are prepared on the workers, in order, and
 * this thread only writes them.
 */
async function upsertStream(
  run: Run,
  file: StreamFile,
  pool?: Promise<LoadPool | undefined>,
): Promise<DeltaStreamReport> {
  const { db } = run;
  const stream = file.stream;
  const result = newFileReport(stream, file.path);
  const columns = COLUMNS[stream];
  const find = db.prepare(rowidOfSql(stream)).pluck();
  // The row is found by its id, so the id column is left out of the UPDATE: SQLite rewrites the entry
  // of every indexed column it sets, changed or not, and the id's unique index is the costliest.
  // 10,000 prospect updates on the 1M base: 227–243 ms setting every column, 123–130 ms without the id.
  const update = db.prepare(updateRowSql(stream, columns.slice(1)));
  const insert = db.prepare(insertRowSql(stream, columns));
  const companyOf = db.prepare(DELTA_SQL.companyOf).raw();
  const rows = run.rows[stream];
  const setup: StreamSetup = { stream, asOfYear: run.asOfYear, loadedAt: run.loadedAt };
  const check = lineChecker(file.path, result, run.report);
  const take = (line: number, prepared: Prepared) => {
    const item = check(line, prepared);
    if (!item) return;
    const id = item.values[0] as string;
    const rowid = find.get(id) as number | undefined;
    const written = rowid ?? run.next[stream]++;
    if (stream === 'businesses') run.touched.businessRowids.add(written);
    if (rowid !== undefined) {
      update.run(...item.values.slice(1), rowid);
      rows.updated++;
    } else {
      insert.run(written, ...item.values);
      rows.inserted++;
      if (stream === 'businesses') run.touched.newBusinessIds.add(id);
    }
    if (stream === 'prospects' && run.keys) {
      run.keys.gone.add(written);
      addKeys(run.keys.added, item.keys, written);
    }
    result.applied++;
  };

  const workers = pool && threadable(file) ? await pool : undefined;
  if (workers) {
    // Prospects take their company columns from the businesses now stored: the workers are given
    // those of every employer the file names (read here first, by id; a full load gives them all).
    if (stream === 'prospects') setup.companies = companiesOf(await employersOf(file), companyOf);
    const hash = createHash('sha256');
    await workers.run(
      file,
      setup,
      (chunk) => hash.update(chunk),
      (batch) => {
        for (let i = 0; i < batch.items.length; i++) take(batch.lines[i]!, batch.items[i]!);
      },
    );
    addDigest(run, file.path, hash);
    return result;
  }
  const shared = stream === 'prospects' ? undefined : preparer(setup);
  for await (const batch of linesOf(run, file.path, file.format)) {
    // Prospects take their company columns from the businesses now stored: those of the batch's
    // employers are read by id (the full load reads every business).
    const prepare = shared ?? preparer({ ...setup, companies: companiesOf(employerIdsOf(batch), companyOf) });
    for (const raw of batch) take(raw.line, raw.error !== undefined ? raw.error : prepare(raw.value));
  }
  return result;
}

/** The `business_id` strings of a batch's records (whatever else is wrong with them). */
function employerIdsOf(batch: RawRecord[], into = new Set<string>()): Set<string> {
  for (const raw of batch) {
    const id =
      raw.error === undefined ? (raw.value as { business_id?: unknown } | null)?.business_id : undefined;
    if (typeof id === 'string') into.add(id);
  }
  return into;
}

/** The `business_id` strings of every record of a prospects file. */
async function employersOf(file: StreamFile): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const batch of batchesOf(file.path, file.format, () => {})) employerIdsOf(batch, ids);
  return ids;
}

/** `COMPANY_FIELDS` rows, flattened, of the stored businesses among `ids`. */
function companiesOf(ids: Iterable<string>, companyOf: { get(id: string): unknown }): unknown[] {
  const flat: unknown[] = [];
  for (const id of ids) {
    const row = companyOf.get(id) as unknown[] | undefined;
    if (row) flat.push(...row);
  }
  return flat;
}

const DELETION_KEYS = { business_id: 'businesses', prospect_id: 'prospects', event_id: 'events' } as const;
const ID_PATTERN: Record<StreamName, RegExp> = {
  businesses: /^[0-9a-f]{32}$/,
  prospects: /^[0-9a-f]{40}$/,
  events: /^.{1,128}$/su,
};

/** A deletion line's stream and id, or the reason it is refused. */
function deletionOf(value: unknown): { stream: StreamName; id: string } | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'expected an object';
  const keys = Object.keys(value);
  if (keys.length !== 1 || !(keys[0]! in DELETION_KEYS)) {
    return `expected exactly one of business_id, prospect_id, event_id (got ${keys.join(', ') || 'no key'})`;
  }
  const key = keys[0] as keyof typeof DELETION_KEYS;
  const stream = DELETION_KEYS[key];
  const id = (value as Record<string, unknown>)[key];
  if (typeof id !== 'string' || !ID_PATTERN[stream].test(id)) {
    return stream === 'events'
      ? `${key}: must be a string of 1 to 128 characters`
      : `${key}: must be ${stream === 'businesses' ? 32 : 40} lowercase hex characters`;
  }
  return { stream, id };
}

/** One id per line deleted; a deleted business leaves its prospects and events where they are. */
async function applyDeletions(run: Run, file: DeletionsFile): Promise<DeltaStreamReport> {
  const result = newFileReport('deletions', file.path);
  const remove = Object.fromEntries(
    STREAMS.map((s) => [s, run.db.prepare(deleteByIdSql(s)).pluck()] as const),
  ) as unknown as Record<StreamName, { get(id: string): unknown }>;
  const seen = new Map<string, number>();
  for await (const batch of linesOf(run, file.path, file.format)) {
    for (const raw of batch) {
      result.read++;
      const d = raw.error !== undefined ? raw.error : deletionOf(raw.value);
      if (typeof d === 'string') {
        result.invalid++;
        run.report({ file: file.path, line: raw.line, reason: d });
        continue;
      }
      const key = `${d.stream}:${d.id}`;
      const first = seen.get(key);
      if (first !== undefined) {
        result.duplicates++;
        run.report({
          file: file.path,
          line: raw.line,
          reason: `duplicate id ${d.id} (first at line ${first})`,
        });
        continue;
      }
      seen.set(key, raw.line);
      const rowid = remove[d.stream].get(d.id) as number | undefined;
      if (rowid === undefined) {
        result.missing++;
        continue;
      }
      run.rows[d.stream].deleted++;
      result.applied++;
      if (d.stream === 'businesses') run.touched.businessRowids.add(rowid);
      if (d.stream === 'prospects') run.keys?.gone.add(rowid);
    }
  }
  return result;
}
