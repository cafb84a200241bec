/**
 * Webhook-test support, as a process of its own
 * (`node test/support/webhook-worker.mjs <state> <leaseMs> <snapshot>`): opens an engine on the shared
 * state `<state>`, runs its delivery worker with that lease, prints `ready <instance>`, and runs until
 * killed (the owner that dies mid-delivery).
 *
 * Plain JavaScript over the BUILT package (`dist/`, built by the project's global setup when stale,
 * `global-build.ts`), as the CLI tests start it (`built-cli.ts`): a process started with
 * `--import tsx` over `src/` cost ≈3 s of CPU before it ran, ≈1.4 s from `dist/`.
 */
import { openEngine } from '../../dist/engine.js';
import { startDeliveryWorker } from '../../dist/webhooks/deliver.js';

const [state, lease, snapshot] = process.argv.slice(2);
const engine = openEngine({
  path: snapshot,
  state,
  rateLimit: false,
  webhooks: { allowPrivateTargets: true, worker: false, leaseMs: Number(lease) },
});
await engine.state.ready();
startDeliveryWorker(engine, { timeoutMs: Number(lease) / 2 });
console.log(`ready ${engine.instance}`);
