/**
 * Facade throughput: requests/s for match (50 rows) and fetch (page of 100), in-process (`handle`)
 * against over loopback HTTP (node:http, keep-alive, 8 requests in flight). The in-process figure is
 * the baseline; the ratio shows what the socket, HTTP parsing and JSON serialisation cost. Demo
 * snapshot, rate limit off, setup outside the timers.
 *
 *   node --import tsx bench/facade.bench.ts [--seconds 3]
 *
 * With `--prospects N`: fetch latency instead (`facade-latency.ts`), page 1 of 100 full records with
 * the total, through the facade (key lookup, rate-limit hit, credit charge on a state file of its own)
 * beside the core call alone, on the search bench's database of N prospects.
 *
 *   node --expose-gc --import tsx bench/facade.bench.ts --prospects 100000 [--requests 2000] [--db FILE]
 */
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAccount } from '../src/account/accounts.js';
import { openEngine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { serve } from '../src/serve/index.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    prospects: { type: 'string' },
    requests: { type: 'string', default: '2000' },
    db: { type: 'string' },
  },
});
if (values.prospects) {
  const { fetchLatency } = await import('./facade-latency.js');
  await fetchLatency({
    prospects: Number(values.prospects),
    requests: Number(values.requests),
    db: values.db,
  });
  process.exit(0);
}
const seconds = Number(values.seconds);
const DEMO = fileURLToPath(new URL('../fixtures/demo', import.meta.url));

const engine = openEngine({ rateLimit: false } as never);
await engine.load(DEMO);
const { api_key } = await createAccount(engine, { name: 'bench', credits: 1_000_000_000 });
const rows = engine.db.prepare('SELECT name, domain FROM businesses ORDER BY rowid LIMIT 50').all() as {
  name: string;
  domain: string | null;
}[];
const cases = {
  'match 50 rows': {
    path: '/v1/businesses/match',
    body: { businesses_to_match: rows.map((r) => ({ name: r.name, domain: r.domain })) },
  },
  'fetch page 100': {
    path: '/v1/businesses',
    body: { mode: 'full', page_size: 100, filters: { country_code: { values: ['us'] } } },
  },
};

async function timed(run: () => Promise<unknown>, concurrency: number): Promise<number> {
  for (let i = 0; i < 20; i++) await run(); // warm-up: indexes, JIT
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await run();
        n++;
      }
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

const server = await serve(engine, { port: 0 });
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
function post(path: string, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: { api_key, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

console.log(`facade throughput over the demo snapshot (${seconds}s per figure)`);
console.log('case            in-process req/s   HTTP req/s   HTTP / in-process');
for (const [name, c] of Object.entries(cases)) {
  const text = JSON.stringify(c.body);
  const status = (await handle(engine, { method: 'POST', path: c.path, headers: { api_key }, body: text }))
    .status;
  if (status !== 200) throw new Error(`${name}: status ${status}`);
  const inProcess = await timed(
    () => handle(engine, { method: 'POST', path: c.path, headers: { api_key }, body: text }),
    1,
  );
  const http = await timed(() => post(c.path, text), 8);
  console.log(
    `${name.padEnd(16)}${inProcess.toFixed(0).padStart(16)}${http.toFixed(0).padStart(13)}${(http / inProcess).toFixed(2).padStart(20)}`,
  );
}
agent.destroy();
await server.close();
engine.close();
