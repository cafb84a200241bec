/** The match engine: business and prospect rows → ids, in batches or as a stream. */
export { matchBusinesses, matchBusinessRows, matchProspects, matchProspectRows } from './batch.js';
export { matchBusinessStream, matchProspectStream, type StreamOptions } from './stream.js';
export { MATCH_ERRORS } from './types.js';
export type {
  Alternative,
  BusinessesMatchResult,
  BusinessInput,
  BusinessMatchRow,
  BusinessRowInput,
  MatchedOn,
  MatchErrorType,
  MatchOptions,
  ProspectInput,
  ProspectMatchRow,
  ProspectRowInput,
  ProspectsMatchResult,
} from './types.js';
