/**
 * prospectdb: an embedded B2B data engine. Load business and prospect snapshots into SQLite, then
 * match, fetch, count and autocomplete in-process, or serve the HTTP-compatible facade.
 *
 * @example
 * import { openEngine } from 'prospectdb';
 * const engine = openEngine({ path: 'prospects.db' });
 * await engine.load('fixtures/demo');
 * console.log(engine.info().counts);
 */
export { openEngine } from './engine.js';
// The core without accounts or credits (what `engine.handle` calls after validation and charging).
export { fetchBusinesses, fetchProspects } from './core/fetch.js';
export { businessStats, prospectStats } from './core/stats.js';
export { autocomplete } from './core/autocomplete.js';
export {
  MATCH_ERRORS,
  matchBusinesses,
  matchBusinessRows,
  matchBusinessStream,
  matchProspects,
  matchProspectRows,
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
export { serve, createHttpServer, type RunningServer, type ServeOptions } from './http/server.js';
export { buildIndexes, warmEngine } from './core/warm.js';
export { exportBusinesses, exportProspects, type RecordExport } from './core/export.js';
export type { BusinessesExportRequest, ProspectsExportRequest } from './schemas/export.js';
export { exportColumns, type Column, type ColumnKind, type ExportEntity } from './export/columns.js';
export { EXPORT_FORMATS, writeExport, type ExportFormat, type WriteOptions } from './export/write.js';
export type { Engine, EngineCounts, EngineInfo, EngineOptions } from './engine.js';
export { EngineError, ERROR_CODES, isEngineError } from './errors.js';
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
export { evaluateMatches } from './core/match/evaluate.js';
export type {
  CurvePoint,
  EvaluatedEntity,
  EvaluatedRow,
  Evaluation,
  EvaluateOptions,
  Scores,
} from './core/match/evaluate.js';
