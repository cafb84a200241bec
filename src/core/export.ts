/**
 * Export for notebooks: every record matching a request, as an async iterator (no 60,000 cap, no pages,
 * no credits: it reads the owner's own file).
 *
 * Snapshot consistency: the set of matching rowids is captured when the export is created (filters,
 * `exclude` and `max_per_company` applied then, as fetch does), together with the data version. Records
 * are then read in rowid order, 1,000 per step, each step synchronously and only while no write
 * transaction is open on the engine (a load in progress is waited for) and the data version is still the
 * captured one; a load or event ingest that commits during the export ends it with a 409 CONFLICT error
 * rather than mixing two snapshots. Memory stays constant: the captured set is one bit per row, and each
 * step holds 1,000 records.
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
import { capPerCompany } from './company-cap.js';
import { businessRowids, excludeRows, matchBusinesses, matchProspects, prospectRowids } from './filters.js';
import { businessRecords, prospectRecords, type FetchMode } from './records.js';

/** Records read per step. */
const STEP = 1_000;

/** An export in progress: iterate it with `for await`; `total` is known from the start. */
export interface RecordExport extends AsyncIterableIterator<Record<string, unknown>> {
  /** Number of records the export yields. */
  readonly total: number;
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

function walk(
  engine: Context,
  lent: Bitset,
  mode: FetchMode,
  records: (engine: Context, rows: readonly number[], mode: FetchMode) => Record<string, unknown>[],
): RecordExport {
  // The index's bitsets live as long as the data version; the captured set must outlive a reload.
  const set = lent.clone();
  release(engine, lent);
  const version = dataVersion(engine);
  const total = cardinality(set);
  async function* steps() {
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
      yield* records(engine, rows, mode);
      // Let I/O (the consumer's writes) run between steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return Object.assign(steps(), { total });
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
  return walk(engine, set, r.mode, prospectRecords);
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
  return walk(engine, set, r.mode, businessRecords);
}
