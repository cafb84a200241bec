/**
 * Scale-out test support: one engine node serving over HTTP, as a process of its own
 * (`node test/support/scaleout-node.mjs '<json>'`): the snapshot file and the state store
 * the JSON names, webhook targets on loopback allowed (the test's receiver), jobs in small batches
 * slowed by `batchDelayMs` so the test can kill the node mid-run, held by 3-second leases. Prints `listening <port>` once it
 * serves and `job <id> cursor <n>` after each committed batch; stops on SIGTERM.
 *
 * Plain JavaScript over the BUILT package (`dist/`, built by the project's global setup when stale,
 * `global-build.ts`), as the CLI tests start it (`built-cli.ts`): a node started with `--import tsx`
 * over `src/` cost ≈3 s of CPU to start, ≈1.4 s from `dist/`.
 */
import { openEngine } from '../../dist/engine.js';
import { serve } from '../../dist/serve/index.js';

/** @typedef {{ snapshot: string, state: string, port: number, batchSize: number, batchDelayMs: number }} NodeConfig */

/** @type {NodeConfig} */
const config = JSON.parse(process.argv[2] ?? '{}');
const pause = new Int32Array(new SharedArrayBuffer(4));
const engine = openEngine({
  path: config.snapshot,
  state: config.state,
  rateLimit: false,
  webhooks: { allowPrivateTargets: true },
  jobs: {
    batchSize: config.batchSize,
    pollMs: 100,
    // A short lease: a killed node's job is taken over within seconds (the default is 30 s).
    leaseMs: 3_000,
    onBatch(job) {
      process.stderr.write(`job ${job.job_id} cursor ${job.cursor}\n`);
      if (config.batchDelayMs > 0) Atomics.wait(pause, 0, 0, config.batchDelayMs);
    },
  },
});
await engine.state.ready();
const server = await serve(engine, {
  port: config.port,
  mcp: false,
  headers: { 'x-prospectdb-pid': String(process.pid) },
});
process.stderr.write(`listening ${server.port}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => engine.close());
});
