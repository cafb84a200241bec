/** What a delta takes (options) and gives back (its report). */
import type { StreamName } from '../snapshot/files.js';
import type { LoadIssue } from './load-report.js';

export interface DeltaOptions {
  /** Refuse the whole delta (and change nothing) when any line is bad. */
  strict?: boolean;
  /** How many bad lines to keep in the report (all are counted). Default 1000. */
  maxIssues?: number;
  /** Clock for `as_of` when the manifest has none, and for the new events' `ingested_at`. */
  now?: () => number;
  /**
   * Threads the delta's records are prepared on, this one included, as for a load (default: the cores
   * available). A file under 1 MiB is prepared on this thread.
   */
  threads?: number;
}

/** One file of the delta: lines read, applied, refused. */
export interface DeltaStreamReport {
  stream: StreamName | 'deletions';
  file: string;
  read: number;
  /** Lines that changed the data (a deletion of an id not stored counts in `missing` instead). */
  applied: number;
  invalid: number;
  duplicates: number;
  /** Deletions only: ids that were not stored. */
  missing: number;
}

/** Rows of one stream the delta changed. */
export interface DeltaRows {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface DeltaReport {
  /** The id of the snapshot the delta made (its own, not the base's). */
  snapshotId: string;
  baseSnapshotId: string;
  asOf: string;
  files: DeltaStreamReport[];
  rows: Record<StreamName, DeltaRows>;
  /** Stored prospects whose company columns were derived again because their business changed. */
  refreshedProspects: number;
  /** The first `maxIssues` bad lines; `issueCount` counts them all. */
  issues: LoadIssue[];
  issueCount: number;
  elapsedMs: number;
}
