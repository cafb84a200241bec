/**
 * Export for notebooks: every record matching a request, as an async iterator (no 60,000 cap, no pages,
 * no credits: it reads the owner's own file).
 *
 * Snapshot consistency: the set of matching rowids is captured when the export is created (filters,
 * `exclude` and `max_per_company` applied then, as fetch does), together with the data version. Records
 * are then read in rowid order, 1,000 per step, each step synchronously and only while no write
 * transaction is open on the engine (a load in progress is waited for) and the data version is still the
 * captured one; a load or event ingest that commits during the export ends it with a 409 CONFLICT error
 * rather than mixing two snapshots. Memory stays constant: the captured set is one bit per row, each
 * step holds 1,000 records, and the reads go through a connection of the export's own with a small page
 * cache (`readConnection`). Records are the stored fetch records (`stored()`), decoded for the iterator.
 */
import type { ZodType } from 'zod';
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import { cardinality, take, type Bitset } from '../indexes/bitset.js';
import { release } from '../indexes/scratch.js';
import {
  BusinessesExportRequest,
  ProspectsExportRequest,
  type BusinessesExportRequest as BusinessesExportInput,
  type ProspectsExportRequest as ProspectsExportInput,
} from '../schemas/export.js';
import { getMeta, openDatabase, type Db } from '../store/open.js';
import { EXPORT_SQL } from '../store/sql/scans.js';
import { capPerCompany } from './company-cap.js';
import { businessRowids, excludeRows, matchBusinesses, matchProspects, prospectRowids } from './filters.js';
import { BUSINESS_PREVIEW_KEYS, pick, PROSPECT_PREVIEW_KEYS, wireCodec } from '../store/wire.js';
import { recentBusinessEvents, type FetchMode } from './records.js';

/** Records read per step. */
const STEP = 1_000;

/**
 * Stored records, a step of an export at a time: the `wire` MessagePack maps of full records, record
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

/** An export in progress: iterate it with `for await`; `total` is known from the start. */
export interface RecordExport extends AsyncIterableIterator<Record<string, unknown>> {
  /** Number of records the export yields. */
  readonly total: number;
  /**
   * The same records, a step at a time, as stored (full records whatever the mode: a preview is a key
   * subset), for writers that read the stored bytes without decoding them (the Parquet export).
   * Iterate either this or the export itself, once.
   */
  stored(): AsyncIterable<StoredBatch>;
}

function parse<T>(schema: ZodType<T>, request: unknown): T {
  const r = schema.safeParse(request ?? {});
  if (r.success) return r.data;
  throw EngineError.validation(
    r.error.issues.map((i) => ({
      loc: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
      msg: i.message,
      type: 'value_error',
    })),
  );
}

const dataVersion = (engine: Context) => getMeta(engine.db, 'data_version') ?? '0';

/** Resolves once no write transaction is open on the engine's connection. */
async function outsideWrites(engine: Context): Promise<void> {
  while (engine.db.inTransaction) await new Promise((resolve) => setTimeout(resolve, 20));
}

type Entity = 'prospects' | 'businesses';

/** One aggregate row of `EXPORT_SQL`: the records' bytes, their lengths, rowids, business ids. */
type Aggregate = [Buffer | null, string | null, string?, string?];

/**
 * Stored records of ascending `rows` of `entity`, one aggregate row per statement (`EXPORT_SQL`): a step
 * that is a whole rowid range (an export of everything) is one range read; a dense one (the rows cover
 * at least half of their rowid range) is one range read whose records are placed by rowid, the others
 * skipped; a sparse one reads `rowid IN (…)` lists, as fetch does.
 */
function storedReader(engine: Context, db: Db, entity: Entity, mode: FetchMode) {
  const sql = EXPORT_SQL(entity, IN);
  const all = db.prepare(sql.all).raw();
  const range = db.prepare(sql.range).raw();
  const list = db.prepare(sql.list).raw();
  const events = entity === 'businesses' && mode === 'full';
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
    if (events) batch.replace = ids.map((id) => ({ events: recentBusinessEvents(engine, id) }));
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
 * The stored view's own read connection to a database file, with a 2 MiB page cache instead of the
 * engine's 256 MiB: a scan of every row filled that cache with pages read once (+256 MiB of resident
 * memory at 1M prospects, all of it kept until the engine closes), and the largest memory map this
 * SQLite build allows (pages read in place, file-backed memory the kernel reclaims at will). The
 * version checks stay on the engine's connection; an in-memory database has only that one.
 */
function readConnection(engine: Context): Db {
  if (engine.path === ':memory:' || engine.path === '') return engine.db;
  const db = openDatabase(engine.path, { readonly: true });
  db.pragma('cache_size = -2048');
  db.pragma('mmap_size = 2147418112');
  return db;
}

/** Rowids per `rowid IN (…)` read. */
const IN = 100;

function walk(engine: Context, lent: Bitset, entity: Entity, mode: FetchMode): RecordExport {
  // The index's bitsets live as long as the data version; the captured set must outlive a reload.
  const set = lent.clone();
  release(engine, lent);
  const version = dataVersion(engine);
  const total = cardinality(set);
  let started = false;
  async function* steps() {
    if (started) throw new Error('an export can be iterated once');
    started = true;
    let from = 0;
    for (;;) {
      await outsideWrites(engine);
      if (dataVersion(engine) !== version) {
        throw new EngineError(
          'CONFLICT',
          'the data changed during the export (a load or an event ingest): start the export again',
        );
      }
      const rows = take(set, from, STEP);
      if (rows.length === 0) return;
      from = rows[rows.length - 1]! + 1;
      yield rows;
      // Let I/O (the consumer's writes) run between steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  async function* stored() {
    const db = readConnection(engine);
    try {
      const read = storedReader(engine, db, entity, mode);
      for await (const rows of steps()) yield read(rows);
    } finally {
      if (db !== engine.db) db.close();
    }
  }
  // The records as fetch returns them (`records.ts`): the stored full record, its replaced values in
  // place, and for a preview its preview keys.
  const keys = entity === 'prospects' ? PROSPECT_PREVIEW_KEYS : BUSINESS_PREVIEW_KEYS;
  async function* decoded() {
    for await (const { bytes, starts, ends, replace } of stored()) {
      for (let i = 0; i < starts.length; i++) {
        const full = wireCodec.unpack(bytes.subarray(starts[i], ends[i])) as Record<string, unknown>;
        if (replace?.[i]) Object.assign(full, replace[i]);
        yield mode === 'full' ? full : pick(full, keys);
      }
    }
  }
  return Object.assign(decoded(), { total, stored });
}

/**
 * Every prospect matching `request` (`filters`, `exclude`, `max_per_company`, `mode`), in snapshot order.
 * @example for await (const p of exportProspects(engine, { filters: { country_code: { values: ['us'] } } })) rows.push(p);
 */
export function exportProspects(engine: Context, request: ProspectsExportInput = {}): RecordExport {
  const r = parse(ProspectsExportRequest, request);
  const set = matchProspects(engine, r.filters);
  try {
    if (r.exclude?.length) excludeRows(set, prospectRowids(engine, r.exclude));
    if (r.max_per_company) capPerCompany(engine, set, r.max_per_company);
  } catch (e) {
    release(engine, set);
    throw e;
  }
  return walk(engine, set, 'prospects', r.mode);
}

/**
 * Every business matching `request` (`filters`, `exclude`, `mode`, `version`), in snapshot order.
 * @example const it = exportBusinesses(engine, { mode: 'preview' }); console.log(it.total);
 */
export function exportBusinesses(engine: Context, request: BusinessesExportInput = {}): RecordExport {
  const r = parse(BusinessesExportRequest, request);
  const set = matchBusinesses(engine, r.filters, r.version);
  try {
    if (r.exclude?.length) excludeRows(set, businessRowids(engine, r.exclude));
  } catch (e) {
    release(engine, set);
    throw e;
  }
  return walk(engine, set, 'businesses', r.mode);
}
