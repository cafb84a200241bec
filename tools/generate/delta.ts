/**
 * A seeded random delta against a snapshot folder (docs/spec/snapshot-format.md, "Deltas"), and optionally
 * the merged snapshot it should make (the base's records with the delta applied, as a full load reads
 * them), so tests and benches compare a delta applied with a full load of the same data.
 *
 * What it changes, each a `fraction` of the base's records: businesses replaced by other generated
 * records under the same id (new names, sizes, websites: their prospects' company fields change),
 * prospects replaced the same way (some moved to another employer), events replaced; as many new
 * businesses, prospects (some employed by the new businesses) and events; deletions of each kind; and
 * a few businesses deleted and listed again (a record deleted and re-added lands after the base's).
 *
 * @example await generateDelta({ base: 'snap', dir: 'delta', merged: 'snap-next', fraction: 0.01 });
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveSnapshot, STREAMS, type StreamFile, type StreamName } from '../../src/snapshot/files.js';
import { readBatches } from '../../src/snapshot/read.js';
import { Prng } from '../rng.js';
import { businessRecord } from './business.js';
import { eventRecord } from './events.js';
import { makePlan } from './plan.js';
import { prospectAt } from './prospect.js';
import { writeRecords, type SnapshotFormat } from './write.js';

export interface DeltaGenerateOptions {
  /** The base snapshot folder (JSON Lines, plain or gzip). */
  base: string;
  /** Where the delta folder is written. */
  dir: string;
  /** Share of each stream's base records replaced, and again added, and deleted. Default 0.01. */
  fraction?: number;
  /** Default: the base manifest's seed + 1 (or 43). */
  seed?: number;
  /** The delta's `as_of`. Default: the base's. */
  asOf?: string;
  /** Also write the merged snapshot (base + delta) here. */
  merged?: string;
  /** Default `jsonl`. MessagePack is not offered: a delta is read as JSON Lines by most tools. */
  format?: Exclude<SnapshotFormat, 'msgpack'>;
}

export interface DeltaGenerateResult {
  dir: string;
  baseSnapshotId: string;
  /** Lines per delta file. */
  counts: Record<StreamName | 'deletions', number>;
  elapsedMs: number;
}

const ID_KEY: Record<StreamName, string> = {
  businesses: 'business_id',
  prospects: 'prospect_id',
  events: 'event_id',
};

type Rec = Record<string, unknown>;

/** The snapshot id a fresh load of these files gets (`store/snapshot-id.ts` over the files' hashes). */
export function snapshotIdOfFiles(files: readonly StreamFile[]): string {
  const hashes = STREAMS.map((s) => {
    const f = files.find((x) => x.stream === s);
    return f ? createHash('sha256').update(readFileSync(f.path)).digest('hex') : '';
  });
  return createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 32);
}

async function* records(file: StreamFile): AsyncGenerator<Rec> {
  for await (const batch of readBatches(file.path, file.format)) {
    for (const r of batch) if (r.error === undefined) yield r.value as Rec;
  }
}

/** `n` distinct indexes below `size`, drawn without the ones in `not`. */
function pick(rng: Prng, size: number, n: number, not: Set<number> = new Set()): Set<number> {
  const out = new Set<number>();
  n = Math.min(n, Math.max(0, size - not.size));
  while (out.size < n) {
    const i = rng.int(size);
    if (!not.has(i)) out.add(i);
  }
  return out;
}

/** Writes a delta folder against `options.base` (and the merged snapshot when asked). */
export async function generateDelta(options: DeltaGenerateOptions): Promise<DeltaGenerateResult> {
  const started = performance.now();
  const base = resolveSnapshot(options.base);
  const manifest = (base.manifest ?? {}) as { seed?: number; as_of?: string };
  const seed = options.seed ?? (manifest.seed ?? 42) + 1;
  const asOf = options.asOf ?? manifest.as_of ?? '2026-11-02T00:00:00Z';
  const fraction = options.fraction ?? 0.01;
  const format = options.format ?? 'jsonl';
  const ext = format === 'jsonl' ? '.jsonl' : '.jsonl.gz';
  const rng = new Prng(seed);
  const fileOf = (s: StreamName) => base.files.find((f) => f.stream === s);

  // The base's ids, in order (ids only: a million prospects' records never sit in memory).
  const ids = {} as Record<StreamName, string[]>;
  for (const s of STREAMS) {
    ids[s] = [];
    const f = fileOf(s);
    if (f) for await (const r of records(f)) ids[s].push(r[ID_KEY[s]] as string);
  }
  const n = (s: StreamName) => Math.max(1, Math.round(ids[s].length * fraction));
  const deleted = {} as Record<StreamName, Set<number>>;
  const replaced = {} as Record<StreamName, Set<number>>;
  for (const s of STREAMS) {
    deleted[s] = ids[s].length ? pick(rng, ids[s].length, n(s)) : new Set();
    replaced[s] = ids[s].length ? pick(rng, ids[s].length, n(s), deleted[s]) : new Set();
  }
  // A few deleted businesses come back as new records (deleted, then listed again).
  const readded = [...deleted.businesses].slice(0, Math.ceil(deleted.businesses.size / 4));

  // Replacement and new records come from another generated snapshot (the delta's seed).
  const size = Math.max(ids.businesses.length, 1);
  const other = makePlan({
    businesses: size,
    prospects: Math.max(ids.prospects.length, 1),
    events: Math.max(ids.events.length, 1),
    seed,
    asOf,
  });
  const liveBusinesses = ids.businesses.filter((_, i) => !deleted.businesses.has(i));
  const newBusinesses: Rec[] = [];
  const businessIds = new Set(ids.businesses);
  for (let j = 0; j < n('businesses'); j++) {
    const b = businessRecord(other, (j * 7919) % size);
    if (businessIds.has(b.business_id as string)) continue;
    newBusinesses.push(b);
    businessIds.add(b.business_id as string);
  }
  for (const i of readded)
    newBusinesses.push({ ...businessRecord(other, rng.int(size)), business_id: ids.businesses[i] });
  const employers = [...liveBusinesses, ...newBusinesses.map((b) => b.business_id as string)];
  const employer = () =>
    employers.length && !rng.chance(0.03) ? employers[rng.int(employers.length)]! : null;

  const replacement = new Map<string, Rec>();
  for (const i of replaced.businesses) {
    replacement.set(ids.businesses[i]!, {
      ...businessRecord(other, rng.int(size)),
      business_id: ids.businesses[i],
    });
  }
  const prospectCount = other.prospects;
  for (const i of replaced.prospects) {
    const p = prospectAt(other, rng.int(prospectCount));
    // Half keep a base employer, half move (possibly to a new business).
    replacement.set(ids.prospects[i]!, { ...p, prospect_id: ids.prospects[i], business_id: employer() });
  }
  const newProspects: Rec[] = [];
  const prospectIds = new Set(ids.prospects);
  for (let j = 0; j < n('prospects'); j++) {
    const p = prospectAt(other, (j * 104729) % prospectCount);
    if (prospectIds.has(p.prospect_id as string)) continue;
    prospectIds.add(p.prospect_id as string);
    newProspects.push({ ...p, business_id: employer() });
  }
  const liveProspects = ids.prospects.filter((_, i) => !deleted.prospects.has(i));
  const about = (e: Rec): Rec => {
    if ('business_id' in e && liveBusinesses.length)
      return { ...e, business_id: liveBusinesses[rng.int(liveBusinesses.length)] };
    if ('prospect_id' in e && liveProspects.length)
      return { ...e, prospect_id: liveProspects[rng.int(liveProspects.length)] };
    return e;
  };
  for (const i of replaced.events) {
    replacement.set(ids.events[i]!, {
      ...about(eventRecord(other, rng.int(other.events))),
      event_id: ids.events[i],
    });
  }
  const newEvents: Rec[] = [];
  const eventIds = new Set(ids.events);
  for (let j = 0; j < n('events') && ids.events.length; j++) {
    const e = about(eventRecord(other, rng.int(other.events)));
    if (eventIds.has(e.event_id as string)) continue;
    newEvents.push(e);
    eventIds.add(e.event_id as string);
  }
  const added: Record<StreamName, Rec[]> = {
    businesses: newBusinesses,
    prospects: newProspects,
    events: newEvents,
  };

  const upserts = (s: StreamName): Rec[] => [
    ...[...replaced[s]].sort((a, b) => a - b).map((i) => replacement.get(ids[s][i]!)!),
    ...added[s],
  ];
  const deletions: Rec[] = STREAMS.flatMap((s) =>
    [...deleted[s]].sort((a, b) => a - b).map((i) => ({ [ID_KEY[s]]: ids[s][i] })),
  );

  mkdirSync(options.dir, { recursive: true });
  const counts = { businesses: 0, prospects: 0, events: 0, deletions: 0 };
  for (const s of STREAMS) {
    if (!fileOf(s)) continue;
    counts[s] = await writeRecords(join(options.dir, s + ext), format, upserts(s));
  }
  counts.deletions = await writeRecords(join(options.dir, 'deletions' + ext), format, deletions);
  const baseSnapshotId = snapshotIdOfFiles(base.files);
  const deltaManifest = {
    format_version: 1,
    kind: 'delta',
    base_snapshot_id: baseSnapshotId,
    as_of: asOf,
    seed,
  };
  writeFileSync(join(options.dir, 'manifest.json'), JSON.stringify(deltaManifest, null, 2) + '\n');

  if (options.merged) {
    mkdirSync(options.merged, { recursive: true });
    const total: Record<string, number> = {};
    for (const s of STREAMS) {
      const f = fileOf(s);
      if (!f) continue;
      async function* merged(): AsyncGenerator<Rec> {
        let i = 0;
        for await (const r of records(f!)) {
          const at = i++;
          if (deleted[s].has(at)) continue;
          yield replacement.get(r[ID_KEY[s]] as string) ?? r;
        }
        yield* added[s];
      }
      total[s] = await writeRecords(join(options.merged, s + ext), format, merged());
    }
    const m = { format_version: 1, as_of: asOf, counts: total };
    writeFileSync(join(options.merged, 'manifest.json'), JSON.stringify(m, null, 2) + '\n');
  }
  return { dir: options.dir, baseSnapshotId, counts, elapsedMs: performance.now() - started };
}
