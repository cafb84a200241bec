/** Opens a SQLite file (or `:memory:`) with the pragmas a read-mostly analytical store wants. */
import { closeSync, openSync, readSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Db } from './db.js';
import { codecMeta } from './codec.js';
import { hasOldLayout, layoutError } from './layout.js';
import { createIndexes, ENTITY_TABLES, INLINE_ID_SQL, SCHEMA, SCHEMA_VERSION } from './schema.js';
import { metaStatements } from './sql/meta.js';

export type { Db } from './db.js';

/**
 * Opens a snapshot file. A file in an older layout (schema < 6) is refused with an `EngineError`
 * (`SCHEMA_OUTDATED`) naming the file, its version and the fix (`prospectdb migrate` or a reload).
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  const db = new Database(path, { readonly: options.readonly ?? false });
  try {
    if (hasOldLayout(db)) throw layoutError(path, getMeta(db, 'schema_version'));
  } catch (e) {
    db.close();
    throw e;
  }
  // 16 KiB pages for new files (an existing file keeps its own). A row (~1.7 KB a prospect, ~2.6 KB a
  // business) never spans pages, so a page leaves about half a row unused: 6% of the prospects table
  // with 16 KiB pages, under 2% with 64 KiB. But a write rewrites the whole page it lands on, and a
  // delta's writes land at random: 1% delta at 1M prospects, same run, the apply took 5.5–5.8 s on a
  // base with 64 KiB pages and 4.5 s on the same base with 16 KiB ones (10,000 deletions alone:
  // 571–644 ms, 313 ms; 8 KiB 250 ms), for a file 3.6% larger (0.925 → 0.958× its JSON). A full load
  // and the first answers measured the same (80–85 s; 250–335 ms). 4 KiB pages had cost ~20–40% more
  // CPU per insert than 16 KiB. Set before anything is written (the WAL switch writes the header).
  if (!options.readonly) db.pragma('page_size = 16384');
  if (path !== ':memory:' && !options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -262144'); // 256 MiB page cache
  db.pragma('mmap_size = 1073741824');
  db.pragma('foreign_keys = ON');
  if (!options.readonly) {
    for (const ddl of SCHEMA) db.exec(ddl);
    for (const table of ENTITY_TABLES) db.exec(createIndexes(table, hasInlineId(db, table)));
    setMeta(db, 'schema_version', String(SCHEMA_VERSION));
    // What the loader encodes `rest` with, kept with the file (see `codec.ts`).
    for (const [key, value] of codecMeta()) if (getMeta(db, key) === undefined) setMeta(db, key, value);
  }
  return db;
}

/**
 * The page cache of the connection saved index parts are read through: 1 MiB (64 pages of 16 KiB).
 * Each part is read once per process and then held decoded, so caching its pages buys nothing; a
 * small cache recycles the same memory instead. Read through the snapshot's own 256 MiB cache, a first
 * 50-row business match at 5M prospects filled ~285 fresh 64 KiB pages for shards of ~12 KB, and a
 * first touch of memory costs ~20 µs per 4 KiB on the machines we measure on (3.5k of its 35k page
 * faults, ~70 ms).
 */
const PARTS_CACHE_SIZE = -1024;
const partsReaders = new WeakMap<Db, Db>();

/**
 * The connection to read saved index parts of `db` through: for a read-only file, a second read-only
 * connection to it with a small page cache of its own ({@link PARTS_CACHE_SIZE}), opened on first use
 * and closed by {@link closeDatabase}; `db` itself otherwise (a writer reads what its own transaction
 * wrote; a path that now holds another file). Both see the same parts: each carries the stamp of the
 * data it was built for, checked against `db`'s when read.
 */
export function savedPartsReader(db: Db): Db {
  if (!db.readonly || !db.open || db.memory || db.name === '') return db;
  let reader = partsReaders.get(db);
  if (reader === undefined) {
    reader = openPartsReader(db);
    partsReaders.set(db, reader);
  }
  return reader;
}

/**
 * A second connection to `db`'s file, or `db` itself when the path no longer holds the same snapshot
 * (another file renamed over it since `db` opened: the new file's parts would all be stale here, each
 * rebuilt instead of read) or cannot be opened again.
 */
function openPartsReader(db: Db): Db {
  let reader: Db | undefined;
  try {
    reader = new Database(db.name, { readonly: true, fileMustExist: true });
    if (getMeta(reader, 'snapshot_id') !== getMeta(db, 'snapshot_id')) throw new Error('another file');
    reader.pragma(`cache_size = ${PARTS_CACHE_SIZE}`);
    reader.pragma('mmap_size = 1073741824');
    return reader;
  } catch {
    reader?.close();
    return db;
  }
}

/** Closes `db` and the connection its saved parts were read through, if one was opened. */
export function closeDatabase(db: Db): void {
  const reader = partsReaders.get(db);
  if (reader !== undefined && reader !== db) reader.close();
  partsReaders.delete(db);
  if (db.open) db.close();
}

/**
 * Finishes a built snapshot file for serving: rollback-journal mode instead of WAL, so a read-only
 * connection uses no `-wal`/`-shm` files beside it. A file renamed over one being served must be in
 * this mode: those two files are found by path, and the old file's would otherwise be read as the new
 * one's (`prospectdb load` calls it after closing the file). The next writable open turns WAL on again.
 */
export function settleSnapshotFile(path: string): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * Turns a file that nobody reads yet (a copy being made into a new snapshot) to WAL mode without a
 * sync. With `synchronous` above OFF the switch flushes every page of the file to disk first: 1.1–1.7 s
 * for a 2.6 GB base the copy had just written (1M prospects), before the delta changed a row. The file
 * is written whole, and synced once, when it is settled (`settleSnapshotFile`).
 */
export function walWithoutSync(path: string): void {
  const db = new Database(path);
  try {
    db.pragma('synchronous = OFF');
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}

/** Whether the SQLite file at `path` is in WAL mode (its header's read/write versions are 2). */
export function isWalFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(20);
    readSync(fd, header, 0, 20, 0);
    return header[18] === 2 || header[19] === 2;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether `table` still has its id's `UNIQUE` column constraint (files written before the ids' indexes
 * were named, see `TABLE_INDEXES`): its index is then the id's.
 */
export function hasInlineId(db: Db, table: 'businesses' | 'prospects'): boolean {
  return db.prepare(INLINE_ID_SQL).get(table) !== undefined;
}

export function getMeta(db: Db, key: string): string | undefined {
  return (metaStatements(db).get.get(key) as string | undefined) ?? undefined;
}

export function setMeta(db: Db, key: string, value: string): void {
  metaStatements(db).set.run(key, value);
}

/**
 * The version of the businesses and prospects: what the saved and in-memory entity indexes are built
 * for. It moves with `data_version` when they change (a load or a delta of theirs), not when only the
 * events do (an ingest, a delta or a load of events alone). A file written before it was kept reads its
 * data version.
 */
export function entitiesVersion(db: Db): string {
  return getMeta(db, 'entities_version') ?? getMeta(db, 'data_version') ?? '0';
}

/** The snapshot id of the last change of the businesses and prospects (see {@link entitiesVersion}). */
export function entitiesSnapshotId(db: Db): string {
  return getMeta(db, 'entities_snapshot_id') ?? getMeta(db, 'snapshot_id') ?? '';
}

/**
 * Records a write of the snapshot's rows, in the writer's transaction: `data_version` moves, and with
 * `entities` (businesses or prospects changed) the entities' version too; `snapshotId`, when the write
 * makes a new snapshot (a load, a delta), becomes the file's. When only events changed, the entities'
 * version and snapshot id are kept as they were (written out for a file that lacked them), so every
 * saved index stays current.
 */
export function recordWrite(
  db: Db,
  { entities, snapshotId }: { entities: boolean; snapshotId?: string },
): void {
  const next = String(Number(getMeta(db, 'data_version') ?? '0') + 1);
  setMeta(db, 'entities_version', entities ? next : entitiesVersion(db));
  const entitiesSnapshot = entities && snapshotId !== undefined ? snapshotId : entitiesSnapshotId(db);
  setMeta(db, 'entities_snapshot_id', entitiesSnapshot);
  if (snapshotId !== undefined) setMeta(db, 'snapshot_id', snapshotId);
  setMeta(db, 'data_version', next);
}
