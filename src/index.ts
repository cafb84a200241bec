/**
 * prospectdb: an embedded B2B data engine. Load business and prospect snapshots into SQLite, then
 * match, fetch, count and autocomplete in-process, or serve the HTTP-compatible facade
 * (`prospectdb/server`).
 *
 * Every function here checks its input with the schemas of the live routes and throws `EngineError`
 * (`code` `VALIDATION`, `issues` as the 422 `detail` entries) instead of guessing; each one's doc
 * comment and example sit on its declaration (`src/api/`, `src/engine.ts`), where editors show them.
 * The entry imports only what a query needs: the HTTP server and the MCP SDK live behind
 * `prospectdb/server`, and the mail, research-schema and Parquet code loads on first use, so that
 * importing the package costs milliseconds (`bench/import.bench.ts`).
 *
 * @example
 * import { DEMO_SNAPSHOT, fetchProspects, openEngine } from 'prospectdb';
 * const engine = openEngine({ path: 'prospects.db' });
 * await engine.load(DEMO_SNAPSHOT);
 * const page = fetchProspects(engine, { mode: 'preview', page_size: 10 }, { version: 2 });
 */
export { openEngine } from './engine.js';
export type { Engine, EngineCounts, EngineInfo, EngineOptions, SwapReport } from './engine.js';
export { DEMO_SNAPSHOT } from './demo-snapshot.js';

// The core without accounts or credits (what `engine.handle` calls after validation and charging).
export {
  autocomplete,
  businessStats,
  fetchBusinesses,
  fetchProspects,
  prospectStats,
  type ApiVersion,
  type AutocompleteRequest,
  type BusinessesFetchRequest,
  type BusinessesFetchRequestV2,
  type BusinessesStatsRequest,
  type BusinessStats,
  type FetchedBusiness,
  type FetchedProspect,
  type Page,
  type PageOf,
  type ProspectsFetchRequest,
  type ProspectsFetchRequestV2,
  type ProspectsStatsRequest,
  type ProspectsStatsRequestV2,
  type ProspectStats,
  type SearchOptions,
} from './api/search.js';
export type { AutocompleteItem } from './core/autocomplete.js';
export type { CursorPage, OffsetPage } from './core/fetch.js';
export {
  evaluateMatches,
  matchBusinesses,
  matchBusinessRows,
  matchBusinessStream,
  matchProspects,
  matchProspectRows,
  matchProspectStream,
  type BusinessRowInput,
  type EvaluateOptions,
  type MatchOptions,
  type ProspectRowInput,
  type StreamOptions,
} from './api/match.js';
export { MATCH_ERRORS } from './core/match/index.js';
export type {
  Alternative,
  BusinessesMatchResult,
  BusinessMatchRow,
  MatchedOn,
  MatchErrorType,
  ProspectMatchRow,
  ProspectsMatchResult,
} from './core/match/index.js';
export type { CurvePoint, EvaluatedEntity, EvaluatedRow, Evaluation, Scores } from './core/match/evaluate.js';
export { serve } from './serve/on-demand.js';
export type { RunningServer, ServeOptions } from './serve/index.js';
export { buildIndexes, buildIndexesThreaded, warmEngine } from './api/warm.js';
export { exportBusinesses, exportColumns, exportProspects, writeExport } from './api/export.js';
export type { RecordExport } from './core/export.js';
export type { BusinessesExportRequest, ProspectsExportRequest } from './schemas/export.js';
export type { Column, ColumnKind, ExportEntity } from './export/columns.js';
export { EXPORT_FORMATS, type ExportFormat, type WriteOptions } from './export/write.js';
export { EngineError, ERROR_CODES, isEngineError } from './errors.js';
export type { ErrorCode, ValidationIssue } from './errors.js';
export type { LoadIssue, LoadOptions, LoadProgress, LoadReport, StreamReport } from './store/load.js';
export { applyDelta, applyDeltaFile, type DeltaFileOptions, type DeltaFileResult } from './api/delta.js';
export type { DeltaOptions, DeltaReport, DeltaRows, DeltaStreamReport } from './store/delta.js';
export type { CopyMethod } from './store/delta-copy.js';
export type { SnapshotFiles, SnapshotSource, StreamName } from './snapshot/files.js';
export {
  BusinessEventRecord,
  BusinessRecord,
  EventRecord,
  DeletionRecord,
  DeltaManifest,
  Manifest,
  ProspectEventRecord,
  ProspectRecord,
} from './schemas/records.js';
export * as enums from './schemas/enums.js';
