/**
 * Event-loop responsiveness under a mixed heavy + hostile load over loopback HTTP (the server must keep
 * answering its health check under it): the server runs in a child process (`eventloop.server.ts`) on a fresh
 * copy of the demo file, and reports its event loop's delay (`monitorEventLoopDelay`: worst, p99); this
 * process drives the load and times the health check (p50/p99/max). Load: 6 clients looping over the heavy
 * requests of every route family (`test/support/heavy.ts`: 50-row match batches with typos, 500-record full
 * pages, stats, 50-id bulk enrichments, 50-entity research), 200 connections dribbling header bytes, and a
 * stream of requests with wrong keys and malformed JSON. Then, alone, a normal request beside 200 slow-header
 * connections.
 *
 * The baseline is the same load against the code before this work (`--rev`, default e86d1a0, the last
 * commit before the responsive server landed), served from a clone at `--baseline` (made there when
 * absent), in the same run.
 *
 *   node --import tsx bench/eventloop.bench.ts [--seconds 10] [--baseline /tmp/prospectdb-e86d1a0] [--rev e86d1a0]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, symlinkSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { openEngine } from '../src/engine.js';
import { DEMO_DIR } from '../test/support/demo.js';
import { heavyRequests } from '../test/support/heavy.js';
import { quantile, send } from '../test/support/http-client.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    baseline: { type: 'string', default: '/tmp/prospectdb-e86d1a0' },
    rev: { type: 'string', default: 'e86d1a0' },
  },
});
const seconds = Number(values.seconds);
const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

function ensureBaseline(dir: string): string {
  if (!existsSync(`${dir}/src/http/server.ts`)) {
    execFileSync('git', ['clone', '--quiet', '--shared', '--no-checkout', here, dir]);
    execFileSync('git', ['-C', dir, 'checkout', '--quiet', values.rev as string]);
    symlinkSync(`${here}/node_modules`, `${dir}/node_modules`);
  }
  return dir;
}

// One demo file, loaded once; every server gets its own copy (the first use saves indexes in it).
const master = '/tmp/eventloop-bench-demo.db';
rmSync(master, { force: true });
{
  const engine = openEngine({ path: master });
  await engine.load(DEMO_DIR);
  engine.close();
}
const reader = openEngine({ path: master, readonly: true });
const heavy = heavyRequests(reader);
reader.close();

interface Child {
  proc: ChildProcess;
  port: number;
  apiKey: string;
  listenMs: number;
  warmed: number;
}

async function start(root: string, name: string): Promise<Child> {
  const db = `/tmp/eventloop-bench-${name}.db`;
  rmSync(db, { force: true });
  copyFileSync(master, db);
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', `${here}/bench/eventloop.server.ts`, '--root', root, '--db', db],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { proc, ...(JSON.parse(line) as Omit<Child, 'proc'>) };
}

function report(child: Child): Promise<{ max: number; p99: number; p50: number; mean: number }> {
  return new Promise((resolve) => {
    child.proc.once('message', (m) => resolve(m as never));
    child.proc.send('report');
  });
}

function slowHeaders(port: number, n: number): () => void {
  const sockets: Socket[] = [];
  const timer = setInterval(() => {
    for (const s of sockets) if (s.writable) s.write('x');
  }, 100);
  for (let i = 0; i < n; i++) {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => {});
    s.write('GET /v1/credits HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    sockets.push(s);
  }
  return () => {
    clearInterval(timer);
    for (const s of sockets) s.destroy();
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(root: string, name: string) {
  const child = await start(root, name);
  const { port, apiKey } = child;
  const until = performance.now() + seconds * 1000;
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let heavyDone = 0;
  let failures = 0;
  const heavyClient = async (offset: number) => {
    for (let i = offset; performance.now() < until; i++) {
      const r = heavy[i % heavy.length]!;
      const res = await send(port, r.path, {
        method: r.method,
        body: r.body,
        headers: { api_key: apiKey },
        agent,
        timeoutMs: 60_000,
      });
      if (res.status === 200) heavyDone++;
      else failures++;
    }
  };
  // The attacker comes from another address (127.0.0.2), as it would: the per-address failed-auth
  // limit then stops its guesses without locking out the heavy clients' valid key on 127.0.0.1.
  const hostile = new Agent({ keepAlive: true, maxSockets: 1 });
  const hostileClient = async () => {
    for (let i = 0; performance.now() < until; i++) {
      await send(port, '/v1/businesses/match', {
        body: i % 2 ? '{"businesses_to_match": [' : { businesses_to_match: [{ name: 'acme' }] },
        headers: { api_key: i % 2 ? apiKey : `pdb_0000000${i % 10}_${'x'.repeat(43)}` },
        agent: hostile,
        localAddress: '127.0.0.2',
      }).catch(() => undefined);
      await sleep(20);
    }
  };
  const health: number[] = [];
  const healthClient = async () => {
    const own = new Agent({ keepAlive: true, maxSockets: 1 });
    while (performance.now() < until) {
      health.push((await send(port, '/healthcheck/http', { agent: own, timeoutMs: 30_000 })).ms);
      await sleep(10);
    }
    own.destroy();
  };
  const stopSlow = slowHeaders(port, 200);
  await Promise.all([
    ...Array.from({ length: 6 }, (_, i) => heavyClient(i * 3)),
    hostileClient(),
    healthClient(),
  ]);
  stopSlow();
  agent.destroy();
  hostile.destroy();
  const loop = await report(child);

  // A normal request beside 200 slow-header connections, on a fresh server with nothing else running.
  const quiet = await start(root, `${name}-quiet`);
  const stopQuiet = slowHeaders(quiet.port, 200);
  await sleep(300);
  const normal: number[] = [];
  for (let i = 0; i < 30; i++) {
    normal.push((await send(quiet.port, '/v1/credits', { headers: { api_key: quiet.apiKey } })).ms);
    await sleep(20);
  }
  stopQuiet();
  await report(quiet);
  return {
    listenMs: child.listenMs,
    warmedMs: child.warmed,
    heavyDone,
    failures,
    loop,
    health: {
      n: health.length,
      p50: quantile(health, 0.5),
      p99: quantile(health, 0.99),
      max: Math.max(...health),
    },
    normalBesideSlowHeaders: { p50: quantile(normal, 0.5), max: Math.max(...normal) },
  };
}

const baselineRoot = ensureBaseline(values.baseline!);
const results = {
  'main (baseline)': await run(baselineRoot, 'main'),
  'this branch': await run(here, 'branch'),
};
const f = (n: number) => n.toFixed(1).padStart(8);
console.log(`\nevent loop under mixed heavy + hostile load, ${seconds} s per run (ms)\n`);
console.log(
  'run               | heavy ok | start→listen | loop max | loop p99 | health p50 | health p99 | health max | normal beside 200 slow (p50/max)',
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(17)} | ${String(r.heavyDone).padStart(8)} | ${f(r.listenMs)}     | ${f(r.loop.max)} | ${f(r.loop.p99)} | ${f(r.health.p50)}   | ${f(r.health.p99)}   | ${f(r.health.max)}   | ${f(r.normalBesideSlowHeaders.p50)} / ${f(r.normalBesideSlowHeaders.max)}`,
  );
}
const [base, mine] = Object.values(results);
console.log(
  `\nratios main / branch: loop max ×${(base!.loop.max / mine!.loop.max).toFixed(1)}, health p99 ×${(base!.health.p99 / mine!.health.p99).toFixed(1)}, health max ×${(base!.health.max / mine!.health.max).toFixed(1)}`,
);
console.log(JSON.stringify(results));
for (const name of ['main', 'main-quiet', 'branch', 'branch-quiet'])
  rmSync(`/tmp/eventloop-bench-${name}.db`, { force: true });
rmSync(master, { force: true });
