/**
 * The server stays responsive under heavy and hostile load (no request starves the others): the health check
 * keeps answering while 50-row match batches with typos, full-record pages, stats, bulk enrichments and
 * research run concurrently, and their answers stay exactly the in-process ones; 200 connections that
 * dribble their headers do not stop a normal request, and the server cuts them after `headersTimeout`.
 * Only hang guards here: the latency figures are measured by `bench/eventloop.bench.ts`.
 */
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import type { Engine } from '../src/engine.js';
import { serve, type RunningServer } from '../src/serve/index.js';
import { DEMO_DIR, demoEngine } from './support/demo.js';
import { heavyRequests, type HeavyRequest } from './support/heavy.js';
import { quantile, send } from './support/http-client.js';

let engine: Engine;
let server: RunningServer;
let apiKey: string;
const warmUps: Record<string, number>[] = [];

beforeAll(async () => {
  engine = await demoEngine({ rateLimit: false } as never);
  apiKey = (await createAccount(engine, { name: 'Load', credits: 1e9, entitlements: ['*'] })).api_key;
  server = await serve(engine, {
    port: 0,
    timeouts: { headersMs: 1_500 },
    onWarm: (took) => warmUps.push(took),
  });
});
afterAll(async () => {
  await server.close();
  engine.close();
});

/** The body without `response_context` (it carries the time taken). */
function comparable(text: string): unknown {
  const body = JSON.parse(text) as unknown;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const { response_context: _, ...rest } = body as Record<string, unknown>;
    return rest;
  }
  return body;
}

describe('responsiveness', () => {
  it('builds every index before listening, and again after the data changes', async () => {
    expect(warmUps).toHaveLength(1);
    expect(Object.keys(warmUps[0]!)).toEqual(
      expect.arrayContaining([
        'search.prospectIndex',
        'match.businesses',
        'match.prospects',
        'stats.prospects',
      ]),
    );
    // A new event (a copy of a demo one under a new id) bumps the data version, as an ingest by
    // another process would.
    const line = (await readFile(`${DEMO_DIR}/events.jsonl.gz`).then((b) => gunzipSync(b).toString()))
      .split('\n', 1)[0]!
      .replaceAll(/"event_id":"[0-9a-f]{32}"/g, `"event_id":"${'e'.repeat(32)}"`);
    expect((await engine.ingestEvents([JSON.parse(line)])).ingested).toBe(1);
    const deadline = Date.now() + 10_000;
    while (warmUps.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(warmUps).toHaveLength(2);
    expect((await send(server.port, '/healthcheck/http')).status).toBe(200);
  }, 20_000);

  it('answers every health check while heavy requests run, and the heavy answers are unchanged', async () => {
    const heavy = heavyRequests(engine);
    const expected = new Map<string, unknown>();
    for (const r of heavy) {
      const res = await engine.handle({
        method: r.method,
        path: r.path,
        headers: { api_key: apiKey },
        body: r.body,
      });
      expect(res.status, r.name).toBe(200);
      expected.set(r.name, comparable(JSON.stringify(res.body)));
    }

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    let running = true;
    const delays: number[] = [];
    const poll = (async () => {
      const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (running) {
        const r = await send(server.port, '/healthcheck/http', { agent: healthAgent, timeoutMs: 2_000 });
        expect(r.status).toBe(200);
        expect(r.body).toBe('"OK"');
        delays.push(r.ms);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      healthAgent.destroy();
    })();

    const queue: HeavyRequest[] = [...heavy, ...heavy];
    const worker = async () => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        const res = await send(server.port, r.path, {
          method: r.method,
          body: r.body,
          headers: { api_key: apiKey },
          agent,
          timeoutMs: 30_000,
        });
        expect(res.status, r.name).toBe(200);
        expect(comparable(res.body), r.name).toEqual(expected.get(r.name));
      }
    };
    try {
      await Promise.all(Array.from({ length: 6 }, worker));
    } finally {
      running = false;
      await poll;
      agent.destroy();
    }
    expect(delays.length).toBeGreaterThan(0);
    console.info(
      `health check under load: n=${delays.length} p50=${quantile(delays, 0.5).toFixed(1)} ms ` +
        `p99=${quantile(delays, 0.99).toFixed(1)} ms max=${Math.max(...delays).toFixed(1)} ms`,
    );
  }, 60_000);

  it('answers a normal request beside 200 slow-header connections and cuts them after headersTimeout', async () => {
    const sockets: Socket[] = [];
    const closed: Promise<string>[] = [];
    const timers: NodeJS.Timeout[] = [];
    for (let i = 0; i < 200; i++) {
      const socket = connect(server.port, '127.0.0.1');
      sockets.push(socket);
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
      socket.on('error', () => {});
      closed.push(new Promise((resolve) => socket.on('close', () => resolve(answer))));
      socket.write('GET /v1/credits HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      // One more header byte every 100 ms: the connection never goes idle, the headers never end.
      timers.push(setInterval(() => socket.writable && socket.write('x'), 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const normal = await send(server.port, '/v1/credits', { headers: { api_key: apiKey }, timeoutMs: 2_000 });
    expect(normal.status).toBe(200);
    const health = await send(server.port, '/healthcheck/http', { timeoutMs: 2_000 });
    expect(health.status).toBe(200);

    const guard = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('slow-header connections still open after 8 s')), 8_000),
    );
    try {
      const answers = await Promise.race([Promise.all(closed), guard]);
      // node answers 408 before it closes a connection whose headers did not arrive in time.
      for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
    }
  }, 20_000);
});
