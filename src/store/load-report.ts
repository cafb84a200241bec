/** What a load takes (options) and gives back (its report, its progress events, its bad lines). */
import type { StreamName } from '../snapshot/files.js';
import type { Prepared } from './load-worker.js';

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

/**
 * Takes a file's prepared lines in order, counting them in `counts`: a refused line and a repeated id
 * are counted and reported (a repeat with the line of the id's first use) and give `undefined`; any
 * other line gives its prepared row. A load and a delta report bad lines in the same words.
 */
export function lineChecker(
  file: string,
  counts: { read: number; invalid: number; duplicates: number },
  report: (issue: LoadIssue) => void,
): (line: number, item: Prepared) => Exclude<Prepared, string> | undefined {
  const seen = new Map<string, number>();
  return (line, item) => {
    counts.read++;
    if (typeof item === 'string') {
      counts.invalid++;
      report({ file, line, reason: item });
      return undefined;
    }
    const id = item.values[0] as string;
    const first = seen.get(id);
    if (first !== undefined) {
      counts.duplicates++;
      report({ file, line, reason: `duplicate id ${id} (first at line ${first})` });
      return undefined;
    }
    seen.set(id, line);
    return item;
  };
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
   * The threads that do the work, this one included. 1: everything on this thread. N ≥ 2: N - 1 worker
   * threads parse, validate and encode the lines of JSON Lines streams of at least 1 MiB while this
   * thread inserts the rows (and prepares a batch itself whenever every worker is busy); MessagePack
   * streams and smaller files load on this thread. 0 is read as 1. Default: the cores available
   * (`os.availableParallelism()`), or 1 for input under 64 MiB (gzipped files counted at six times
   * their size), where starting a worker costs more than it saves. `buildIndexesThreaded` takes the same count; see
   * `bench/load.bench.ts`.
   */
  threads?: number;
}
