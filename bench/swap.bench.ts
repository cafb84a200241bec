/**
 * A snapshot swap under load (no downtime): requests/s, p50/p99 and max latency of a
 * stream of concurrent facade requests (`engine.handle`, 8 in flight) over a fixed time, without a swap
 * (the baseline) and with `engine.swapSnapshot` in the middle, in the same run, alternating; failures
 * are counted (any status but 200). The new snapshot's indexes are built on the same thread while the
 * requests run, one index at a time between requests: the max latency (counted from a request's
 * arrival) shows what the longest build step costs a request waiting behind it.
 * Requests are free (stats, autocomplete) under a preset caller, so the figure is the snapshot's alone.
 *
 *   node --import tsx bench/swap.bench.ts [--seconds 4] [--rounds 2]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIndexes, warmEngine } from '../src/core/warm.js';
import { openEngine, type Engine, type SwapReport } from '../src/engine.js';
import type { Account, FacadeRequest } from '../src/facade/types.js';
import { settleSnapshotFile } from '../src/store/open.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '4' }, rounds: { type: 'string', default: '2' } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const CONCURRENCY = 8;
const DEMO = fileURLToPath(new URL('../fixtures/demo', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'pdb-swap-bench-'));
/** Two snapshot files of the demo, built as `prospectdb load` builds them. */
async function build(name: string): Promise<string> {
  const path = join(dir, name);
  const e = openEngine({ path });
  await e.load(DEMO);
  buildIndexes(e);
  await e.state.close();
  e.close();
  settleSnapshotFile(path);
  return path;
}
const files = [await build('a.db'), await build('b.db')];

const caller: Account = {
  account_id: 'acc_bench',
  partner_id: 'bench',
  name: 'bench',
  account_type: 'paid',
  entitlements: ['*'],
};
const REQUESTS: FacadeRequest[] = [
  { method: 'POST', path: '/v1/businesses/stats', headers: {}, body: { filters: {} } },
  {
    method: 'POST',
    path: '/v1/prospects/stats',
    headers: {},
    body: { filters: { job_level: { values: ['director'] } } },
  },
  { method: 'GET', path: '/v2/autocomplete?field=job_title&query=eng', headers: {} },
];

interface Phase {
  requests: number;
  failures: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  swap?: SwapReport;
}

/**
 * Runs the request stream for `seconds`; with `swapTo`, swaps a third of the way in and runs on
 * until a third of `seconds` after the switch (however long the new snapshot takes to warm).
 */
async function phase(engine: Engine, swapTo?: string): Promise<Phase> {
  const latencies: number[] = [];
  let failures = 0;
  let n = 0;
  const started = performance.now();
  let end = started + seconds * 1000;
  let swap: Promise<SwapReport> | undefined;
  let switched = !swapTo;
  const worker = async () => {
    while (performance.now() < end || !switched) {
      if (swapTo && !swap && performance.now() > started + (seconds * 1000) / 3) {
        swap = engine.swapSnapshot(swapTo);
        void swap.then(() => {
          switched = true;
          end = Math.max(end, performance.now() + (seconds * 1000) / 3);
        });
      }
      // Requests arrive from the event loop, one a turn, as from sockets (http/server.ts starts one
      // API request per turn): without it in-process requests would run back to back on microtasks.
      // Latency counts from the arrival, so a turn held by an index build shows in it.
      const t = performance.now();
      await new Promise((resolve) => setImmediate(resolve));
      const res = await engine.handle(REQUESTS[n++ % REQUESTS.length]!, {
        account: caller,
        keyId: 'key_bench',
      });
      latencies.push(performance.now() - t);
      if (res.status !== 200) failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    requests: latencies.length,
    failures,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1]!,
    swap: swap ? await swap : undefined,
  };
}

const engine = openEngine({ path: files[0], rateLimit: false } as never);
// Warm the first snapshot as `serve` does before it listens, and the JIT, outside the timers.
await warmEngine(engine);
for (let i = 0; i < 200; i++) await engine.handle(REQUESTS[i % REQUESTS.length]!, { account: caller });

const fmt = (p: Phase) =>
  `${p.perSecond.toFixed(0).padStart(6)} req/s  p50 ${p.p50.toFixed(2)} ms  p99 ${p.p99.toFixed(2)} ms  ` +
  `max ${p.max.toFixed(1).padStart(6)} ms  ${p.requests} requests, ${p.failures} failed`;
let total = { base: 0, swap: 0, failures: 0 };
let next = 1;
for (let r = 0; r < rounds; r++) {
  const base = await phase(engine);
  const swapped = await phase(engine, files[next]);
  next = 1 - next;
  total = {
    base: total.base + base.perSecond,
    swap: total.swap + swapped.perSecond,
    failures: total.failures + base.failures + swapped.failures,
  };
  const [step, stepMs] = Object.entries(swapped.swap!.warmMs).sort((a, b) => b[1] - a[1])[0]!;
  console.log(`round ${r + 1}`);
  console.log(`  no swap    ${fmt(base)}`);
  console.log(`  with swap  ${fmt(swapped)}`);
  console.log(
    `  swap: ${swapped.swap!.elapsedMs.toFixed(0)} ms open + warm (longest step ${step} ${stepMs.toFixed(0)} ms), ` +
      `${swapped.swap!.previous.inFlight} request(s) in flight on the old snapshot at the switch`,
  );
}
console.log(
  `requests/s with a swap / without: ${(total.swap / total.base).toFixed(3)}; failed requests: ${total.failures}`,
);
engine.close();
rmSync(dir, { recursive: true, force: true });
