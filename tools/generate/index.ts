/**
 * A seeded, deterministic generator of realistic snapshots (docs/spec/snapshot-format.md): the same seed and
 * options give byte-identical files on every machine and library version (own PRNG and word lists).
 *
 * @example
 *   await generateSnapshot({ dir: 'demo', businesses: 2000, prospects: 10000, events: 3000, format: 'jsonl.gz' });
 *   for (const b of businesses(makePlan({ businesses: 10, prospects: 0, events: 0 }))) console.log(b.name);
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { businesses } from './business.js';
import { events } from './events.js';
import { makePlan, type Plan, type PlanOptions } from './plan.js';
import { prospects } from './prospect.js';
import { writeRecords, type SnapshotFormat } from './write.js';

export { businessRecord, businesses } from './business.js';
export { eventRecord, events } from './events.js';
export { DEFAULT_AS_OF, DEFAULT_SEED, makePlan, type Plan, type PlanOptions } from './plan.js';
export { prospectAt, prospectRecord, prospects } from './prospect.js';
export { FORMATS, writeRecords, type SnapshotFormat } from './write.js';

export interface GenerateOptions extends PlanOptions {
  dir: string;
  /** Default `jsonl`. */
  format?: SnapshotFormat;
}

export interface GenerateResult {
  dir: string;
  files: string[];
  counts: { businesses: number; prospects: number; events: number };
  elapsedMs: number;
}

const EXTENSION: Readonly<Record<SnapshotFormat, string>> = {
  jsonl: '.jsonl',
  'jsonl.gz': '.jsonl.gz',
  msgpack: '.msgpack',
};

/** Writes `manifest.json` and the three record streams of a generated snapshot into `dir`. */
export async function generateSnapshot(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const plan: Plan = makePlan(options);
  const format = options.format ?? 'jsonl';
  mkdirSync(options.dir, { recursive: true });
  const streams = [
    ['businesses', businesses(plan)],
    ['prospects', prospects(plan)],
    ['events', events(plan)],
  ] as const;
  const files: string[] = [];
  for (const [name, records] of streams) {
    const path = join(options.dir, name + EXTENSION[format]);
    await writeRecords(path, format, records);
    files.push(path);
  }
  const counts = { businesses: plan.businesses, prospects: plan.prospects, events: plan.events };
  const manifest = { format_version: 1, as_of: plan.asOf, counts, seed: plan.seed };
  writeFileSync(join(options.dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { dir: options.dir, files, counts, elapsedMs: performance.now() - started };
}
