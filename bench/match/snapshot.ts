/**
 * Evaluation snapshots: read the records of a generated snapshot, hold a fraction of entities out of the
 * database (they become the "not in the snapshot" rows of the evaluation set) and load the rest.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../src/engine.js';
import type { BusinessRecordInput, ProspectRecordInput } from '../../src/schemas/records.js';
import { resolveSnapshot } from '../../src/snapshot/files.js';
import { readBatches } from '../../src/snapshot/read.js';

export type BusinessDoc = BusinessRecordInput & { business_id: string; name: string };
export type ProspectDoc = ProspectRecordInput & { prospect_id: string };

/** A deterministic hash of an id into [0, 1). */
export function unit(id: string, salt = 0): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 0x100000000;
}

export interface HeldOutSnapshot {
  /** The sampled records the evaluation rows are drawn from (slim copies: the fields matching reads). */
  businesses: BusinessDoc[];
  prospects: ProspectDoc[];
  /** Ids kept out of the database. */
  heldBusinesses: Set<string>;
  heldProspects: Set<string>;
  /** Folder holding the filtered `businesses.jsonl` and `prospects.jsonl`. */
  dir: string;
}

function slimBusiness(b: BusinessDoc): BusinessDoc {
  const { business_id, name, domain, website, linkedin_profile, country_code } = b;
  return { business_id, name, domain, website, linkedin_profile, country_code };
}

function slimProspect(p: ProspectDoc): ProspectDoc {
  const { prospect_id, business_id, full_name, first_name, last_name, emails, phone_numbers, linkedin } = p;
  return { prospect_id, business_id, full_name, first_name, last_name, emails, phone_numbers, linkedin };
}

class LineWriter {
  private readonly out;
  private buf = '';
  constructor(path: string) {
    this.out = createWriteStream(path);
  }
  async write(record: unknown): Promise<void> {
    this.buf += JSON.stringify(record) + '\n';
    if (this.buf.length > 1 << 20) {
      const ok = this.out.write(this.buf);
      this.buf = '';
      if (!ok) await once(this.out, 'drain');
    }
  }
  async close(): Promise<void> {
    this.out.end(this.buf);
    await once(this.out, 'finish');
  }
}

/**
 * Streams the snapshot into `outDir` minus a `fraction` of its businesses (with their prospects) and a
 * `fraction` of the other prospects. Keeps slim copies of a `sample` share of the records (all when 1)
 * for drawing evaluation rows, and the held-out ids.
 */
export async function holdOut(
  dir: string,
  outDir: string,
  fraction: number,
  sample = 1,
): Promise<HeldOutSnapshot> {
  mkdirSync(outDir, { recursive: true });
  const files = resolveSnapshot(dir).files;
  const businesses: BusinessDoc[] = [];
  const prospects: ProspectDoc[] = [];
  const heldBusinesses = new Set<string>();
  const heldProspects = new Set<string>();
  for (const stream of ['businesses', 'prospects'] as const) {
    const file = files.find((f) => f.stream === stream);
    const writer = new LineWriter(join(outDir, `${stream}.jsonl`));
    if (file !== undefined) {
      for await (const batch of readBatches(file.path, file.format)) {
        for (const r of batch) {
          if (r.error !== undefined) continue;
          if (stream === 'businesses') {
            const b = r.value as BusinessDoc;
            const held = unit(b.business_id, 1) < fraction;
            if (held) heldBusinesses.add(b.business_id);
            else await writer.write(b);
            if (sample >= 1 || unit(b.business_id, 3) < sample) businesses.push(slimBusiness(b));
          } else {
            const p = r.value as ProspectDoc;
            const held =
              (p.business_id != null && heldBusinesses.has(p.business_id)) ||
              unit(p.prospect_id, 2) < fraction;
            if (held) heldProspects.add(p.prospect_id);
            else await writer.write(p);
            if (sample >= 1 || unit(p.prospect_id, 3) < sample) prospects.push(slimProspect(p));
          }
        }
      }
    }
    await writer.close();
  }
  return { businesses, prospects, heldBusinesses, heldProspects, dir: outDir };
}

/**
 * An engine over a held-out folder (in memory, or a database file when `path` is given), loaded on
 * `threads` threads (default: the cores available; the tests pass 1, as their workers would each load
 * tsx and the loader's modules first).
 */
export async function loadHeldOut(
  snapshot: HeldOutSnapshot,
  path?: string,
  threads?: number,
): Promise<Engine> {
  const engine = openEngine({ path, clock: () => Date.parse('2026-11-01T12:00:00Z') });
  await engine.load(
    { businesses: join(snapshot.dir, 'businesses.jsonl'), prospects: join(snapshot.dir, 'prospects.jsonl') },
    { strict: true, threads },
  );
  return engine;
}
