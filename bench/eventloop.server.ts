/**
 * Child process of `eventloop.bench.ts`: serves a database with the code of the tree at `--root` (this
 * one, or a clone of main for the baseline) and measures its own event loop. Prints `{ port, apiKey }`
 * as one JSON line once listening; answers the parent's `report` message with the event-loop delay
 * histogram (ms) and exits.
 */
import { existsSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { root: { type: 'string' }, db: { type: 'string' } } });
const root = pathToFileURL(`${values.root!}/`);
type Fn = (...args: unknown[]) => unknown;
const load = async (path: string, name: string) =>
  ((await import(new URL(path, root).href)) as Record<string, unknown>)[name] as Fn;
const openEngine = await load('src/engine.ts', 'openEngine');
// The serve module moved from http/server.ts to serve.ts, then to serve/index.ts; a baseline tree may
// be older.
const servePath =
  ['src/serve/index.ts', 'src/serve.ts'].find((p) => existsSync(new URL(p, root))) ?? 'src/http/server.ts';
const serve = await load(servePath, 'serve');
const createAccount = await load('src/account/accounts.ts', 'createAccount');

const engine = openEngine({ path: values.db!, rateLimit: false }) as { close(): void };
const { api_key } = (await createAccount(engine, { name: 'bench', credits: 1e12, entitlements: ['*'] })) as {
  api_key: string;
};
const started = performance.now();
// Main's `serve` has no warm-up and ignores `onWarm`: `warmed` stays 0 there.
let warmed = 0;
const onWarm = (took: Record<string, number>) => (warmed = Object.values(took).reduce((a, b) => a + b, 0));
const server = (await serve(engine, { port: 0, mcp: false, onWarm })) as {
  port: number;
  close(): Promise<void>;
};
const listenMs = performance.now() - started;
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
// Garbage-collection pauses are part of the delay; reported beside it.
let gcMax = 0;
let gcTotal = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMax = Math.max(gcMax, e.duration);
    gcTotal += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
process.stdout.write(`${JSON.stringify({ port: server.port, apiKey: api_key, listenMs, warmed })}\n`);

process.on('message', (message) => {
  if (message !== 'report') return;
  histogram.disable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.send!(
    {
      max: ms(histogram.max),
      p99: ms(histogram.percentile(99)),
      p50: ms(histogram.percentile(50)),
      mean: ms(histogram.mean),
      gcMax: Math.round(gcMax * 100) / 100,
      gcTotal: Math.round(gcTotal),
    },
    () => {
      void server.close().then(() => {
        engine.close();
        process.exit(0);
      });
    },
  );
});
