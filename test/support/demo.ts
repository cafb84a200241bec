/** Test support: an engine over the committed demo snapshot, with a fixed clock. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { openEngine, type Engine, type EngineOptions } from '../../src/engine.js';
import { readBatches } from '../../src/snapshot/read.js';
import type { Json, Synthetic } from '../search.oracle.js';

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

/** A fresh in-memory engine with the demo snapshot loaded (≈2 s of CPU). */
export async function demoEngine(options: EngineOptions = {}): Promise<Engine> {
  const engine = openEngine({ clock: () => DEMO_NOW, ...options });
  await engine.load(DEMO_DIR, DEMO_LOAD);
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
