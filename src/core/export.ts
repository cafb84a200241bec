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
import { getMeta } from '../store/open.js';
import { useNativeStringDecoding } from '../store/codec.js';
import {
  CONFLICT_MESSAGE,
  readConnection,
  STEP,
  storedReader,
  type ExportSource,
  type StoredBatch,
} from './stored-records.js';
import { capPerCompany } from './company-cap.js';
import {
  businessRowids,
  excludeRows,
  businessFilterSet,
  prospectFilterSet,
  prospectRowids,
} from './filters.js';
import { BUSINESS_PREVIEW_KEYS, pick, PROSPECT_PREVIEW_KEYS, unpackWire } from '../store/wire.js';
import { recentBusinessEvents, type FetchMode } from './records.js';

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
  /**
   * The same records as the iterator, a step at a time (for writers: one await per step instead of
   * one per record). Iterate one of `stored`, `batches` or the export itself, once.
   */
  batches(): AsyncIterable<Record<string, unknown>[]>;
  /**
   * Where another thread can read the same stored records itself (the snapshot file, the captured
   * rows and snapshot), or undefined when it cannot (an in-memory database; business records whose
   * `events` come from the engine). Counts as iterating the export.
   */
  source(): ExportSource | undefined;
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

function walk(engine: Context, lent: Bitset, entity: Entity, mode: FetchMode): RecordExport {
  // The index's bitsets live as long as the data version; the captured set must outlive a reload.
  const set = lent.clone();
  release(engine, lent);
  const version = dataVersion(engine);
  const snapshotId = getMeta(engine.db, 'snapshot_id') ?? '';
  const total = cardinality(set);
  let started = false;
  const start = () => {
    if (started) throw new Error('an export can be iterated once');
    started = true;
  };
  const file = engine.path !== ':memory:' && engine.path !== '';
  async function* steps() {
    start();
    let from = 0;
    for (;;) {
      await outsideWrites(engine);
      if (dataVersion(engine) !== version) throw new EngineError('CONFLICT', CONFLICT_MESSAGE);
      const rows = take(set, from, STEP);
      if (rows.length === 0) return;
      from = rows[rows.length - 1]! + 1;
      yield rows;
      // Let I/O (the consumer's writes) run between steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  // The version checks stay on the engine's connection; an in-memory database has only that one.
  const events = entity === 'businesses' && mode === 'full';
  async function* stored() {
    const db = file ? readConnection(engine.path) : engine.db;
    try {
      const read = storedReader(db, entity, events ? (id) => recentBusinessEvents(engine, id) : undefined);
      for await (const rows of steps()) yield read(rows);
    } finally {
      if (db !== engine.db) db.close();
    }
  }
  function source(): ExportSource | undefined {
    if (!file || events) return undefined;
    start();
    return { path: engine.path, entity, size: set.size, words: set.words, snapshotId, version };
  }
  // The records as fetch returns them (`records.ts`): the stored full record, its replaced values in
  // place, and for a preview its preview keys.
  const keys = entity === 'prospects' ? PROSPECT_PREVIEW_KEYS : BUSINESS_PREVIEW_KEYS;
  async function* batches() {
    for await (const { bytes, starts, ends, replace } of stored()) {
      const out: Record<string, unknown>[] = new Array(starts.length);
      for (let i = 0; i < starts.length; i++) {
        const full = unpackWire(entity, bytes.subarray(starts[i], ends[i]));
        if (replace?.[i]) Object.assign(full, replace[i]);
        out[i] = mode === 'full' ? full : pick(full, keys);
      }
      yield out;
    }
  }
  async function* decoded() {
    for await (const batch of batches()) yield* batch;
  }
  return Object.assign(decoded(), { total, stored, batches, source });
}

/**
 * Every prospect matching `request` (`filters`, `exclude`, `max_per_company`, `mode`), in snapshot order.
 * @example for await (const p of exportProspects(engine, { filters: { country_code: { values: ['us'] } } })) rows.push(p);
 */
export function exportProspects(engine: Context, request: ProspectsExportInput = {}): RecordExport {
  const r = parse(ProspectsExportRequest, request);
  const set = prospectFilterSet(engine, r.filters);
  try {
    if (r.exclude?.length) excludeRows(set, prospectRowids(engine, r.exclude));
    if (r.max_per_company) capPerCompany(engine, set, r.max_per_company);
  } catch (e) {
    release(engine, set);
    throw e;
  }
  useNativeStringDecoding();
  return walk(engine, set, 'prospects', r.mode);
}

/**
 * Every business matching `request` (`filters`, `exclude`, `mode`, `version`), in snapshot order.
 * @example const it = exportBusinesses(engine, { mode: 'preview' }); console.log(it.total);
 */
export function exportBusinesses(engine: Context, request: BusinessesExportInput = {}): RecordExport {
  const r = parse(BusinessesExportRequest, request);
  const set = businessFilterSet(engine, r.filters, r.version);
  try {
    if (r.exclude?.length) excludeRows(set, businessRowids(engine, r.exclude));
  } catch (e) {
    release(engine, set);
    throw e;
  }
  useNativeStringDecoding();
  return walk(engine, set, 'businesses', r.mode);
}
