/** `prospectdb load --db FILE [--strict] SNAPSHOT_DIR`: loads a snapshot and prints its report. */
import { parseArgs } from 'node:util';
import { openEngine } from '../../engine.js';
import { buildIndexesThreaded } from '../../core/warm.js';
import { progress } from '../progress.js';
import { settleSnapshotFile } from '../../store/open.js';

const HELP = `usage: prospectdb load --db FILE [--strict] [--json] [--threads N] SNAPSHOT_DIR

Loads the snapshot folder (manifest.json, businesses|prospects|events as .jsonl, .jsonl.gz or .msgpack)
into FILE, replacing the streams it holds. Bad lines are reported and skipped; --strict refuses the
whole snapshot instead and leaves FILE unchanged. Then builds every index (search and match) and saves
them in FILE, so every later process answers its first query at once. --threads N: the threads that
do the work, this one included (default: the cores available). 1 does everything on one thread; with
N ≥ 2, N - 1 worker threads parse, validate and encode lines while this thread writes them (and takes a
batch itself when the workers are busy), then the indexes are built on N threads at once.`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      strict: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      threads: { type: 'string' },
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
