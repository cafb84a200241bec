/** Test support: an in-memory engine over a small snapshot written from records (strictly validated). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../src/engine.js';

export interface SnapshotRecords {
  businesses?: readonly object[];
  prospects?: readonly object[];
}

/**
 * Writes the records as a snapshot folder (JSON Lines + manifest) and loads it into a new engine, on
 * this thread (as `DEMO_LOAD` in `demo.ts`): a stream file of 1 MiB or more (600 generated prospects)
 * otherwise starts a worker that loads tsx and the loader's modules, ≈1.5 s of CPU per load, several
 * times what the load itself costs. `load.test.ts` checks that threaded loads make the same rows.
 */
export async function engineOf(records: SnapshotRecords): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'pdb-snapshot-'));
  for (const [stream, rows] of Object.entries(records) as [string, readonly object[] | undefined][]) {
    if (rows)
      writeFileSync(join(dir, `${stream}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
  );
  try {
    const engine = openEngine();
    await engine.load(dir, { strict: true, threads: 0 });
    return engine;
  } finally {
    // The engine keeps the records in its own database: the folder is not needed after the load.
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Business i's id: 32 hex digits. */
export const businessId = (i: number) => i.toString(16).padStart(32, '0');

/** Minimal valid business records from `[name, country]` pairs, ids from {@link businessId}. */
export function namedBusinesses(names: readonly (readonly [string, string])[]): object[] {
  return names.map(([name, country], i) => ({
    business_id: businessId(i),
    name,
    country_code: country,
    number_of_employees_range: '11-50',
    is_public_company: false,
  }));
}
