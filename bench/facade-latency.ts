/**
 * Fetch latency through the facade (`bench/facade.bench.ts --prospects N`): page 1 of 100 full prospect
 * records with `total_results`, the whole request (`handle`: route, key lookup, rate-limit hit,
 * validation, the core fetch, the credit charge transaction on a state file of its own) beside the core
 * call alone and each state-store step alone (key lookup, rate-limit upsert, charge; on a third engine
 * and state file, checkpointing in the commit; the charge also on a fourth, with the worker), interleaved
 * request by request so every figure sees the same machine. Two engines over the same snapshot, each
 * with its own state file: WAL checkpoints on the worker thread (the default) and the baseline, SQLite
 * checkpointing inside the commit that fills the WAL (`PROSPECTDB_STATE_CHECKPOINT=commit`, as before).
 *
 * Where the tail comes from: garbage-collection pauses are recorded (`PerformanceObserver`) and matched
 * against the slowest requests, and each request's process CPU time is taken beside its wall time (a
 * slow request that used little CPU was descheduled: the box is shared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { authenticate, createAccount } from '../src/account/accounts.js';
import { applyCharges } from '../src/account/credits.js';
import { createRateLimiter } from '../src/account/ratelimit.js';
import { fetchProspects } from '../src/core/fetch.js';
import { openEngine, type Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { prospectIndex } from '../src/indexes/prospects.js';
import { ProspectsFetchRequestV1 } from '../src/schemas/search.js';
import { CHECKPOINT_ENV } from '../src/state/checkpointer.js';
import { searchDatabase } from './search-db.js';
import { FETCH_FILTERS } from './sample-requests.js';

export interface LatencyOptions {
  prospects: number;
  requests: number;
  db?: string;
}

/** Filters of page-1 fetches, cycled. */
const FILTERS = FETCH_FILTERS;

function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), p999: at(0.999), max: s[s.length - 1]! };
}

type Span = [number, number];

interface Series {
  wall: number[];
  cpu: number[];
  spans: Span[];
}
const series = (): Series => ({ wall: [], cpu: [], spans: [] });

/** Times `fn` (wall and process CPU), into `s`. */
async function timed(s: Series, fn: () => unknown): Promise<void> {
  const c = process.cpuUsage();
  const t = performance.now();
  await fn();
  const end = performance.now();
  const d = process.cpuUsage(c);
  s.wall.push(end - t);
  s.cpu.push((d.user + d.system) / 1000);
  s.spans.push([t, end]);
}

export async function fetchLatency(o: LatencyOptions): Promise<void> {
  const file = await searchDatabase(o.prospects, { db: o.db, log: (l) => console.error(l) });
  const dir = mkdtempSync(join(tmpdir(), 'prospectdb-facade-latency-'));
  const open = (name: string, checkpoint: 'worker' | 'commit'): Engine => {
    if (checkpoint === 'commit') process.env[CHECKPOINT_ENV] = 'commit';
    try {
      return openEngine({
        path: file,
        readonly: true,
        state: join(dir, `${name}.state.db`),
        rateLimit: { perMinute: 1e9 },
        jobs: { worker: false },
        webhooks: { worker: false },
      } as never);
    } finally {
      delete process.env[CHECKPOINT_ENV];
    }
  };
  // The steps timed alone run on a third engine (its charges would otherwise fill one side's WAL).
  const engines = {
    after: open('after', 'worker'),
    before: open('before', 'commit'),
    steps: open('steps', 'commit'),
    stepsWorker: open('steps-worker', 'worker'),
  };
  try {
    const t0 = performance.now();
    prospectIndex(engines.after);
    prospectIndex(engines.before);
    prospectIndex(engines.steps);
    prospectIndex(engines.stepsWorker);
    console.error(`indexes ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const keys = {
      after: (await createAccount(engines.after, { name: 'bench', credits: 1e12 })).api_key,
      before: (await createAccount(engines.before, { name: 'bench', credits: 1e12 })).api_key,
      steps: (await createAccount(engines.steps, { name: 'bench', credits: 1e12 })).api_key,
      stepsWorker: (await createAccount(engines.stepsWorker, { name: 'bench', credits: 1e12 })).api_key,
    };
    const workerCaller = await authenticate(engines.stepsWorker, keys.stepsWorker);
    if (!workerCaller.ok) throw new Error('bench account does not authenticate');
    const engine = engines.steps;
    const caller = await authenticate(engine, keys.steps);
    if (!caller.ok) throw new Error('bench account does not authenticate');
    const limiter = createRateLimiter(engine.state, 1e9);
    const bodies = FILTERS.map((filters) => ({ mode: 'full', page_size: 100, page: 1, filters }));
    const texts = bodies.map((b) => JSON.stringify(b));
    const parsed = bodies.map((b) => ProspectsFetchRequestV1.parse(b));
    const request = (which: 'after' | 'before', k: number) =>
      handle(engines[which], {
        method: 'POST',
        path: '/v1/prospects',
        headers: { api_key: keys[which] },
        body: texts[k]!,
      });
    for (let k = 0; k < texts.length; k++) {
      for (const which of ['after', 'before'] as const) {
        const r = await request(which, k);
        if (r.status !== 200) throw new Error(`request ${k}: status ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    // Warm-up: JIT, statement caches, the page cache.
    for (let i = 0; i < 200; i++) {
      const k = i % texts.length;
      fetchProspects(engine, parsed[k]!, 1);
      await request('after', k);
      await request('before', k);
    }

    const gcs: { start: number; end: number; kind: number }[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
        gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind });
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    global.gc?.();

    const steps = {
      'facade (worker checkpoints)': series(),
      'facade before (checkpoint in the commit)': series(),
      'core fetchProspects alone': series(),
      'key lookup alone': series(),
      'rate-limit upsert alone': series(),
      'charge transaction alone (checkpoint in the commit)': series(),
      'JSON.parse + zod body alone': series(),
      'charge transaction alone (worker checkpoints)': series(),
    };
    const s = Object.values(steps);
    const scope = {
      account: caller.account,
      keyId: caller.keyId,
      endpoint: '/v1/prospects',
      correlationId: 'x',
    };
    const workerScope = { ...scope, account: workerCaller.account, keyId: workerCaller.keyId };
    for (let i = 0; i < o.requests; i++) {
      const k = i % texts.length;
      // Alternate which facade goes first, so neither always follows the other's garbage.
      const order = i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
      for (const j of order) await timed(s[j]!, () => request(j === 0 ? 'after' : 'before', k));
      await timed(s[2]!, () => fetchProspects(engine, parsed[k]!, 1));
      await timed(s[3]!, () => authenticate(engine, keys.steps));
      await timed(s[4]!, () => limiter.take('bench-alone', Date.now()));
      await timed(s[5]!, () => applyCharges(engine, scope, [{ operation: 'fetch', units: 100 }]));
      await timed(s[6]!, () => ProspectsFetchRequestV1.parse(JSON.parse(texts[k]!)));
      await timed(s[7]!, () =>
        applyCharges(engines.stepsWorker, workerScope, [{ operation: 'fetch', units: 100 }]),
      );
    }
    // GC entries are delivered asynchronously: let them arrive before disconnecting.
    await new Promise((r) => setTimeout(r, 100));
    observer.disconnect();

    const gcMs = ([a, b]: Span) =>
      gcs.reduce((n, g) => n + Math.max(0, Math.min(b, g.end) - Math.max(a, g.start)), 0);
    const table = Object.entries(steps).map(([step, x]) => {
      const p = percentiles(x.wall);
      const c = percentiles(x.cpu);
      // The slowest 1 %: how many met a GC pause, and how much of their time GC took.
      const slow = x.spans.filter(([a, b]) => b - a >= p.p99);
      const gc = slow.reduce((n, sp) => n + gcMs(sp), 0);
      const total = slow.reduce((n, [a, b]) => n + b - a, 0);
      return {
        step,
        'p50 ms': p.p50.toFixed(3),
        'p90 ms': p.p90.toFixed(3),
        'p99 ms': p.p99.toFixed(3),
        'max ms': p.max.toFixed(2),
        'CPU p50 / p99 / p99.9 / max ms': [c.p50, c.p99, c.p999, c.max].map((v) => v.toFixed(2)).join(' / '),
        'over 5 ms': x.wall.filter((v) => v > 5).length,
        'slowest 1 %: met a GC, GC share': `${slow.filter((sp) => gcMs(sp) > 0).length}/${slow.length}, ${((100 * gc) / total).toFixed(0)}%`,
      };
    });
    console.log(
      `fetch page 1 (100 full records + total), ${engine.info().counts.prospects} prospects, ${o.requests} ` +
        `requests cycling ${FILTERS.length} filter sets`,
    );
    console.table(table);
    const f = steps['facade (worker checkpoints)'].wall;
    const b = steps['facade before (checkpoint in the commit)'].wall;
    console.log(
      `facade p99 after / before: ${(percentiles(f).p99 / percentiles(b).p99).toFixed(2)}×; ` +
        `p50 ${(percentiles(f).p50 / percentiles(b).p50).toFixed(2)}×`,
    );
    const byKind = new Map<number, number[]>();
    for (const g of gcs) byKind.set(g.kind, [...(byKind.get(g.kind) ?? []), g.end - g.start]);
    console.log(
      `GC: ${gcs.length} pauses in the run; by kind (1 scavenge, 2 mark-compact, 4 incremental marking, ` +
        `8 weak callbacks): ` +
        [...byKind]
          .map(([k, xs]) => {
            const p = percentiles(xs);
            return `${k}: ${xs.length} × p50 ${p.p50.toFixed(2)} ms, max ${p.max.toFixed(2)} ms`;
          })
          .join('; '),
    );
  } finally {
    engines.after.close();
    engines.before.close();
    engines.steps.close();
    engines.stepsWorker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
