/** Test support: an engine over the committed demo snapshot, with a fixed clock. */
import { closeSync, copyFileSync, existsSync, openSync, renameSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { openEngine, type Engine, type EngineOptions } from '../../src/engine.js';
import { loadedInProcess } from '../../src/indexes/persist.js';
import { readBatches } from '../../src/snapshot/read.js';
import type { Json, Synthetic } from '../search.oracle.js';
import { DEMO_CACHE_PREFIX } from './temp.js';

export const DEMO_DIR = fileURLToPath(new URL('../../fixtures/demo', import.meta.url));
/** The demo snapshot's `as_of`. */
export const DEMO_AS_OF = '2026-11-01T00:00:00Z';
/** Default clock of demo engines: noon on the day after `as_of`. */
export const DEMO_NOW = Date.parse('2026-11-01T12:00:00Z');

/**
 * Load options of the tests' demo engines: on this thread. Loading on worker threads makes the same rows
 * (`load.test.ts` checks that), but each worker first loads the loader's modules (under tsx, compiled
 * TypeScript): for the demo's 15,000 records that cost about 4 s more CPU per load than it saved.
 */
export const DEMO_LOAD = { strict: true, threads: 0 } as const;

/**
 * The demo snapshot loaded once per test run, kept as a file in the run's demo folder (the config's
 * `PROSPECTDB_DEMO_CACHE`, removed at the end of the run): loading the demo took ≈2.5 s of CPU in each
 * of about thirty files, and then once per project (three loads, each holding a worker idle while the
 * other loaded it, as each project started).
 * The workers of every project share it: the first to need it loads it (holding a lock file), the others wait
 * for the finished file to appear (a rename, so it is whole when seen). A worker that finds a stale lock
 * (its loader died) after two minutes loads a copy of its own.
 */
let loadedDemo: Promise<string> | undefined;
const loadDemoOnce = () =>
  (loadedDemo ??= (async () => {
    const dir = process.env.PROSPECTDB_DEMO_CACHE;
    if (!dir) throw new Error('the vitest config sets no PROSPECTDB_DEMO_CACHE');
    const shared = join(dir, `${DEMO_CACHE_PREFIX}shared.db`);
    const lock = `${shared}.lock`;
    let mine = true;
    try {
      closeSync(openSync(lock, 'wx'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      mine = false;
    }
    if (!mine) {
      for (const until = Date.now() + 120_000; Date.now() < until; await sleep(50))
        if (existsSync(shared)) return shared;
    }
    const file = join(dir, `${DEMO_CACHE_PREFIX}${process.pid}.db`);
    const engine = openEngine({ path: file, clock: () => DEMO_NOW });
    try {
      await engine.load(DEMO_DIR, DEMO_LOAD);
    } finally {
      engine.close();
    }
    if (!mine) return file;
    renameSync(file, shared);
    return shared;
  })());

/**
 * A fresh engine with the demo snapshot loaded, answering as after `engine.load(DEMO_DIR, DEMO_LOAD)`:
 * in memory, the rows (rowids kept) and meta of the worker's loaded demo copied in; given a `path` (or
 * `snapshot`), a copy of that file (no saved indexes, as after a load).
 */
export async function demoEngine(options: EngineOptions = {}): Promise<Engine> {
  const loaded = await loadDemoOnce();
  const file = options.path ?? options.snapshot;
  if (file !== undefined) copyFileSync(loaded, file);
  const engine = openEngine({ clock: () => DEMO_NOW, ...options });
  if (file !== undefined) {
    // Its data is this process's own load, as after `engine.load`: indexes build without a notice.
    loadedInProcess(engine.db);
    return engine;
  }
  const db = engine.db;
  db.prepare('ATTACH DATABASE ? AS demo').run(loaded);
  try {
    db.transaction(() => {
      for (const table of ['businesses', 'prospects', 'events']) {
        const columns = (
          db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]
        )
          .map((c) => `"${c}"`)
          .join(', ');
        db.exec(`INSERT INTO main.${table} (rowid, ${columns}) SELECT rowid, ${columns} FROM demo.${table}`);
      }
      db.exec('INSERT OR REPLACE INTO main.meta SELECT * FROM demo.meta');
    })();
  } finally {
    db.exec('DETACH DATABASE demo');
  }
  return engine;
}

/** The demo snapshot's raw records (events: those about a business), for brute-force oracles. */
export async function demoRecords(): Promise<Synthetic> {
  const records = async (name: string): Promise<Json[]> => {
    const out: Json[] = [];
    for await (const batch of readBatches(join(DEMO_DIR, `${name}.jsonl.gz`), 'jsonl.gz')) {
      for (const r of batch) if (r.error === undefined) out.push(r.value as Json);
    }
    return out;
  };
  const [businesses, prospects, events] = await Promise.all([
    records('businesses'),
    records('prospects'),
    records('events'),
  ]);
  return { dir: DEMO_DIR, businesses, prospects, events: events.filter((e) => e.business_id) };
}
