/**
 * `prospectdb load --db FILE [--strict] SNAPSHOT_DIR`: loads a snapshot and prints its report;
 * `prospectdb load --db NEW_FILE --base FILE DELTA_DIR`: makes a new file from a base file and a delta.
 */
import { parseArgs } from 'node:util';
import { openEngine } from '../../engine.js';
import { buildIndexesThreaded } from '../../core/warm.js';
import { progress } from '../progress.js';
import { settleSnapshotFile } from '../../store/open.js';
import { applyDeltaFile } from '../../api/delta.js';
import type { DeltaStreamReport } from '../../store/delta.js';

const HELP = `usage: prospectdb load --db FILE [--strict] [--json] [--threads N] SNAPSHOT_DIR
       prospectdb load --db NEW_FILE --base FILE [--strict] [--json] [--threads N] DELTA_DIR

Loads the snapshot folder (manifest.json, businesses|prospects|events as .jsonl, .jsonl.gz or .msgpack)
into FILE, replacing the streams it holds. Bad lines are reported and skipped; --strict refuses the
whole snapshot instead and leaves FILE unchanged. Then builds every index (search and match) and saves
them in FILE, so every later process answers its first query at once. --threads N: the threads that
do the work, this one included (default: the cores available, or 1 for a snapshot under 64 MiB of JSON
Lines, gzipped files counted at six times their size). 1 does everything on one thread; with
N ≥ 2, N - 1 worker threads parse, validate and encode lines while this thread writes them (and takes a
batch itself when the workers are busy), then the indexes are built on N threads at once.

With --base, DELTA_DIR is a delta (manifest "kind": "delta") of the snapshot in FILE: NEW_FILE is
written as FILE with the delta applied, its indexes built and saved, then renamed into place (ready
for serve --watch or SIGHUP). FILE is never written. Refused when FILE is not the delta's base.
--threads N works as for a load: the delta's lines are prepared on N - 1 workers, then the indexes
are built on N threads.`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      strict: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      threads: { type: 'string' },
      base: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0)) {
    console.error(
      `prospectdb load: --threads must be a whole number ≥ 0 (0 is read as 1), not ${values.threads}`,
    );
    return 2;
  }
  if (values.help || !values.db || positionals.length !== 1) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  if (values.base !== undefined)
    return delta(values.base, values.db, positionals[0]!, { ...values, threads });
  const engine = openEngine({ path: values.db });
  const bar = progress();
  try {
    const report = await engine.load(positionals[0]!, {
      strict: values.strict,
      threads,
      onProgress: (p) => bar.update(p.stream, p.rows, p.bytesRead, p.bytesTotal),
    });
    bar.finish();
    const indexMs = await buildIndexesThreaded(engine, { threads });
    if (values.json) {
      console.log(JSON.stringify(report, null, 2));
    } else {
      for (const s of report.streams) {
        console.error(
          `${s.stream}: ${s.loaded.toLocaleString('en-US')} loaded, ${s.invalid} invalid, ${s.duplicates} duplicate (${s.file})`,
        );
      }
      for (const issue of report.issues) console.error(`  ${issue.file}:${issue.line}: ${issue.reason}`);
      if (report.issueCount > report.issues.length) {
        console.error(`  … and ${report.issueCount - report.issues.length} more`);
      }
      console.error(
        `snapshot ${report.snapshotId} (as of ${report.asOf}) in ${(report.elapsedMs / 1000).toFixed(1)}s; ` +
          `search and match indexes built and saved in ${(indexMs / 1000).toFixed(1)}s`,
      );
    }
  } finally {
    bar.finish();
    // The state first (its close waits for a transaction in flight), so the file is free to settle.
    await engine.state.close();
    engine.close();
  }
  // Ready to be renamed over a file a server has open (see settleSnapshotFile).
  try {
    settleSnapshotFile(values.db);
  } catch (e) {
    console.error(`prospectdb load: ${values.db} stays in WAL mode (${(e as Error).message})`);
  }
  return 0;
}

/** `load --base`: the delta made into a new file (`applyDeltaFile`), its report printed. */
async function delta(
  base: string,
  out: string,
  dir: string,
  values: { strict: boolean; json: boolean; threads: number | undefined },
) {
  const report = await applyDeltaFile({
    base,
    delta: dir,
    out,
    strict: values.strict,
    threads: values.threads,
  });
  if (values.json) {
    console.log(JSON.stringify(report, null, 2));
    return 0;
  }
  const line = (f: DeltaStreamReport) =>
    f.stream === 'deletions'
      ? `deletions: ${f.applied} applied, ${f.missing} not stored, ${f.invalid} invalid, ${f.duplicates} duplicate (${f.file})`
      : `${f.stream}: ${f.applied} upserted, ${f.invalid} invalid, ${f.duplicates} duplicate (${f.file})`;
  for (const f of report.files) console.error(line(f));
  for (const issue of report.issues) console.error(`  ${issue.file}:${issue.line}: ${issue.reason}`);
  if (report.issueCount > report.issues.length) {
    console.error(`  … and ${report.issueCount - report.issues.length} more`);
  }
  const r = report.rows;
  const rows = (['businesses', 'prospects', 'events'] as const)
    .map((s) => `${s} +${r[s].inserted} ~${r[s].updated} -${r[s].deleted}`)
    .join(', ');
  const s = (ms: number) => (ms / 1000).toFixed(1);
  console.error(
    `snapshot ${report.snapshotId} (as of ${report.asOf}) = ${report.baseSnapshotId} + delta: ${rows}; ` +
      `${report.refreshedProspects} prospects took new company fields. ${out}: base copied (${report.copy.method}) ` +
      `in ${s(report.copy.ms)}s, delta applied in ${s(report.elapsedMs)}s, indexes built and saved in ${s(report.indexMs)}s`,
  );
  return 0;
}
