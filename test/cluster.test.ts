/**
 * `prospectdb serve --workers N`: N processes on one port (node:cluster). Every answer names its process
 * (`x-prospectdb-pid`, diagnostics on), so the tests see which worker served it: both workers answer, a
 * killed worker is replaced, SIGTERM lets in-flight requests finish and exits 0, `--workers 1` serves
 * from the process itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/engine.js';
import { getMeta } from '../src/store/open.js';
import { demoEngine } from './support/demo.js';
import { send } from './support/http-client.js';
import { alive, startServe, type ServeChild } from './support/serve-child.js';

let dir: string;
let db: string;
let apiKey: string;
const running: ServeChild[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prospectdb-cluster-'));
  db = join(dir, 'demo.db');
  const engine = await demoEngine({ path: db, clock: Date.now });
  apiKey = (await engine.accounts.create({ name: 'cluster', credits: 1_000_000 })).api_key;
  engine.close();
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
  rmSync(dir, { recursive: true, force: true });
});

async function start(args: string[]): Promise<ServeChild> {
  const s = await startServe(db, args);
  running.push(s);
  return s;
}

const FETCH = { mode: 'full', page_size: 10, filters: { country_code: { values: ['us'] } } };

/** `n` fetches, each on a connection of its own (so the primary hands them to the workers in turn). */
async function fetchPids(port: number, n: number): Promise<number[]> {
  const replies = await Promise.all(
    Array.from({ length: n }, () =>
      send(port, '/v1/businesses', { body: FETCH, headers: { api_key: apiKey }, agent: false }),
    ),
  );
  for (const r of replies) expect(r.status, r.body).toBe(200);
  for (const r of replies) expect(JSON.parse(r.body).data).toHaveLength(10);
  return replies.map((r) => Number(r.headers['x-prospectdb-pid']));
}

describe('serve --workers 2', () => {
  // One cluster for the whole file (each start costs seconds of process start-up and index warming).
  let s: ServeChild;
  beforeAll(async () => {
    s = await start(['--workers', '2']);
  });

  it('answers from both workers, none from the primary', async () => {
    const pids = new Set(await fetchPids(s.port, 20));
    expect(pids.size).toBe(2);
    expect(pids.has(s.child.pid!)).toBe(false);
  });

  it('replaces a killed worker; the survivor answers meanwhile', async () => {
    const before = [...new Set(await fetchPids(s.port, 10))];
    expect(before).toHaveLength(2);
    const [victim, survivor] = before as [number, number];
    process.kill(victim, 'SIGKILL');
    await s.waitFor(new RegExp(`worker ${victim} exited with signal SIGKILL`));
    expect(new Set(await fetchPids(s.port, 4))).toEqual(new Set([survivor]));
    const [, replacement] = (await s.waitFor(/worker (\d+) listening/)).map(Number) as [number, number];
    expect(replacement).not.toBe(victim);
    expect(new Set(await fetchPids(s.port, 10))).toEqual(new Set([survivor, replacement]));
  });

  it('a cursor from one worker is accepted by the other (one secret, made by the first worker)', async () => {
    // Made while the first worker warmed, before any request: no two workers can each make their own.
    const check = openEngine({ path: db, readonly: true });
    expect(getMeta(check.db, 'cursor_secret')).toMatch(/^[0-9a-f]{64}$/);
    check.close();
    const pids = new Set<string>();
    let cursor: string | null = null;
    const seen: string[] = [];
    for (let page = 0; page < 6; page++) {
      const r = await send(s.port, '/v2/businesses', {
        body: { mode: 'preview', page_size: 5, next_cursor: cursor, filters: {} },
        headers: { api_key: apiKey },
        agent: false,
      });
      expect(r.status, r.body).toBe(200);
      pids.add(String(r.headers['x-prospectdb-pid']));
      const body = JSON.parse(r.body) as { data: { business_id: string }[]; page: { next_cursor: string } };
      seen.push(...body.data.map((d) => d.business_id));
      cursor = body.page.next_cursor;
    }
    expect(pids.size).toBe(2);
    expect(new Set(seen).size).toBe(30);
  });

  it('a cluster whose workers cannot start (the port is taken) exits with code 1', async () => {
    const failed = await startServe(db, ['--workers', '2'], { port: s.port }).then(
      (other) => (running.push(other), 'started'),
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/serve exited before/);
    expect(failed).toMatch(/EADDRINUSE/);
    expect(failed).toMatch(/before listening; stopping/);
  });

  it('SIGTERM: in-flight requests finish, every worker exits, the primary exits 0', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const workers = [...new Set(await fetchPids(s.port, 10))];
    // Connections open first, so the requests are in the workers' hands when the signal arrives.
    await Promise.all(
      Array.from({ length: 8 }, () => send(s.port, '/healthcheck/http', { agent, headers: {} })),
    );
    const inFlight = Array.from({ length: 8 }, () =>
      send(s.port, '/v1/businesses', {
        body: { ...FETCH, page_size: 100 },
        headers: { api_key: apiKey },
        agent,
        timeoutMs: 20_000,
      }),
    );
    await new Promise((r) => setTimeout(r, 30));
    const exit = s.stop('SIGTERM');
    const replies = await Promise.all(inFlight);
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(s.log()).toMatch(/SIGTERM: stopping 2 workers/);
    expect(workers.filter(alive)).toEqual([]);
    agent.destroy();
  });
});

describe('serve --workers 1', () => {
  it('serves from the process itself, without a fork', async () => {
    const s = await start(['--workers', '1']);
    expect(new Set(await fetchPids(s.port, 4))).toEqual(new Set([s.child.pid]));
    expect(await s.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });
});
