/**
 * Bench data: a generated snapshot of a chosen size, loaded into a database file once and cached
 * (`~/.cache/prospectdb` or `--cache DIR`), so a second run starts in a second.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../src/engine.js';
import { generateSnapshot } from '../generate/index.js';
import { buildIndexes } from '../../src/core/warm.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';

/** `$XDG_CACHE_HOME/prospectdb`, else `~/.cache/prospectdb`. */
export function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'prospectdb');
}

export interface GeneratedOptions {
  businesses: number;
  prospects: number;
  seed: number;
  cacheDir: string;
  log: (message: string) => void;
}

/**
 * The path of a database holding the generated snapshot of this size and seed, built when missing.
 * The name carries the schema version, so a layout change never reuses an old file.
 */
export async function generatedDatabase(o: GeneratedOptions): Promise<{ path: string; cached: boolean }> {
  const name = `bench-b${o.businesses}-p${o.prospects}-s${o.seed}-v${SCHEMA_VERSION}`;
  const path = join(o.cacheDir, `${name}.db`);
  const stamp = join(o.cacheDir, `${name}.ok`);
  if (existsSync(path) && existsSync(stamp) && readFileSync(stamp, 'utf8') === 'ok')
    return { path, cached: true };
  mkdirSync(o.cacheDir, { recursive: true });
  for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`, stamp]) rmSync(f, { force: true });
  const dir = join(o.cacheDir, `${name}.snapshot`);
  let t = performance.now();
  await generateSnapshot({
    dir,
    businesses: o.businesses,
    prospects: o.prospects,
    events: 0,
    seed: o.seed,
    format: 'jsonl',
  });
  o.log(`generated ${o.businesses} businesses, ${o.prospects} prospects in ${secs(t)}`);
  t = performance.now();
  const engine = openEngine({ path });
  try {
    await engine.load(dir, { strict: true });
    o.log(`loaded into ${path} in ${secs(t)}`);
    t = performance.now();
    buildIndexes(engine);
    o.log(`built and saved the search indexes in ${secs(t)}`);
  } finally {
    engine.close();
  }
  rmSync(dir, { recursive: true, force: true }); // the database is the cache; the files are not needed
  writeFileSync(stamp, 'ok');
  return { path, cached: false };
}

export const secs = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
