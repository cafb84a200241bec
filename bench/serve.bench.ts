/**
 * Serving through real HTTP from 1 and 2 worker processes (`prospectdb serve --workers N`), with the
 * state store in SQLite (a file of its own, shared by the workers through WAL) and in PostgreSQL (a
 * throwaway server, `test/support/postgres.ts`): requests/s and p50/p99 latency of a 50-row business
 * match and a 100-row prospect fetch, both charging credits, measured by autocannon (keep-alive
 * connections, every request in flight at once per connection). Every configuration is shown beside the
 * 1-worker SQLite baseline of the same run. A generated snapshot (`search-db.ts`, cached in bench/.data),
 * rate limit off.
 *
 *   node --import tsx bench/serve.bench.ts [--prospects 20000] [--seconds 8] [--connections 16]
 *                                          [--configs sqlite:1,sqlite:2,postgres:1,postgres:2]
 *
 * autocannon runs in this process, on the same cores as the workers: on a small machine the load
 * generator takes part of the CPU the workers would use, so the 2-worker ratio is a lower bound.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openEngine } from '../src/engine.js';
import { freshDatabase, startPostgres, type PostgresServer } from '../test/support/postgres.js';
import { startServe, type ServeChild } from '../test/support/serve-child.js';
import { searchDatabase } from './search-db.js';

const { values } = parseArgs({
  options: {
    prospects: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    configs: { type: 'string', default: 'sqlite:1,sqlite:2,postgres:1,postgres:2' },
  },
});
const LOAD_BEFORE = loadavg();
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const log = (line: string) => console.error(line);

type StateKind = 'sqlite' | 'postgres';
interface Config {
  state: StateKind;
  workers: number;
}
const configs: Config[] = values.configs.split(',').map((c) => {
  const [state, workers] = c.split(':');
  if ((state !== 'sqlite' && state !== 'postgres') || !(Number(workers) >= 1))
    throw new TypeError(`--configs: '${c}' is not sqlite:N or postgres:N`);
  return { state, workers: Number(workers) };
});
const BASELINE: Config = { state: 'sqlite', workers: 1 };
const isBaseline = (c: Config) => c.state === BASELINE.state && c.workers === BASELINE.workers;
if (!configs.some(isBaseline)) configs.unshift(BASELINE);

const snapshot = await searchDatabase(Number(values.prospects), { saveIndexes: true, log });
const dir = mkdtempSync(join(tmpdir(), 'prospectdb-serve-bench-'));
let postgres: PostgresServer | undefined;

/**
 * A copy of the snapshot and a fresh state store of `kind`, with one account holding a billion
 * credits: no run sees what an earlier one wrote (ledger rows, WAL frames).
 */
async function prepare(kind: StateKind): Promise<{ file: string; state: string; apiKey: string }> {
  const own = mkdtempSync(join(dir, 'run-'));
  const file = join(own, 'snapshot.db');
  copyFileSync(snapshot, file);
  let state: string;
  if (kind === 'postgres') {
    postgres ??= await startPostgres();
    state = await freshDatabase(postgres.url);
  } else state = join(own, 'state.db');
  const engine = openEngine({ path: file, state });
  await engine.state.ready();
  const { api_key } = await engine.accounts.create({ name: 'bench', credits: 1_000_000_000 });
  engine.close();
  return { file, state, apiKey: api_key };
}

/** The two request bodies, from the snapshot's first rows. */
function cases(): Record<string, { path: string; body: string }> {
  const engine = openEngine({ path: snapshot, readonly: true });
  const rows = engine.db.prepare('SELECT name, domain FROM businesses ORDER BY rowid LIMIT 50').all() as {
    name: string;
    domain: string | null;
  }[];
  engine.close();
  return {
    'match 50 businesses': {
      path: '/v1/businesses/match',
      body: JSON.stringify({ businesses_to_match: rows.map((r) => ({ name: r.name, domain: r.domain })) }),
    },
    'fetch 100 prospects': {
      path: '/v1/prospects',
      body: JSON.stringify({ mode: 'full', page_size: 100, size: 100 }),
    },
  };
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(port: number, apiKey: string, path: string, body: string): Promise<Measure> {
  const opts = {
    url: `http://127.0.0.1:${port}${path}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', api_key: apiKey },
    body,
    connections,
  };
  await autocannon({ ...opts, duration: 1 }); // warm-up: JIT, page cache, pool connections
  const r = await autocannon({ ...opts, duration: seconds });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

const bodies = cases();
const results: { config: Config; name: string; m: Measure }[] = [];
for (const config of configs) {
  const { file, state, apiKey } = await prepare(config.state);
  const label = `${config.state}, ${config.workers} worker${config.workers > 1 ? 's' : ''}`;
  log(`starting ${label}`);
  const server: ServeChild = await startServe(file, [
    '--workers',
    String(config.workers),
    '--state',
    state,
    '--rate-limit',
    'off',
  ]);
  try {
    for (const [name, c] of Object.entries(bodies)) {
      const m = await measure(server.port, apiKey, c.path, c.body);
      log(`  ${name}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms`);
      results.push({ config, name, m });
    }
  } finally {
    await server.stop();
  }
}
await postgres?.stop();
rmSync(dir, { recursive: true, force: true });

const baseline = (name: string) => results.find((r) => r.name === name && isBaseline(r.config))!.m;
const lines = [
  `# serve bench: ${values.prospects} prospects, ${connections} connections, ${seconds} s per run`,
  ``,
  `${availableParallelism()} cores, load average before/after ${loadBefore()} / ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; node ${process.version}`,
  ``,
  `| request | state | workers | req/s | × baseline | p50 ms | p99 ms | baseline p50/p99 ms | errors | non-2xx |`,
  `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|`,
  ...results.map(({ config, name, m }) => {
    const b = baseline(name);
    return `| ${name} | ${config.state} | ${config.workers} | ${Math.round(m.rps)} | ${(m.rps / b.rps).toFixed(2)} | ${m.p50} | ${m.p99} | ${b.p50} / ${b.p99} | ${m.errors} | ${m.non2xx} |`;
  }),
];
const report = lines.join('\n');
console.log(report);
const out = join(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'serve.md'), `${report}\n`);

function loadBefore(): string {
  return LOAD_BEFORE.map((l) => l.toFixed(2)).join(' ');
}
