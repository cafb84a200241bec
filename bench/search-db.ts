/**
 * Bench support: the search bench's database of `n` prospects (n / 5 businesses, n / 10 events, seed 7),
 * generated and loaded under bench/.data on first use and reused after. The file name carries the
 * schema version, so a layout change never reuses (or migrates) an old file. The export bench reads
 * the same file.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndexes } from '../src/core/warm.js';
import { openEngine } from '../src/engine.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';

export const BENCH_DATA = join(import.meta.dirname, '.data');

export interface SearchDatabaseOptions {
  /** A database to use as it is (`--db FILE`). */
  db?: string;
  /** Build and save the search indexes in the file, so readonly opens read them back. */
  saveIndexes?: boolean;
  log?: (line: string) => void;
}

export async function searchDatabase(n: number, options: SearchDatabaseOptions = {}): Promise<string> {
  if (options.db) return options.db;
  mkdirSync(BENCH_DATA, { recursive: true });
  const file = join(BENCH_DATA, `search-v${SCHEMA_VERSION}-${n}.db`);
  if (existsSync(file)) return file;
  const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
  const dir = join(BENCH_DATA, `snapshot-${n}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    const t = performance.now();
    await generateSnapshot({
      dir,
      businesses: Math.round(n / 5),
      prospects: n,
      events: Math.round(n / 10),
      seed: 7,
      format: 'jsonl.gz',
    });
    options.log?.(`generated ${dir} in ${seconds(t)}s`);
  }
  const e = openEngine({ path: file });
  const t = performance.now();
  await e.load(dir);
  options.log?.(`loaded ${file} in ${seconds(t)}s`);
  if (options.saveIndexes) buildIndexes(e);
  e.close();
  return file;
}
