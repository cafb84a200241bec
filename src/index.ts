/**
 * prospectdb: an embedded B2B data engine. Load business and prospect snapshots into SQLite, then
 * match, fetch, count and autocomplete in-process, or serve the HTTP-compatible facade
 * (`prospectdb/server`).
 *
 * Every function below has one line of documentation and an example here; the README shows them in
 * context. The entry imports only what a query needs: the HTTP server and the MCP SDK live behind
 * `prospectdb/server`, and the mail, research-schema and Parquet code loads on first use, so that
 * importing the package costs milliseconds (`bench/import.bench.ts`).
 *
 * @example
 * import { openEngine } from 'prospectdb';
 * const engine = openEngine({ path: 'prospects.db' });
 * await engine.load('fixtures/demo');
 * console.log(engine.info().counts);
 */
export {
  /**
   * Opens (or creates) an engine over a database file, or `':memory:'` by default.
   * @example const engine = openEngine({ path: 'prospects.db', readonly: true });
   */
  openEngine,
} from './engine.js';
export { DEMO_SNAPSHOT } from './demo-snapshot.js';

// The core without accounts or credits (what `engine.handle` calls after validation and charging).
export {
  /**
   * One page of businesses (page 1 = the first), as the live fetch route answers it.
   * @example fetchBusinesses(engine, { mode: 'preview', page_size: 50 }, 1).data
   */
  fetchBusinesses,
  /**
   * One page of prospects (page 1 = the first), as the live fetch route answers it.
   * @example fetchProspects(engine, { mode: 'full', page_size: 100, filters: { country_code: { values: ['us'] } } }, 1)
   */
  fetchProspects,
} from './core/fetch.js';
export {
  /**
   * Business stats for a filter set: total, categories per location, revenue and size ranges.
   * @example businessStats(engine, { filters: { country_code: { values: ['us'] } } }).total_results
   */
  businessStats,
  /**
   * Prospect stats for a filter set: total, departments per location, prospects per location.
   * @example prospectStats(engine, { filters: { job_level: { values: ['director'] } } }).total_results
   */
  prospectStats,
} from './core/stats.js';
export {
  /**
   * Autocomplete items (label and value) for a filter field and a typed prefix, typos allowed.
   * @example autocomplete(engine, { field: 'country', query: 'unit', semantic_search: false }) // [{ label: 'United States', value: 'us', … }, …]
   */
  autocomplete,
} from './core/autocomplete.js';
export {
  MATCH_ERRORS,
  /**
   * Matches businesses to ids: the live response body without `response_context`.
   * @example matchBusinesses(engine, [{ name: 'Acme Robotics', domain: 'acmerobotics.com' }], { explain: true })
   */
  matchBusinesses,
  /**
   * Matches business rows, one output row per input row (the batch API under `matchBusinesses`).
   * @example const [row] = matchBusinessRows(engine, [{ domain: 'acmerobotics.com' }]); row.business_id
   */
  matchBusinessRows,
  /**
   * Matches a stream of business rows of any length, yielding one result per row in input order.
   * @example for await (const r of matchBusinessStream(engine, rowsOf('crm.jsonl'))) write(r);
   */
  matchBusinessStream,
  /**
   * Matches prospects to ids: the live response body without `response_context`.
   * @example matchProspects(engine, [{ full_name: 'Jane Doe', company_name: 'Acme Robotics' }], { minConfidence: 0.5 })
   */
  matchProspects,
  /**
   * Matches prospect rows, one output row per input row (the batch API under `matchProspects`).
   * @example const [row] = matchProspectRows(engine, [{ email: 'jane@acmerobotics.com' }]); row.prospect_id
   */
  matchProspectRows,
  /**
   * Matches a stream of prospect rows of any length, yielding one result per row in input order.
   * @example for await (const r of matchProspectStream(engine, rowsOf('leads.csv'))) write(r);
   */
  matchProspectStream,
} from './core/match/index.js';
export type {
  Alternative,
  BusinessesMatchResult,
  BusinessMatchRow,
  BusinessRowInput,
  MatchedOn,
  MatchOptions,
  ProspectMatchRow,
  ProspectRowInput,
  ProspectsMatchResult,
  StreamOptions,
} from './core/match/index.js';
export {
  /**
   * Serves the engine over HTTP (kept here for code written before `prospectdb/server`; loads the server
   * on the first call, so importing the package stays light).
   * @example const { url, close } = await serve(engine, { port: 8080 });
   */
  serve,
} from './serve/on-demand.js';
export type { RunningServer, ServeOptions } from './serve/index.js';
export {
  /**
   * Scores the matcher on labelled rows: precision, recall, F1, per-kind scores and the confidence curve.
   * @example const e = evaluateMatches(engine, rows, truths); console.log(e.overall.f1, e.curve);
   */
  evaluateMatches,
} from './core/match/evaluate.js';
export type {
  CurvePoint,
  EvaluatedEntity,
  EvaluatedRow,
  Evaluation,
  EvaluateOptions,
  Scores,
} from './core/match/evaluate.js';
export {
  /**
   * Builds the search indexes ahead of the first query and saves them in a writable file; returns ms.
   * @example await engine.load('snapshot/'); buildIndexes(engine);
   */
  buildIndexes,
  /**
   * Builds every index a request would build on first use, yielding between steps; resolves with ms per step.
   * @example const took = await warmEngine(engine); console.log(took['match.businesses']);
   */
  warmEngine,
} from './core/warm.js';
export {
  /**
   * Every business matching a fetch request without paging, as an async iterator (`total` known up front).
   * @example const all = exportBusinesses(engine, { mode: 'preview' }); console.log(all.total);
   */
  exportBusinesses,
  /**
   * Every prospect matching a fetch request without paging, as an async iterator (`total` known up front).
   * @example for await (const p of exportProspects(engine, { filters: { country_code: { values: ['us'] } } })) rows.push(p);
   */
  exportProspects,
  type RecordExport,
} from './core/export.js';
export type { BusinessesExportRequest, ProspectsExportRequest } from './schemas/export.js';
export {
  /**
   * The typed columns of an export of `entity` in `mode` (what CSV and Parquet write).
   * @example exportColumns('prospects', 'preview').map((c) => c.name)
   */
  exportColumns,
  type Column,
  type ColumnKind,
  type ExportEntity,
} from './export/columns.js';
export {
  EXPORT_FORMATS,
  /**
   * Writes exported records to a JSON Lines, CSV or Parquet file; resolves to the number written.
   * @example await writeExport(exportProspects(engine, {}), { format: 'csv', out: 'p.csv', columns: exportColumns('prospects', 'full') });
   */
  writeExport,
  type ExportFormat,
  type WriteOptions,
} from './export/write.js';
export type { Engine, EngineCounts, EngineInfo, EngineOptions, SwapReport } from './engine.js';
export {
  EngineError,
  ERROR_CODES,
  /**
   * Whether a thrown value is the engine's `EngineError` (with `code`, `status` and 422 `issues`).
   * @example try { exportProspects(engine, bad); } catch (e) { if (isEngineError(e)) console.log(e.status, e.issues); }
   */
  isEngineError,
} from './errors.js';
export type { ErrorCode, ValidationIssue } from './errors.js';
export type { LoadIssue, LoadOptions, LoadProgress, LoadReport, StreamReport } from './store/load.js';
export type { SnapshotFiles, SnapshotSource, StreamName } from './snapshot/files.js';
export {
  BusinessEventRecord,
  BusinessRecord,
  EventRecord,
  Manifest,
  ProspectEventRecord,
  ProspectRecord,
} from './schemas/records.js';
export * as enums from './schemas/enums.js';
