/**
 * Stored records of an export, read a step at a time (`storedReader`), on the thread that runs the
 * export (`core/export.ts`) or on the Parquet writer's column thread (`parquet-worker.ts`), which opens
 * the snapshot file itself (`ExportSource`) so the engine's thread neither reads nor holds the bytes.
 */
import { EngineError } from '../errors.js';
import { take, Bitset } from '../indexes/bitset.js';
import { getMeta, openDatabase, type Db } from '../store/open.js';
import { EXPORT_SQL } from '../store/sql/scans.js';
/** The two entity tables an export reads (`export/columns.ts` names its columns). */
export type ExportEntity = 'prospects' | 'businesses';

/** Records read per step. */
export const STEP = 1_000;

/** Rowids per `rowid IN (…)` read. */
const IN = 100;

/**
 * Stored records, a step of an export at a time: the `wire` MessagePack value arrays of full records, record
 * `i` at `bytes[starts[i], ends[i])` (one buffer per step, as SQLite hands it over: no object per
 * record, and it can be transferred to another thread whole), and per record the values that replace
 * some of its stored ones (a business's recent `events`, which depend on the clock).
 */
export interface StoredBatch {
  bytes: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
  replace?: (Record<string, unknown> | undefined)[];
}

/** A batch of records held one buffer each (records that are not read from the store). */
export function storedBatch(wires: readonly Uint8Array[]): StoredBatch {
  const starts = new Uint32Array(wires.length);
  const ends = new Uint32Array(wires.length);
  let at = 0;
  wires.forEach((w, i) => {
    starts[i] = at;
    ends[i] = at += w.length;
  });
  const bytes = new Uint8Array(at);
  wires.forEach((w, i) => bytes.set(w, starts[i]));
  return { bytes, starts, ends };
}

/** One aggregate row of `EXPORT_SQL`: the records' bytes, their lengths, rowids, business ids. */
type Aggregate = [Buffer | null, string | null, string?, string?];

/**
 * Stored records of ascending `rows` of `entity`, one aggregate row per statement (`EXPORT_SQL`): a step
 * that is a whole rowid range (an export of everything) is one range read; a dense one (the rows cover
 * at least half of their rowid range) is one range read whose records are placed by rowid, the others
 * skipped; a sparse one reads `rowid IN (…)` lists, as fetch does. `events`: a business's recent
 * events (they depend on the clock: not stored), when the records carry them.
 */
export function storedReader(db: Db, entity: ExportEntity, events?: (businessId: string) => string[]) {
  const sql = EXPORT_SQL(entity, IN);
  const all = db.prepare(sql.all).raw();
  const range = db.prepare(sql.range).raw();
  const list = db.prepare(sql.list).raw();
  return (rows: readonly number[]): StoredBatch => {
    const n = rows.length;
    const starts = new Uint32Array(n);
    const ends = new Uint32Array(n);
    const ids: string[] = new Array<string>(n);
    const first = rows[0]!;
    const last = rows[n - 1]!;
    let placed = 0;
    /** Places the records of one aggregate row whose bytes start at `base` in the step's buffer. */
    const place = (a: Aggregate, base: number) => {
      if (a[0] === null) return;
      const lengths = a[1]!.split(',');
      const rowids = a[2]?.split(',');
      const businessIds = a[3] === undefined ? undefined : (JSON.parse(a[3]) as string[]);
      let at = base;
      let i = 0;
      for (let k = 0; k < lengths.length; k++) {
        const end = at + Number(lengths[k]);
        if (rowids) {
          const rowid = Number(rowids[k]);
          i = position(rows, rowid, i);
          if (rows[i] === rowid) {
            starts[i] = at;
            ends[i] = end;
            if (businessIds) ids[i] = businessIds[k]!;
            placed++;
          }
        } else {
          starts[k] = at;
          ends[k] = end;
          if (businessIds) ids[k] = businessIds[k]!;
          placed++;
        }
        at = end;
      }
      if (at - base !== a[0].length) throw new Error('export: stored records of unexpected length');
    };
    let bytes: Uint8Array;
    if (last - first + 1 === n || n * 2 >= last - first + 1) {
      const a = (last - first + 1 === n ? all : range).get(first, last) as Aggregate;
      bytes = a[0] ?? new Uint8Array(0);
      place(a, 0);
    } else {
      const parts: Buffer[] = [];
      let at = 0;
      for (let i = 0; i < n; i += IN) {
        const batch = rows.slice(i, i + IN);
        while (batch.length < IN) batch.push(0); // rowid 0: none has it
        const a = list.get(batch) as Aggregate;
        place(a, at);
        if (a[0]) {
          parts.push(a[0]);
          at += a[0].length;
        }
      }
      bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, at);
    }
    // Every captured row exists while the data version is unchanged; a row without a stored record
    // (a NULL `wire`) is not one the export can write.
    if (placed !== n) throw new Error(`export: ${n - placed} of ${n} rows have no stored record`);
    const batch: StoredBatch = { bytes, starts, ends };
    if (events) batch.replace = ids.map((id) => ({ events: events(id) }));
    return batch;
  };
}

/** The index of `rowid` in ascending `rows` (or of the next larger one), searching from `from`. */
function position(rows: readonly number[], rowid: number, from: number): number {
  let lo = from;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]! < rowid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A read connection of the export's own to a database file, with a 2 MiB page cache instead of the
 * engine's 256 MiB: a scan of every row filled that cache with pages read once (+256 MiB of resident
 * memory at 1M prospects, all of it kept until the engine closes), and the largest memory map this
 * SQLite build allows (pages read in place, file-backed memory the kernel reclaims at will).
 */
export function readConnection(path: string): Db {
  const db = openDatabase(path, { readonly: true });
  db.pragma('cache_size = -2048');
  db.pragma('mmap_size = 2147418112');
  return db;
}

/**
 * What another thread needs to read an export's records itself: the snapshot file, the captured rows
 * (a bitset's words) and the snapshot they were captured from (`snapshot_id`, `data_version`).
 */
export interface ExportSource {
  path: string;
  entity: ExportEntity;
  size: number;
  words: Uint32Array;
  snapshotId: string;
  version: string;
}

export const CONFLICT_MESSAGE =
  'the data changed during the export (a load or an event ingest): start the export again';

/**
 * The stored records of `source`, a step at a time, read through a connection of their own. Each step
 * is one read transaction that first checks the file still holds the captured snapshot (same
 * `snapshot_id` and `data_version`: a load, an event ingest or a file swapped in since ends the export
 * with a CONFLICT error), so every record comes from the snapshot the rows were captured from.
 */
export function* readSource(source: ExportSource): Generator<StoredBatch> {
  const db = readConnection(source.path);
  try {
    const set = new Bitset(source.size, source.words);
    const read = storedReader(db, source.entity);
    const step = db.transaction((rows: number[]) => {
      if (
        (getMeta(db, 'snapshot_id') ?? '') !== source.snapshotId ||
        (getMeta(db, 'data_version') ?? '0') !== source.version
      )
        throw new EngineError('CONFLICT', CONFLICT_MESSAGE);
      return read(rows);
    });
    for (let from = 0; ;) {
      const rows = take(set, from, STEP);
      if (rows.length === 0) return;
      from = rows[rows.length - 1]! + 1;
      yield step(rows);
    }
  } finally {
    db.close();
  }
}
