/**
 * Builds (or reads back) the in-memory indexes ahead of the first query. In core, not in indexes/: it
 * warms what the operations build on first use too (stats tabs, completion indexes, the schema compiler).
 */
import type { Worker } from 'node:worker_threads';
import { businessIndex } from '../indexes/businesses.js';
import { businessEventIndex } from '../indexes/events.js';
import { businessInitialsIndex, businessMatchIndex, businessNameIndex } from '../indexes/match/businesses.js';
import { otherNameIndex, otherNameTokens } from '../indexes/match/other-names.js';
import { prospectMatchIndex } from '../indexes/match/prospects.js';
import { buildingIndexes, dropStaleIndexes, saveIndexBytes } from '../indexes/persist.js';
import { prospectIndex } from '../indexes/prospects.js';
import type { Context } from '../runtime/context.js';
import { AUTOCOMPLETE_FIELDS } from '../schemas/enums.js';
import { getMeta } from '../store/open.js';
import { countStatements } from '../store/sql/meta.js';
import { completionIndex } from './autocomplete.js';
import { cursorScope, encodeCursor } from './cursor.js';
import { INDEX_STEPS, INDEX_WORKER_TAG, lanesFor } from './index-lanes.js';
import type { IndexJob, IndexWorkerMessage } from './index-worker.js';
import { compileOutputSchema } from './research/schema.js';
import { businessStats, prospectStats } from './stats.js';

/**
 * Builds every saved index of the engine's current data (search, match and autocomplete, businesses and
 * prospects) on this thread and, on a writable file, saves them in it (see `indexes/persist.ts`), so
 * that every later process starts answering at once. Returns the milliseconds it took.
 * {@link buildIndexesThreaded} spreads the same work over threads.
 * @example await engine.load('snapshot/'); buildIndexes(engine);
 */
export function buildIndexes(engine: Context): number {
  const started = performance.now();
  buildingIndexes(engine, () => {
    for (const step of lanesFor(1)[0]!) INDEX_STEPS[step]!(engine);
  });
  cursorSecret(engine);
  dropStaleIndexes(engine);
  return performance.now() - started;
}

/**
 * {@link buildIndexes} on `threads` threads (default: the cores available, or 1 below 30,000 businesses
 * and prospects, where starting workers costs more than they save; 1 builds everything on this
 * thread): this thread builds the costliest lane of indexes (`index-lanes.ts`) while workers build the
 * others on read-only connections to the file and send their saved bytes back; this thread saves them.
 * The file ends up with the same saved indexes, byte for byte. Indexes a worker built are not kept in
 * this engine's memory: they are read from the file on first use (as any later process does). An
 * in-memory or read-only engine, or a worker that fails, builds on this thread. Resolves with the
 * milliseconds it took. `prospectdb load` and `prospectdb index` run it.
 * @example await engine.load('snapshot/'); await buildIndexesThreaded(engine, { threads: 2 });
 */
export async function buildIndexesThreaded(
  engine: Context,
  options: { threads?: number } = {},
): Promise<number> {
  // The loader's thread helpers are imported here: importing the package (or building on this thread
  // alone) never loads the loader.
  const [
    { AUTO_THREADS_MIN_ROWS, loadThreads },
    { handOffProspectKeys, takeProspectKeys },
    { workerSpawner },
  ] = await Promise.all([
    import('../store/load.js'),
    import('../store/load-keys.js'),
    import('../store/load-pool.js'),
  ]);
  const threads = loadThreads(options.threads, () => indexedRows(engine), AUTO_THREADS_MIN_ROWS);
  const spawn =
    threads > 1 && engine.path !== ':memory:' && !engine.settings.readonly
      ? workerSpawner(import.meta.url, 'index-worker', { tag: INDEX_WORKER_TAG })
      : undefined;
  if (!spawn) return buildIndexes(engine);
  const started = performance.now();
  const [own, ...others] = lanesFor(threads);
  // The prospect keys the load handed off go to the lane that builds the prospect match index.
  const hash = getMeta(engine.db, 'hash_prospects');
  const keyLane = others.findIndex((lane) => lane.includes('match.prospects'));
  const keys = keyLane >= 0 && hash !== undefined ? takeProspectKeys(engine.db, hash) : undefined;
  // A worker's index is saved as soon as this thread is free to take it, while the worker builds its
  // next ones (after a 1 % delta at 1M prospects this thread finished its lane first, then saved the
  // worker's 0.75 s of bytes after the worker's last index: now most of that overlaps the worker).
  const save = (m: { name: string; stamp: string; bytes: Uint8Array }) =>
    saveIndexBytes(engine.db, m.name, m.stamp, m.bytes);
  const lanes = others.map((steps, i) =>
    runLane(
      spawn,
      {
        path: engine.path,
        steps,
        keys: i === keyLane && keys && hash !== undefined ? { hash, keys } : undefined,
      },
      save,
    ),
  );
  buildingIndexes(engine, () => {
    for (const step of own!) INDEX_STEPS[step]!(engine);
  });
  for (const [i, lane] of lanes.entries()) {
    const outcome = await lane;
    if (outcome.ok) continue;
    // The worker failed: this thread builds its lane (with the keys it was given back).
    if (i === keyLane && keys && hash !== undefined) handOffProspectKeys(engine.db, hash, keys);
    buildingIndexes(engine, () => {
      for (const step of others[i]!) INDEX_STEPS[step]!(engine);
    });
  }
  cursorSecret(engine);
  dropStaleIndexes(engine);
  return performance.now() - started;
}

/** Businesses and prospects: what decides whether an index build's default threads repay their start. */
function indexedRows(engine: Context): number {
  const counts = countStatements(engine.db);
  return (counts.businesses.get() as number) + (counts.prospects.get() as number);
}

/** How a lane built by a worker ended: each index it sent was handed to `onIndex`, or the reason it failed. */
type LaneOutcome = { ok: true } | { ok: false; reason: string };

/** Runs `job` on a new worker, handing each index it sends to `onIndex` (on this thread) as it comes. */
function runLane(
  spawn: () => Worker,
  job: IndexJob,
  onIndex: (m: { name: string; stamp: string; bytes: Uint8Array }) => void,
): Promise<LaneOutcome> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = spawn();
    } catch (e) {
      resolve({ ok: false, reason: (e as Error).message });
      return;
    }
    const end = (outcome: LaneOutcome) => {
      worker.removeAllListeners('message');
      resolve(outcome);
      void worker.terminate();
    };
    worker.on('message', (m: IndexWorkerMessage) => {
      if (m.type === 'index') {
        try {
          onIndex(m);
        } catch (e) {
          end({ ok: false, reason: (e as Error).message });
        }
      } else if (m.type === 'done') end({ ok: true });
      else end({ ok: false, reason: m.message });
    });
    worker.once('error', (e) => end({ ok: false, reason: e.message }));
    worker.once('exit', (code) => end({ ok: false, reason: `index worker exited (${code})` }));
    worker.postMessage(job);
  });
}

/**
 * Makes the file's cursor secret now (kept in the file when it is writable) rather than at the first
 * cursor: every copy of a loaded file, and every worker of `serve --workers` (the first one warms
 * alone), then signs with the same secret and accepts the others' cursors.
 */
const cursorSecret = (engine: Context) => encodeCursor(engine, cursorScope('business', 2, 'full', {}), 0);

/** One step of {@link warmEngine}: a name (for timings) and the index it builds. */
const WARM_STEPS: readonly (readonly [string, (engine: Context) => unknown])[] = [
  ['search.businessIndex', businessIndex],
  ['search.prospectIndex', prospectIndex],
  ['search.businessEvents', businessEventIndex],
  ['search.cursorSecret', cursorSecret],
  ['match.businesses', businessMatchIndex],
  ['match.businesses.tokens', businessNameIndex],
  ['match.businesses.initials', businessInitialsIndex],
  ['match.businesses.otherNames', otherNameIndex],
  ['match.businesses.otherNames.tokens', otherNameTokens],
  ['match.prospects', prospectMatchIndex],
  // The stats of every row build the cross-tabs and code lists every later stats request reads.
  ['stats.businesses', (e) => businessStats(e, { filters: null })],
  ['stats.prospects', (e) => prospectStats(e, { filters: null })],
  // The schema compiler's first compile costs ~100 ms more than the next ones (first research request).
  [
    'research.schemaCompiler',
    () =>
      compileOutputSchema({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
  ],
  ...AUTOCOMPLETE_FIELDS.map(
    (field) => [`autocomplete.${field}`, (e: Context) => completionIndex(e, field)] as const,
  ),
];

/**
 * Builds every index a request would otherwise build on first use (search, match, stats, events,
 * autocomplete, the research schema compiler), so that no request pays for one: `serve` runs it before
 * it listens. Resolves with the milliseconds each step took; between steps it yields to the event loop,
 * so a server already answering (a re-warm after a data change) keeps answering between them.
 */
export async function warmEngine(engine: Context): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  for (const [name, step] of WARM_STEPS) {
    if (engine.closed) break;
    const started = performance.now();
    step(engine);
    took[name] = Math.round((performance.now() - started) * 10) / 10;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return took;
}
