/**
 * Snapshot → SQLite. Each stream is replaced in one transaction (all streams in one when `strict`), so a
 * crash or a refused snapshot leaves the previous state intact. Bad lines are validated, reported with
 * file and line, and skipped; strict mode rolls everything back when any line is bad.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import {
  resolveSnapshot,
  STREAMS,
  type SnapshotSource,
  type StreamFile,
  type StreamName,
} from '../snapshot/files.js';
import { readBatches } from '../snapshot/read.js';
import { NO_COMPANY, type CompanyColumns } from './derive.js';
import {
  attachBlobs,
  preparer,
  WORKER_TAG,
  type Prepared,
  type PreparedBatch,
  type StreamSetup,
  type WorkerMessage,
} from './load-worker.js';
import { getMeta, setMeta, type Db } from './open.js';
import type { TABLE_INDEXES } from './schema.js';
import { createIndexes, dropIndexes } from './schema.js';

import { decodeDoc, docCodec } from './codec.js';
import { prospectWire } from './wire.js';

export { decodeDoc, docCodec };

export interface LoadIssue {
  file: string;
  line: number;
  reason: string;
}

export interface StreamReport {
  stream: StreamName;
  file: string;
  read: number;
  loaded: number;
  invalid: number;
  duplicates: number;
}

export interface LoadReport {
  snapshotId: string;
  asOf: string;
  streams: StreamReport[];
  /** The first `maxIssues` bad lines; `issueCount` counts them all. */
  issues: LoadIssue[];
  issueCount: number;
  elapsedMs: number;
}

export interface LoadProgress {
  stream: StreamName;
  rows: number;
  bytesRead: number;
  bytesTotal: number;
}

export interface LoadOptions {
  /** Refuse the whole snapshot (and change nothing) when any line is bad. */
  strict?: boolean;
  /** How many bad lines to keep in the report (all are counted). Default 1000. */
  maxIssues?: number;
  onProgress?: (p: LoadProgress) => void;
  /** Clock for `as_of` when the manifest has none. */
  now?: () => number;
  /**
   * Worker threads that parse, validate and encode rows while this thread inserts them (JSON Lines
   * streams of at least 1 MiB; MessagePack streams and small files stay on this thread). 0 turns them
   * off, the default: on the 2 shared development cores (100k prospects, load average 3-10) one worker
   * was 11% faster in one run and 27% slower in the next, and always slower at 20k (worker start-up).
   */
  threads?: number;
}

const ORDER = (s: StreamName) => STREAMS.indexOf(s);
/** Loads a snapshot into `db`. Streams absent from the snapshot keep their current rows. */
export async function loadSnapshot(
  db: Db,
  source: SnapshotSource,
  options: LoadOptions = {},
): Promise<LoadReport> {
  const started = performance.now();
  const snapshot = resolveSnapshot(source);
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

  const threads = options.threads ?? 0;
  let poolStart: Promise<LoadPool | undefined> | undefined;
  const pool = () => (poolStart ??= threads > 0 ? LoadPool.start(threads) : Promise.resolve(undefined));
  // Workers boot (load their modules) while this thread clears the first stream's rows and indexes.
  if (files.some(threadable)) void pool();

  const hashes = new Map<StreamName, string>();
  const run = async (file: StreamFile) => {
    const hash = createHash('sha256');
    const result = await loadStream(db, file, {
      asOfYear,
      report,
      hash,
      onProgress: options.onProgress,
      pool,
    });
    hashes.set(file.stream, hash.digest('hex'));
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
    const snapshotId = createHash('sha256')
      .update(STREAMS.map((s) => getMeta(db, `hash_${s}`) ?? '').join('\n'))
      .digest('hex')
      .slice(0, 32);
    setMeta(db, 'snapshot_id', snapshotId);
    setMeta(db, 'format_version', String(snapshot.manifest?.format_version ?? 1));
    setMeta(db, 'as_of', asOf);
    setMeta(db, 'data_version', String(Number(getMeta(db, 'data_version') ?? '0') + 1));
    db.exec('COMMIT');
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

/**
 * Switches a WAL database to a rollback journal for the load; true when it did (restore WAL after). In
 * WAL mode every loaded page is written twice, to the log and then to the file by the checkpoint of
 * the commit; with a rollback journal the new pages of a load go to the file once and the journal only
 * keeps the pages the load overwrites (measured at 100k prospects: COMMIT 2.2 s -> 0.8 s, 20% less
 * CPU). A crash mid-load still leaves the previous state: the hot journal is rolled back on the next
 * open. Other connections to the file keep it in WAL mode (the switch needs the only connection).
 */
function leaveWal(db: Db): boolean {
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return false;
  try {
    return db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch {
    return false;
  }
}

/** Back to WAL; when another connection is reading right now, the next open switches it instead. */
function restoreWal(db: Db): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch {
    // SQLITE_BUSY: keep the rollback journal; `openDatabase` sets WAL again.
  }
}

interface StreamContext {
  asOfYear: number;
  report: (issue: LoadIssue) => void;
  hash: ReturnType<typeof createHash>;
  onProgress: LoadOptions['onProgress'];
  /** Started on the first stream large enough to use it; `undefined` when threads are off. */
  pool: () => Promise<LoadPool | undefined>;
}

async function loadStream(db: Db, file: StreamFile, ctx: StreamContext): Promise<StreamReport> {
  const result: StreamReport = {
    stream: file.stream,
    file: file.path,
    read: 0,
    loaded: 0,
    invalid: 0,
    duplicates: 0,
  };
  const bytesTotal = statSync(file.path).size;
  let bytesRead = 0;
  const onChunk = (chunk: Buffer) => {
    bytesRead += chunk.length;
    ctx.hash.update(chunk);
  };
  const progress = () => ctx.onProgress?.({ stream: file.stream, rows: result.read, bytesRead, bytesTotal });

  const tables = TABLES_OF[file.stream];
  for (const t of tables) db.exec(dropIndexes(t));
  clearStream(db, file.stream);
  const setup: StreamSetup = {
    stream: file.stream,
    asOfYear: ctx.asOfYear,
    loadedAt: Date.now(),
    companies: file.stream === 'prospects' ? companyRows(db) : undefined,
  };
  const insert = inserter(db, file.stream);
  const seen = new Map<string, number>();
  const take = (line: number, item: Prepared) => {
    result.read++;
    if (typeof item === 'string') {
      result.invalid++;
      ctx.report({ file: file.path, line, reason: item });
      return;
    }
    const id = item.values[0] as string;
    const first = seen.get(id);
    if (first !== undefined) {
      result.duplicates++;
      ctx.report({ file: file.path, line, reason: `duplicate id ${id} (first at line ${first})` });
      return;
    }
    seen.set(id, line);
    insert.add(item.values, item.keys);
    result.loaded++;
  };

  const pool = threadable(file) ? await ctx.pool() : undefined;
  if (pool) {
    await pool.run(file, setup, onChunk, (batch) => {
      for (let i = 0; i < batch.items.length; i++) take(batch.lines[i]!, batch.items[i]!);
      progress();
    });
  } else {
    const prepare = preparer(setup);
    for await (const batch of unreadable(file.path, readBatches(file.path, file.format, onChunk))) {
      for (const raw of batch)
        take(raw.line, raw.error !== undefined ? raw.error : prepare(raw.value, raw.raw));
      progress();
    }
  }
  insert.flush();
  for (const t of tables) db.exec(createIndexes(t));
  return result;
}

/** A file that cannot be read or decompressed refuses the load, naming the file. */
async function* unreadable<T>(path: string, batches: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (e) {
    throw new EngineError('SNAPSHOT_INVALID', `${path}: cannot be read (${(e as Error).message})`);
  }
}

/** The tables whose secondary indexes a stream's bulk load drops and rebuilds (events keep theirs). */
const TABLES_OF: Record<StreamName, (keyof typeof TABLE_INDEXES)[]> = {
  businesses: ['businesses', 'match_keys'],
  prospects: ['prospects', 'match_keys'],
  events: [],
};

function clearStream(db: Db, stream: StreamName): void {
  if (stream === 'businesses') {
    db.exec(`DELETE FROM businesses; DELETE FROM match_keys WHERE entity = 'business';`);
  } else if (stream === 'prospects') {
    db.exec(`DELETE FROM prospects; DELETE FROM match_keys WHERE entity = 'prospect';`);
  } else {
    db.exec('DELETE FROM events');
  }
}

/** The columns each stream's INSERT binds, in the order `load-worker.ts` builds the values. */
const COLUMNS: Record<StreamName, readonly string[]> = {
  businesses: [
    'business_id',
    'name',
    'name_key',
    'domain',
    'host',
    'linkedin_slug',
    'country_code',
    'region_country_code',
    'city_name',
    'city_region',
    'city_region_country',
    'size',
    'revenue',
    'founded_year',
    'age',
    'number_of_locations',
    'locations',
    'naics',
    'is_public',
    'has_website',
    'doc',
    'website_url',
    'linkedin_profile',
    'wire',
    'facets',
  ],
  prospects: [
    'prospect_id',
    'business_id',
    'business_rowid',
    'full_name',
    'name_key',
    'linkedin_slug',
    'country_code',
    'region_country_code',
    'job_title',
    'job_level',
    'job_department',
    'total_experience_months',
    'current_role_months',
    'has_email',
    'has_phone',
    'company_name',
    'company_website',
    'company_linkedin',
    'company_size',
    'company_revenue',
    'company_age',
    'company_locations',
    'company_country_code',
    'company_region_country_code',
    'company_city_region_country',
    'company_naics',
    'company_is_public',
    'company_has_website',
    'doc',
    'wire',
    'facets',
  ],
  events: ['event_id', 'event_name', 'entity_type', 'entity_id', 'event_time', 'ingested_at', 'doc'],
};

/** Rows per multi-row INSERT, and match keys per multi-row INSERT of keys. */
const ROWS_PER_INSERT = 50;
const KEYS_PER_INSERT = 200;

interface Inserter {
  add(values: unknown[], keys: string[]): void;
  /** Inserts what is still buffered (call once, at the end of the stream). */
  flush(): void;
}

/**
 * Buffers rows and inserts them `ROWS_PER_INSERT` at a time through statements prepared once per
 * stream (one statement run per 50 rows instead of one per row), then their match keys the same way.
 * Entity rowids are given explicitly, counting from 1 as SQLite would in the emptied table, so a row's
 * match keys are known before its INSERT runs.
 */
function inserter(db: Db, stream: StreamName): Inserter {
  const entity = stream === 'businesses' ? 'business' : stream === 'prospects' ? 'prospect' : undefined;
  const columns = entity ? ['rowid', ...COLUMNS[stream]] : COLUMNS[stream];
  const n = columns.length;
  const tuple = `(${Array(n).fill('?').join(', ')})`;
  const sql = (rows: number) =>
    `INSERT INTO ${stream} (${columns.join(', ')}) VALUES ${Array(rows).fill(tuple).join(', ')}`;
  const one = db.prepare(sql(1));
  const many = db.prepare(sql(ROWS_PER_INSERT));
  const keySql = (keys: number) =>
    `INSERT INTO match_keys (entity, kind, key, row) VALUES ${Array(keys).fill('(?, ?, ?, ?)').join(', ')}`;
  const keyOne = db.prepare(keySql(1));
  const keyMany = db.prepare(keySql(KEYS_PER_INSERT));
  const params: unknown[] = new Array(n * ROWS_PER_INSERT).fill(null);
  const keyParams: unknown[] = new Array(4 * KEYS_PER_INSERT).fill(null);
  let rows = 0;
  let keyCount = 0;
  let rowid = 0;
  return {
    add(values, keys) {
      let at = rows * n;
      if (entity) params[at++] = ++rowid;
      for (let i = 0; i < values.length; i++) params[at++] = values[i];
      if (++rows === ROWS_PER_INSERT) {
        many.run(params);
        rows = 0;
      }
      for (let i = 0; i < keys.length; i += 2) {
        const k = keyCount * 4;
        keyParams[k] = entity;
        keyParams[k + 1] = keys[i];
        keyParams[k + 2] = keys[i + 1];
        keyParams[k + 3] = rowid;
        if (++keyCount === KEYS_PER_INSERT) {
          keyMany.run(keyParams);
          keyCount = 0;
        }
      }
    },
    flush() {
      for (let r = 0; r < rows; r++) one.run(params.slice(r * n, r * n + n));
      for (let k = 0; k < keyCount; k++) keyOne.run(keyParams.slice(k * 4, k * 4 + 4));
      rows = 0;
      keyCount = 0;
    },
  };
}

/** The company columns of every business, flattened in `COMPANY_FIELDS` order (what workers receive). */
function companyRows(db: Db): unknown[] {
  const flat: unknown[] = [];
  for (const row of db.prepare(COMPANY_SELECT).raw().iterate() as Iterable<unknown[]>) {
    for (const v of row) flat.push(v);
  }
  return flat;
}

// Narrow columns only: decoding every business `doc` (with its large `enrichments`) just for the
// website and profile URL was the costliest part of starting the prospects stream.
const COMPANY_SELECT = `SELECT business_id, rowid AS business_rowid, name AS company_name,
  website_url AS company_website, linkedin_profile AS company_linkedin, size AS company_size,
  revenue AS company_revenue, age AS company_age, locations AS company_locations,
  country_code AS company_country_code, region_country_code AS company_region_country_code,
  city_region_country AS company_city_region_country, naics AS company_naics, is_public AS company_is_public,
  has_website AS company_has_website FROM businesses`;

/** business_id → the company columns its prospects inherit. */
export function companyLookup(db: Db): Map<string, CompanyColumns> {
  const map = new Map<string, CompanyColumns>();
  for (const row of db.prepare(COMPANY_SELECT).iterate() as Iterable<
    CompanyColumns & { business_id?: string }
  >) {
    const id = row.business_id!;
    delete row.business_id;
    map.set(id, row);
  }
  return map;
}

/** After businesses change without a prospects stream, re-derive the company columns of every prospect. */
function refreshProspectCompanies(db: Db): void {
  const companies = companyLookup(db);
  const update =
    db.prepare(`UPDATE prospects SET business_rowid = @business_rowid, company_name = @company_name,
    company_website = @company_website, company_linkedin = @company_linkedin, company_size = @company_size,
    company_revenue = @company_revenue, company_age = @company_age, company_locations = @company_locations,
    company_country_code = @company_country_code, company_region_country_code = @company_region_country_code,
    company_city_region_country = @company_city_region_country, company_naics = @company_naics,
    company_is_public = @company_is_public, company_has_website = @company_has_website WHERE rowid = @rowid`);
  // The stored fetch record shows the company columns, so it is rebuilt from the doc (a rare path:
  // businesses reloaded without prospects).
  const wire = db.prepare('UPDATE prospects SET wire = ? WHERE rowid = ?');
  const rows = db.prepare('SELECT rowid, business_id, doc FROM prospects').all() as {
    rowid: number;
    business_id: string | null;
    doc: Buffer;
  }[];
  for (const { rowid, business_id, doc } of rows) {
    const company = (business_id && companies.get(business_id)) || NO_COMPANY;
    update.run({ ...company, rowid });
    wire.run(prospectWire(decodeDoc('prospects', doc), company), rowid);
  }
}

/** Whether a stream is worth a worker: JSON Lines of at least `THREADED_MIN_BYTES`. */
function threadable(file: StreamFile): boolean {
  return file.format !== 'msgpack' && statSync(file.path).size >= THREADED_MIN_BYTES;
}

/** Bytes of whole lines per batch sent to a worker (≈ 500 prospects or 140 businesses). */
const BATCH_BYTES = 1 << 20;
/** Smaller stream files load on this thread: starting workers costs more than they save. */
const THREADED_MIN_BYTES = 1 << 20;
/** Batches in flight per worker: one being prepared, one queued, so a worker never waits. */
const IN_FLIGHT = 2;

/**
 * Built, this module runs from `dist/` and its worker is `load-worker.js`. Under tsx or vitest it runs
 * from `src/` as TypeScript: a worker does not inherit the parent's module hooks for its entry file, so
 * it registers tsx itself before importing `load-worker.ts`; when tsx cannot be resolved, no threads.
 */
function workerSpawner(): (() => Worker) | undefined {
  const workerData = { tag: WORKER_TAG };
  if (!import.meta.url.endsWith('.ts')) {
    const url = new URL('./load-worker.js', import.meta.url);
    return () => new Worker(url, { workerData });
  }
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  const url = new URL('./load-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(url)}))`;
  return () => new Worker(boot, { eval: true, workerData });
}

/**
 * Workers that turn raw JSON lines into prepared rows. This thread reads, hashes and decompresses the
 * file (zlib runs on the libuv pool), cuts it at line ends into batches it transfers round-robin, and
 * consumes the results in order: line numbers, bad-line reasons and duplicate detection are the same
 * as on the single-thread path.
 */
class LoadPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Starts `n` workers; `undefined` (load on this thread) when they cannot start. */
  static async start(n: number): Promise<LoadPool | undefined> {
    const spawn = workerSpawner();
    if (!spawn) return undefined;
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < n; i++) workers.push(spawn());
      // Only this code's listeners are removed: a Worker keeps its own on itself (`removeAllListeners`
      // stopped its message port, and no result ever arrived).
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              const onExit = (code: number) => done(new Error(`load worker exited (${code})`));
              const done = (error?: unknown) => {
                w.off('message', onReady);
                w.off('error', done);
                w.off('exit', onExit);
                if (error === undefined) resolve();
                else reject(error as Error);
              };
              const onReady = () => done();
              w.on('message', onReady);
              w.on('error', done);
              w.on('exit', onExit);
            }),
        ),
      );
      return new LoadPool(workers);
    } catch {
      await Promise.all(workers.map((w) => w.terminate()));
      return undefined;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  async run(
    file: StreamFile,
    setup: StreamSetup,
    onChunk: (chunk: Buffer) => void,
    consume: (batch: PreparedBatch) => void,
  ): Promise<void> {
    const waiting = new Map<number, { resolve: (b: PreparedBatch) => void; reject: (e: unknown) => void }>();
    const results: Promise<PreparedBatch>[] = [];
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
    };
    const onMessage = (batch: PreparedBatch) => {
      attachBlobs(batch);
      const w = waiting.get(batch.seq);
      waiting.delete(batch.seq);
      w?.resolve(batch);
    };
    const onExit = (code: number) => fail(new Error(`load worker exited (${code})`));
    for (const w of this.workers) {
      w.on('message', onMessage);
      w.on('error', fail);
      w.on('exit', onExit);
      w.postMessage({ type: 'stream', ...setup } satisfies WorkerMessage);
    }
    let seq = 0;
    let firstLine = 1;
    let consumed = 0;
    const dispatch = (piece: Buffer) => {
      const bytes = new Uint8Array(piece.length);
      bytes.set(piece);
      const s = seq++;
      results.push(
        new Promise<PreparedBatch>((resolve, reject) => {
          if (failure !== undefined) reject(failure);
          else waiting.set(s, { resolve, reject });
        }),
      );
      this.workers[s % this.workers.length]!.postMessage(
        { type: 'batch', seq: s, firstLine, bytes } satisfies WorkerMessage,
        [bytes.buffer],
      );
      for (let i = piece.indexOf(10); i !== -1; i = piece.indexOf(10, i + 1)) firstLine++;
    };
    const drain = async (keep: number) => {
      while (seq - consumed > keep) {
        const batch = await results[consumed]!;
        delete results[consumed];
        consumed++;
        consume(batch);
      }
    };
    try {
      const raw = createReadStream(file.path, { highWaterMark: 1 << 20 });
      raw.on('data', (chunk) => onChunk(chunk as Buffer));
      const input = file.format === 'jsonl.gz' ? raw.pipe(createGunzip({ chunkSize: 1 << 18 })) : raw;
      let parts: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of input as AsyncIterable<Buffer>) {
          parts.push(chunk);
          size += chunk.length;
          if (size < BATCH_BYTES) continue;
          const buf = Buffer.concat(parts, size);
          const cut = buf.lastIndexOf(10);
          if (cut === -1) {
            parts = [buf];
            continue;
          }
          dispatch(buf.subarray(0, cut + 1));
          const rest = buf.subarray(cut + 1);
          parts = rest.length ? [rest] : [];
          size = rest.length;
          await drain(IN_FLIGHT * this.workers.length);
        }
      } catch (e) {
        throw new EngineError('SNAPSHOT_INVALID', `${file.path}: cannot be read (${(e as Error).message})`);
      }
      if (size > 0) dispatch(Buffer.concat(parts, size));
      await drain(0);
    } finally {
      for (const w of this.workers) {
        w.off('message', onMessage);
        w.off('error', fail);
        w.off('exit', onExit);
      }
      // Settle what is left (after an error) so no rejection goes unhandled.
      for (const r of results) r?.catch(() => undefined);
    }
  }
}
