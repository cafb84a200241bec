/**
 * Bench support of `records.bench.ts`: fetch latency over one database file, through the core (the
 * stored records of 100 random rows: one read + decode) and through `engine.handle` (a v1 fetch page
 * of 100 full records with its total and credit charge). Uses only APIs the layout before schema 5
 * had too: the bench copies this file into a tree of `main` at 288dd0c and runs it there on the file
 * that tree loaded, as the same-run baseline.
 *
 *   node --import tsx bench/records-measure.ts --db FILE [--seconds 3]   (prints one JSON line)
 */
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { createAccount } from '../src/account/accounts.js';
import { businessRecords, prospectRecords } from '../src/core/records.js';
import { openEngine } from '../src/engine.js';

export interface Latency {
  p50: number;
  p99: number;
}

/** A seeded stream of numbers in [0, 1) (xorshift32), so both layouts read the same rows. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export async function measureFetch(path: string, seconds: number): Promise<Record<string, Latency>> {
  const engine = openEngine({ path, rateLimit: false } as never);
  try {
    const { api_key } = await createAccount(engine, { name: 'bench', credits: 1_000_000_000_000 });
    const max = (table: string) =>
      engine.db.prepare(`SELECT max(rowid) FROM ${table}`).pluck().get() as number;
    const rnd = random(7);
    const pages = (n: number) =>
      Array.from({ length: 64 }, () => Array.from({ length: 100 }, () => 1 + Math.floor(rnd() * n)));
    const prospectPages = pages(max('prospects'));
    const businessPages = pages(max('businesses'));
    // Offset pages that hold 100 records (v1 pages go up to 90 here).
    const lastPage = (table: string) => Math.max(1, Math.min(90, Math.floor(max(table) / 100)));
    const last = { prospects: lastPage('prospects'), businesses: lastPage('businesses') };
    const fetch = (entity: string, page: number) =>
      engine.handle({
        method: 'POST',
        path: `/v1/${entity}`,
        headers: { api_key },
        body: { mode: 'full', page_size: 100, page },
      });
    // First requests build the in-memory indexes: outside the timers.
    for (const entity of ['prospects', 'businesses']) {
      const r = await fetch(entity, 1);
      if (r.status !== 200) throw new Error(`fetch ${entity}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    let i = 0;
    const bench = new Bench({ time: seconds * 1000, warmup: true });
    bench
      .add('core: 100 prospect records', () => {
        prospectRecords(engine, prospectPages[i++ & 63]!, 'full');
      })
      .add('core: 100 business records', () => {
        businessRecords(engine, businessPages[i++ & 63]!, 'full');
      })
      .add('handle: v1 prospects page of 100', async () => {
        await fetch('prospects', 1 + (i++ % last.prospects));
      })
      .add('handle: v1 businesses page of 100', async () => {
        await fetch('businesses', 1 + (i++ % last.businesses));
      });
    await bench.run();
    const out: Record<string, Latency> = {};
    for (const t of bench.tasks) {
      const latency = (t.result as { latency: Latency }).latency;
      out[t.name] = { p50: latency.p50, p99: latency.p99 };
    }
    return out;
  } finally {
    engine.close();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: { db: { type: 'string' }, seconds: { type: 'string', default: '3' } },
  });
  if (!values.db) throw new Error('--db FILE');
  console.log(JSON.stringify(await measureFetch(values.db, Number(values.seconds))));
}
