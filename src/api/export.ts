/**
 * The library's export functions: the request checked once by the export schemas (`schemas/export.ts`)
 * with the 422 `detail` entries as issues, then the core's iterators and writers. An export has no
 * whole-body bounds (its owner may exclude more ids than one HTTP body carries); the schema's own apply.
 */
import { z } from 'zod';
import {
  exportBusinesses as businessExport,
  exportProspects as prospectExport,
  type RecordExport,
} from '../core/export.js';
import { exportColumns as columnsOf, type Column, type ExportEntity } from '../export/columns.js';
import { EXPORT_FORMATS, writeExport as write, type WriteOptions } from '../export/write.js';
import type { Context } from '../runtime/context.js';
import { FETCH_MODES } from '../schemas/enums.js';
import {
  BusinessesExportRequest,
  ProspectsExportRequest,
  type BusinessesExportRequest as BusinessesExportInput,
  type ProspectsExportRequest as ProspectsExportInput,
} from '../schemas/export.js';
import type { FetchMode } from '../store/wire.js';
import { checkEngine, parseOptions, parseRequest } from './parse.js';

/**
 * Every prospect matching a request (`filters`, `exclude`, `max_per_company`, `mode`) without paging,
 * as an async iterator in snapshot order (`total` known up front).
 * @example for await (const p of exportProspects(engine, { filters: { country_code: { values: ['us'] } } })) rows.push(p);
 */
export function exportProspects(engine: Context, request: ProspectsExportInput = {}): RecordExport {
  checkEngine(engine);
  parseRequest(ProspectsExportRequest, request, { bounds: false });
  return prospectExport(engine, request);
}

/**
 * Every business matching a request (`filters`, `exclude`, `mode`, `version`) without paging, as an
 * async iterator in snapshot order (`total` known up front).
 * @example const all = exportBusinesses(engine, { mode: 'preview' }); console.log(all.total);
 */
export function exportBusinesses(engine: Context, request: BusinessesExportInput = {}): RecordExport {
  checkEngine(engine);
  parseRequest(BusinessesExportRequest, request, { bounds: false });
  return businessExport(engine, request);
}

const ColumnsArgs = z.strictObject({
  entity: z.enum(['prospects', 'businesses']),
  mode: z.enum(FETCH_MODES),
});

/**
 * The typed columns of an export of `entity` in `mode` (what CSV and Parquet write).
 * @example exportColumns('prospects', 'preview').map((c) => c.name)
 */
export function exportColumns(entity: ExportEntity, mode: FetchMode): Column[] {
  parseOptions(ColumnsArgs, { entity, mode });
  return columnsOf(entity, mode);
}

const WriteOptionsSchema = z.strictObject({
  format: z.enum(EXPORT_FORMATS),
  out: z.string().min(1),
  columns: z.array(z.looseObject({ name: z.string(), kind: z.string() })),
  onRecord: z
    .custom<(written: number) => void>((v) => typeof v === 'function', 'must be a function')
    .optional(),
  codec: z.string().optional(),
});

/**
 * Writes exported records to a JSON Lines, CSV or Parquet file; resolves to the number written.
 * @example await writeExport(exportProspects(engine, {}), { format: 'csv', out: 'p.csv', columns: exportColumns('prospects', 'full') });
 */
export async function writeExport(
  records: AsyncIterable<Record<string, unknown>> | RecordExport,
  options: WriteOptions,
): Promise<number> {
  parseOptions(WriteOptionsSchema, options);
  return write(records, options);
}
