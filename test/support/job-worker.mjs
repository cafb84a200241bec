/**
 * Job-test support, as a process of its own
 * (`node test/support/job-worker.mjs <snapshot> <state> <batchSize> <delayMs> <leaseMs>`): opens an
 * engine on the snapshot file and the state store (a SQLite file or a PostgreSQL URL), runs the job
 * worker and prints `cursor <n>` after each batch it commits, then `idle` once no job is left, unless
 * killed first.
 *
 * Plain JavaScript over the BUILT package (`dist/`, built by the project's global setup when stale,
 * `global-build.ts`), as the CLI tests start it (`built-cli.ts`): a process started with
 * `--import tsx` over `src/` cost ≈3 s of CPU before it ran, ≈1.4 s from `dist/`.
 */
import { openEngine } from '../../dist/engine.js';
import { startJobWorker } from '../../dist/jobs/worker.js';

/** The clock of the job tests (`job-child.ts`'s `NOW`). */
const NOW = Date.parse('2026-11-01T12:00:00Z');

const [snapshot, state, batchSize = '100', delayMs = '0', leaseMs = '1000'] = process.argv.slice(2);
const engine = openEngine({ path: snapshot, state, clock: () => NOW, jobs: { worker: false } });
await engine.state.ready();
const pause = new Int32Array(new SharedArrayBuffer(4));
const worker = startJobWorker(engine, {
  batchSize: Number(batchSize),
  pollMs: 50,
  leaseMs: Number(leaseMs),
  onBatch(job) {
    process.stdout.write(`cursor ${job.cursor}\n`);
    // Slows the run so the parent can kill it mid-job.
    if (Number(delayMs) > 0) Atomics.wait(pause, 0, 0, Number(delayMs));
  },
});
await worker.idle();
await worker.stop();
engine.close();
process.stdout.write('idle\n');
