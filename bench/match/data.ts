/**
 * Generated evaluation data, cached under bench/.data/: a seeded snapshot, its held-out copy, and (for
 * the large sizes) the built database file, so a second run starts in seconds.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../src/engine.js';
import { generateSnapshot } from '../../tools/generate/index.js';
import { holdOut, loadHeldOut, type HeldOutSnapshot } from './snapshot.js';

export const DATA = join(import.meta.dirname, '..', '.data');

export interface EvalData {
  snapshot: HeldOutSnapshot;
  engine: Engine;
}

const log = (msg: string) => process.stderr.write(msg + '\n');

/** Generates (once) and loads a held-out evaluation snapshot of the given size. */
export async function evalData(options: {
  businesses: number;
  prospects: number;
  seed?: number;
  /** Share of records kept in memory to draw evaluation rows from. */
  sample?: number;
  /** Keep the database in a file under bench/.data/ (reused by later runs). */
  file?: boolean;
}): Promise<EvalData> {
  const seed = options.seed ?? 11;
  // `g3`: generator with unique domains, profile slugs and mailboxes (bump when the generator changes).
  const name = `match-${options.businesses}-${options.prospects}-s${seed}-g3`;
  const src = join(DATA, name, 'snapshot');
  const held = join(DATA, name, 'held');
  mkdirSync(join(DATA, name), { recursive: true });
  if (!existsSync(join(src, 'manifest.json'))) {
    const t = performance.now();
    await generateSnapshot({
      dir: src,
      businesses: options.businesses,
      prospects: options.prospects,
      events: 0,
      seed,
      format: 'jsonl',
    });
    log(`generated ${name} in ${((performance.now() - t) / 1000).toFixed(1)}s`);
  }
  const t = performance.now();
  const dbPath = join(DATA, name, 'db.sqlite');
  const stamp = join(DATA, name, 'db.ok');
  const built = options.file === true && existsSync(stamp) && readFileSync(stamp, 'utf8') === 'ok';
  // With the database built, the held-out records only serve as evaluation rows: read them from a cache.
  const cache = join(DATA, name, `held-${options.sample ?? 1}.v8`);
  let snapshot: HeldOutSnapshot;
  if (built && existsSync(cache)) {
    snapshot = deserialize(readFileSync(cache)) as HeldOutSnapshot;
  } else {
    snapshot = await holdOut(src, held, 0.1, options.sample ?? 1);
    if (options.file) writeFileSync(cache, serialize(snapshot));
  }
  log(`held out 10% of ${name} in ${((performance.now() - t) / 1000).toFixed(1)}s`);
  let engine: Engine;
  if (options.file) {
    if (built) {
      // A built file is only read (it may be another checkout's, linked here): no schema or index
      // writes, and the engine's own state in memory rather than in a file beside it.
      engine = openEngine({ path: dbPath, readonly: true, state: ':memory:' });
    } else {
      const t2 = performance.now();
      engine = await loadHeldOut(snapshot, dbPath);
      writeFileSync(stamp, 'ok');
      log(`loaded ${name} in ${((performance.now() - t2) / 1000).toFixed(1)}s`);
    }
  } else {
    engine = await loadHeldOut(snapshot);
  }
  return { snapshot, engine };
}
