/** What a load takes (options) and gives back (its report, its progress events, its bad lines). */
import type { StreamName } from '../snapshot/files.js';

export interface LoadIssue {
  file: string;
  line: number;
  reason: string;
}

export interface StreamReport {
  stream: StreamName;
  file: string;
  read: number;
  loaded: number;
  invalid: number;
  duplicates: number;
}

export interface LoadReport {
  snapshotId: string;
  asOf: string;
  streams: StreamReport[];
  /** The first `maxIssues` bad lines; `issueCount` counts them all. */
  issues: LoadIssue[];
  issueCount: number;
  elapsedMs: number;
}

export interface LoadProgress {
  stream: StreamName;
  rows: number;
  bytesRead: number;
  bytesTotal: number;
}

export interface LoadOptions {
  /** Refuse the whole snapshot (and change nothing) when any line is bad. */
  strict?: boolean;
  /** How many bad lines to keep in the report (all are counted). Default 1000. */
  maxIssues?: number;
  onProgress?: (p: LoadProgress) => void;
  /** Clock for `as_of` when the manifest has none. */
  now?: () => number;
  /**
   * Worker threads that parse, validate and encode rows while this thread inserts them (JSON Lines
   * streams of at least 1 MiB; MessagePack streams and small files stay on this thread). 0 turns them
   * off. Default: the cores available (`os.availableParallelism()`); see `bench/load.bench.ts`.
   */
  threads?: number;
}
